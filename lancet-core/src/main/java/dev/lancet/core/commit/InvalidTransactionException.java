package dev.lancet.core.commit;

import dev.lancet.core.LancetException;

/**
 * The transaction's own identity is invalid, whatever its operation: a read version that cannot
 * be one it read (0, a number past the latest version, or one at or beyond 2^63, such as
 * 2^64-1, which is -1 read as signed), or a uuid that cannot name its .txn file. Invalid input;
 * no retry changes it.
 */
public class InvalidTransactionException extends LancetException {
  private static final long serialVersionUID = 1L;

  public InvalidTransactionException(String message) {
    super(message);
  }
}
