package dev.lancet.file;

import java.io.IOException;

/**
 * A Lance data file whose bytes contradict themselves (a truncated or damaged file): the
 * message names the file and, where known, the column, the page and what is wrong.
 */
public final class CorruptFileException extends IOException {
  private static final long serialVersionUID = 1L;

  public CorruptFileException(String message) {
    super(message);
  }

  public CorruptFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
