package dev.lancet.core.store;

import java.io.EOFException;

/** Range checks shared by the stores (the kernel's and the store modules'), so every store rejects the same ranges the same way. */
public final class Ranges {
  private Ranges() {}

  public static void checkArguments(String path, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "Invalid range for " + path + ": offset " + offset + ", length " + length + " (both must be >= 0)");
    }
  }

  public static void checkWithinSize(String path, long offset, int length, long size) throws EOFException {
    if (offset > size || length > size - offset) {
      throw new EOFException(
          "Range [" + offset + ", " + (offset + length) + ") is past the end of " + path + " (size " + size + ")");
    }
  }
}
