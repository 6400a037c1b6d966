package dev.lancet.core.store;

import java.io.IOException;

/**
 * Thrown by {@link ObjectStore#putIfAbsent} when an object already exists at the path: another
 * writer won the race (or the path was written before).
 */
public class AlreadyExistsException extends IOException {
  private final String path;

  public AlreadyExistsException(String path) {
    this(path, null);
  }

  public AlreadyExistsException(String path, Throwable cause) {
    super("Object already exists: " + path, cause);
    this.path = path;
  }

  /** The path that already existed, relative to the table root. */
  public String path() {
    return path;
  }
}
