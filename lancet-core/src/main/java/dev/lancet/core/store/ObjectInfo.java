package dev.lancet.core.store;

import java.util.Objects;

/**
 * One entry of {@link ObjectStore#list}.
 *
 * @param path the object's path relative to the table root, e.g. {@code "_versions/1.manifest"}
 * @param size the object's size in bytes
 */
public record ObjectInfo(String path, long size) {
  public ObjectInfo {
    Objects.requireNonNull(path, "path");
    if (size < 0) {
      throw new IllegalArgumentException("Negative size " + size + " for object " + path);
    }
  }

  /** The last segment of the path, e.g. {@code "1.manifest"}. */
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
