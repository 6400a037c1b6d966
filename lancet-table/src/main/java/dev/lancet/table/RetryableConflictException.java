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
  private final List<String> collidingKeys;

  public RetryableConflictException(String message, long winnerVersion, List<String> collisions,
      Throwable cause) {
    this(message, winnerVersion, collisions, List.of(), cause);
  }

  public RetryableConflictException(String message, long winnerVersion, List<String> collisions,
      List<String> collidingKeys, Throwable cause) {
    super(message, cause);
    this.winnerVersion = winnerVersion;
    this.collisions = List.copyOf(collisions);
    this.collidingKeys = List.copyOf(collidingKeys);
  }

  /** The version that won (or blocked the last attempt). */
  public long winnerVersion() {
    return winnerVersion;
  }

  /** What collided, one entry per coordinate; empty when the retries ran out. */
  public List<String> collisions() {
    return collisions;
  }

  /**
   * The keys this write inserted that a concurrent writer inserted too, spelled as
   * {@code (value, ...)} in key-column order: named when both key assertions were exact (up to
   * the exact threshold of keys); empty for other conflicts and for Bloom filters.
   */
  public List<String> collidingKeys() {
    return collidingKeys;
  }
}
