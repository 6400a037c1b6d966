package dev.lancet.table;

/** What the request would create exists already: a table at the URI, a tag of that name. */
public class AlreadyExistsException extends InvalidInputException {
  private static final long serialVersionUID = 1L;

  public AlreadyExistsException(String message) {
    super(message);
  }

  public AlreadyExistsException(String message, Throwable cause) {
    super(message, cause);
  }
}
