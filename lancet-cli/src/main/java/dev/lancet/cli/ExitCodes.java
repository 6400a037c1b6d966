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

  private ExitCodes() {}
}
