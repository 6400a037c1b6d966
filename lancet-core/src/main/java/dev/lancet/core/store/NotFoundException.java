package dev.lancet.core.store;

import java.io.IOException;

/** Thrown when an object that must exist does not. */
public class NotFoundException extends IOException {
  private final String path;

  public NotFoundException(String path) {
    this(path, null);
  }

  public NotFoundException(String path, Throwable cause) {
    super("Object not found: " + path, cause);
    this.path = path;
  }

  /** The path that was not found, relative to the table root. */
  public String path() {
    return path;
  }
}
