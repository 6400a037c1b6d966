package dev.lancet.table;

import java.util.List;

/**
 * A concurrent commit collided with this one (or every retry lost the race): nothing of this
 * write was committed. Re-read the table and run the write again. Names the winner's version
 * and operation and what collided, when a collision was the reason.
 */
public class RetryableConflictException extends LanceTableException {
  private static final long serialVersionUID = 1L;

  private final long winnerVersion;
  private final List<String> collisions;

  public RetryableConflictException(String message, long winnerVersion, List<String> collisions,
      Throwable cause) {
    super(message, cause);
    this.winnerVersion = winnerVersion;
    this.collisions = List.copyOf(collisions);
  }

  /** The version that won (or blocked the last attempt). */
  public long winnerVersion() {
    return winnerVersion;
  }

  /** What collided, one entry per coordinate; empty when the retries ran out. */
  public List<String> collisions() {
    return collisions;
  }
}
