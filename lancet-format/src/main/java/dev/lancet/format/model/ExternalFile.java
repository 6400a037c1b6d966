package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.Objects;

/** A byte range of a file, relative to the table root. */
public record ExternalFile(String path, long offset, long size, UnknownFieldSet unknownFields) {
  public ExternalFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  public ExternalFile(String path, long offset, long size) {
    this(path, offset, size, UnknownFieldSet.getDefaultInstance());
  }
}
