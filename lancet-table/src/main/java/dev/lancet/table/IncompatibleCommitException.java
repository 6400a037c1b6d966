package dev.lancet.table;

import java.util.List;

/**
 * A concurrent commit made this write impossible (for example it overwrote the table or
 * dropped a column this write fills): nothing was committed, and running the same write again
 * will not help; plan it anew against the table as it is now.
 */
public class IncompatibleCommitException extends LanceTableException {
  private static final long serialVersionUID = 1L;

  private final long winnerVersion;
  private final List<String> reasons;

  public IncompatibleCommitException(String message, long winnerVersion, List<String> reasons,
      Throwable cause) {
    super(message, cause);
    this.winnerVersion = winnerVersion;
    this.reasons = List.copyOf(reasons);
  }

  public long winnerVersion() {
    return winnerVersion;
  }

  public List<String> reasons() {
    return reasons;
  }
}
