package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.Objects;

/** The data file format and version every data file of a version uses ("lance", "2.1"). */
public record DataStorageFormat(String fileFormat, String version, UnknownFieldSet unknownFields) {
  public DataStorageFormat {
    Objects.requireNonNull(fileFormat, "fileFormat");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  public DataStorageFormat(String fileFormat, String version) {
    this(fileFormat, version, UnknownFieldSet.getDefaultInstance());
  }
}
