package dev.lancet.core.action;

import dev.lancet.core.LancetException;

/**
 * A composite operation that cannot be decoded: an empty action, an action kind or field this
 * build does not know, a missing required part. Decoding is fail-closed: such an operation is
 * rejected whole, never partly read, so a concurrent action is never silently ignored.
 */
public class InvalidActionException extends LancetException {
  private static final long serialVersionUID = 1L;

  public InvalidActionException(String message) {
    super(message);
  }
}
