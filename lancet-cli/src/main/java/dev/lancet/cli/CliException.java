package dev.lancet.cli;

/**
 * An error the user can act on (a version without a transaction, conflicting options found
 * only at run time): reported as one line on stderr with exit code {@link ExitCodes#USAGE}.
 */
public class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CliException(String message) {
    super(message);
  }

  public CliException(String message, Throwable cause) {
    super(message, cause);
  }
}
