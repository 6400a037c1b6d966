package dev.lancet.table;

/**
 * What the request names does not exist: no table at the URI, no such version, tag or column
 * at the version read, no version as old as a timestamp. The message lists what does exist.
 */
public class NotFoundException extends LanceTableException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message) {
    super(message);
  }

  public NotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
