package dev.lancet.core.commit;

/**
 * Every attempt lost the race to publish, or the deadline passed, without a conflict that
 * would make the transaction wrong: retrying later (with a larger budget) may succeed.
 */
public class RetriesExhaustedException extends CommitConflictException {
  private static final long serialVersionUID = 1L;

  private final int attempts;

  public RetriesExhaustedException(long version, int attempts, String message) {
    super(version, message);
    this.attempts = attempts;
  }

  public int attempts() {
    return attempts;
  }
}
