package dev.lancet.core.store;

import java.io.IOException;

/**
 * An object is larger than its reader allows, so it was refused without being read: reading a
 * 2 GB file that claims to be a 1 KB version hint would take gigabytes of memory first. The limit
 * comes from the format (a hint is tiny) or is configurable ({@code dev.lancet.core.version.ReadLimits}).
 */
public class ObjectTooLargeException extends IOException {
  private final String path;
  private final long size;
  private final long limit;

  public ObjectTooLargeException(String path, long size, long limit) {
    super("Object " + path + " is " + size + " bytes, more than the " + limit + " bytes its reader allows");
    this.path = path;
    this.size = size;
    this.limit = limit;
  }

  public String path() {
    return path;
  }

  public long size() {
    return size;
  }

  public long limit() {
    return limit;
  }
}
