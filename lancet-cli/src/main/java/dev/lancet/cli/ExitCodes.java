package dev.lancet.cli;

/** The exit codes of the {@code lancet} command. */
public final class ExitCodes {
  /** The command did what was asked. */
  public static final int OK = 0;
  /** A defect in Lancet itself: an exception nobody anticipated. */
  public static final int INTERNAL = 1;
  /**
   * The user's request cannot be served: bad arguments, no table at the location, no such
   * version or tag, an unreadable or corrupt table.
   */
  public static final int USAGE = 2;
  /** A commit lost to concurrent commits and was not resolved within its retries. */
  public static final int RETRYABLE_CONFLICT = 3;
  /** A commit conflicts with a concurrent commit in a way no retry can fix. */
  public static final int INCOMPATIBLE = 4;
  /** The store failed while publishing and Lancet cannot tell whether the commit landed. */
  public static final int COMMIT_STATE_UNKNOWN = 5;

  private ExitCodes() {}
}
