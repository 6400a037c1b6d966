package dev.lancet.core.commit;

import java.util.List;

/**
 * A concurrent commit (the winner) changed what this transaction depends on: rebasing would
 * change its meaning, so the caller must re-read and re-plan. Retryable, not fatal. Carries
 * the winner's version and operation and the coordinates that collided.
 */
public class ConflictingCommitException extends CommitConflictException {
  private static final long serialVersionUID = 1L;

  private final String winnerOperation;
  private final List<String> collisions;

  public ConflictingCommitException(long winnerVersion, String winnerOperation, List<String> collisions) {
    super(winnerVersion, "version " + winnerVersion + " (" + winnerOperation + ") was committed "
        + "concurrently and conflicts with this transaction: " + String.join("; ", collisions)
        + ". Re-read the table and plan the change again.");
    this.winnerOperation = winnerOperation;
    this.collisions = List.copyOf(collisions);
  }

  public String winnerOperation() {
    return winnerOperation;
  }

  public List<String> collisions() {
    return collisions;
  }
}
