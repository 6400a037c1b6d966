package dev.lancet.table;

/**
 * The request cannot be carried out as given: a schema Lance cannot store, a batch that does
 * not match the table, a cast Lance cannot do, a tag name that is taken, a column that does not
 * exist. Nothing was committed; fix the input and try again.
 */
public class InvalidInputException extends LanceTableException {
  private static final long serialVersionUID = 1L;

  public InvalidInputException(String message) {
    super(message);
  }

  public InvalidInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
