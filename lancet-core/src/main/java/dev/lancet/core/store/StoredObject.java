package dev.lancet.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One file found by {@link ObjectStore#walk}: its path relative to the table root, size, last
 * modification time, and whether it is the temporary file of a write that never finished (a
 * killed writer's leftover, which only {@link ObjectStore#deleteTemporary} removes).
 */
public record StoredObject(String path, long size, Instant lastModified, boolean temporary) {
  public StoredObject {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
