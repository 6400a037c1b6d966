package dev.lancet.table;

/**
 * Base of every error the table API raises: what was wrong and what to do. A failed write
 * commits nothing; the subclass says whether retrying can help.
 */
public class LanceTableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LanceTableException(String message) {
    super(message);
  }

  public LanceTableException(String message, Throwable cause) {
    super(message, cause);
  }
}
