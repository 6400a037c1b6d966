package dev.lancet.file;

import java.io.IOException;

/**
 * A well-formed Lance file (or column, or page) that the Java reader does not decode: a file
 * version it does not know, a schema shape, a layout or compression. The caller reads it with
 * lance-core instead.
 */
public final class UnsupportedFileException extends IOException {
  private static final long serialVersionUID = 1L;

  public UnsupportedFileException(String message) {
    super(message);
  }
}
