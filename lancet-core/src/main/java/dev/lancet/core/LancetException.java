package dev.lancet.core;

/** Base of the errors the kernel raises about tables (not about malformed bytes). */
public class LancetException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LancetException(String message) {
    super(message);
  }

  public LancetException(String message, Throwable cause) {
    super(message, cause);
  }
}
