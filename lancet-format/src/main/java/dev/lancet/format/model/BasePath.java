package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.Objects;
import java.util.Optional;

/**
 * An extra storage root that files name through {@code base_id}. A dataset root keeps files
 * under {@code data/}, {@code _deletions/}, {@code _indices/}; otherwise directly in it.
 */
public record BasePath(
    int id, Optional<String> name, boolean isDatasetRoot, String path, UnknownFieldSet unknownFields) {
  public BasePath {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  public BasePath(int id, Optional<String> name, boolean isDatasetRoot, String path) {
    this(id, name, isDatasetRoot, path, UnknownFieldSet.getDefaultInstance());
  }

  public BasePath withId(int newId) {
    return new BasePath(newId, name, isDatasetRoot, path, unknownFields);
  }
}
