package dev.lancet.core.commit;

import dev.lancet.core.LancetException;
import dev.lancet.core.conflict.Collision;
import java.util.List;

/**
 * A concurrent commit (the winner) made this transaction impossible, not merely stale: for
 * example the table was overwritten or restored underneath it. Re-planning on the new
 * version is the only way forward; retrying the same transaction never succeeds. Carries what
 * made it incompatible as typed values ({@link #conflicts()}) and sentences ({@link #reasons()}).
 */
public class IncompatibleTransactionException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final long winnerVersion;
  private final String winnerOperation;
  private final List<Collision> conflicts;

  public IncompatibleTransactionException(long winnerVersion, String winnerOperation, List<Collision> conflicts) {
    super("version " + winnerVersion + " (" + winnerOperation + ") was committed concurrently and "
        + "makes this transaction incompatible: " + String.join("; ", ConflictingCommitException.sentences(conflicts))
        + ". It cannot be retried as is: read the new version and plan the change again.");
    if (conflicts.isEmpty()) {
      throw new IllegalArgumentException("an incompatibility names at least one reason");
    }
    this.winnerVersion = winnerVersion;
    this.winnerOperation = winnerOperation;
    this.conflicts = List.copyOf(conflicts);
  }

  public long winnerVersion() {
    return winnerVersion;
  }

  public String winnerOperation() {
    return winnerOperation;
  }

  /** What made the transaction incompatible, as values a program can inspect. */
  public List<Collision> conflicts() {
    return conflicts;
  }

  /** The same, one sentence each ({@code KIND: description}). */
  public List<String> reasons() {
    return ConflictingCommitException.sentences(conflicts);
  }
}
