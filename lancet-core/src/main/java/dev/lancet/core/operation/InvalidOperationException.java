package dev.lancet.core.operation;

import dev.lancet.core.LancetException;

/**
 * A transaction whose legacy operation cannot be read or applied as written: names the
 * operation, the field or id at fault, and what to do.
 */
public class InvalidOperationException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final String operation;

  public InvalidOperationException(String operation, String message) {
    super(operation + ": " + message);
    this.operation = operation;
  }

  public InvalidOperationException(String operation, String message, Throwable cause) {
    super(operation + ": " + message, cause);
    this.operation = operation;
  }

  /** The operation's name ("Delete"), or a description when there is none. */
  public String operation() {
    return operation;
  }
}
