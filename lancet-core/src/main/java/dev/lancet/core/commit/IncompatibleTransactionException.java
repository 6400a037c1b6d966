package dev.lancet.core.commit;

import dev.lancet.core.LancetException;
import java.util.List;

/**
 * A concurrent commit (the winner) made this transaction impossible, not merely stale: for
 * example the table was overwritten or restored underneath it. Re-planning on the new
 * version is the only way forward; retrying the same transaction never succeeds.
 */
public class IncompatibleTransactionException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final long winnerVersion;
  private final String winnerOperation;
  private final List<String> reasons;

  public IncompatibleTransactionException(long winnerVersion, String winnerOperation, List<String> reasons) {
    super("version " + winnerVersion + " (" + winnerOperation + ") was committed concurrently and "
        + "makes this transaction incompatible: " + String.join("; ", reasons)
        + ". It cannot be retried as is: read the new version and plan the change again.");
    this.winnerVersion = winnerVersion;
    this.winnerOperation = winnerOperation;
    this.reasons = List.copyOf(reasons);
  }

  public long winnerVersion() {
    return winnerVersion;
  }

  public String winnerOperation() {
    return winnerOperation;
  }

  public List<String> reasons() {
    return reasons;
  }
}
