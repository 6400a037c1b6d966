package dev.lancet.cli;

import dev.lancet.core.LancetException;
import dev.lancet.format.FormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns exceptions into what a user of a command line expects: one line on stderr,
 * {@code lancet: <message>}, and an exit code. Stack traces only with {@code --verbose}.
 */
final class ErrorReporting {
  static final String PREFIX = "lancet: ";
  static final String VERBOSE = "--verbose";

  private ErrorReporting() {}

  /** Bad arguments: one line, a hint where to find the usage, exit 2. */
  static IParameterExceptionHandler parameterHandler() {
    return (ParameterException ex, String[] args) -> {
      CommandLine cmd = ex.getCommandLine();
      PrintWriter err = cmd.getErr();
      err.println(PREFIX + oneLine(ex.getMessage()));
      err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
      if (hasVerbose(args)) {
        ex.printStackTrace(err);
      }
      err.flush();
      return ExitCodes.USAGE;
    };
  }

  /** Failures while running a command. */
  static IExecutionExceptionHandler executionHandler() {
    return (Exception ex, CommandLine cmd, ParseResult parsed) -> {
      PrintWriter err = cmd.getErr();
      boolean verbose = isVerbose(parsed);
      int code;
      if (ex instanceof dev.lancet.core.commit.IncompatibleTransactionException) {
        err.println(PREFIX + "incompatible transaction: " + oneLine(describe(ex)));
        code = ExitCodes.INCOMPATIBLE;
      } else if (ex instanceof dev.lancet.core.commit.CommitConflictException) {
        err.println(PREFIX + "retryable conflict: " + oneLine(describe(ex)));
        code = ExitCodes.RETRYABLE_CONFLICT;
      } else if (ex instanceof dev.lancet.core.commit.CommitStateUnknownException) {
        err.println(PREFIX + "commit state unknown: " + oneLine(describe(ex)));
        code = ExitCodes.COMMIT_STATE_UNKNOWN;
      } else if (isUserError(ex)) {
        err.println(PREFIX + oneLine(describe(ex)));
        code = ExitCodes.USAGE;
      } else {
        err.println(PREFIX + "internal error: " + oneLine(ex.toString())
            + (verbose ? "" : " (run with --verbose for the stack trace)"));
        code = ExitCodes.INTERNAL;
      }
      if (verbose) {
        ex.printStackTrace(err);
      }
      err.flush();
      return code;
    };
  }

  /**
   * Errors about the user's input or table rather than about Lancet: a missing table,
   * version or tag, corrupt or unreadable files, a malformed location.
   */
  static boolean isUserError(Throwable ex) {
    return ex instanceof CliException
        || ex instanceof LancetException
        || ex instanceof FormatException
        || ex instanceof IOException
        || ex instanceof UncheckedIOException
        // ObjectStores and Tags reject malformed locations and tag names this way; the
        // version listing refuses a table that mixes manifest naming schemes this way.
        || ex instanceof IllegalArgumentException
        || ex instanceof IllegalStateException;
  }

  /** The message of {@code ex}, followed by its I/O cause when that says more. */
  static String describe(Throwable ex) {
    String message = messageOf(ex);
    Throwable cause = ex.getCause();
    if ((ex instanceof UncheckedIOException || ex instanceof IOException) && cause != null) {
      String inner = messageOf(cause);
      if (!message.contains(inner)) {
        message = message + ": " + inner;
      }
    }
    return message;
  }

  private static String messageOf(Throwable t) {
    if (t.getMessage() == null || t.getMessage().isBlank()) {
      return t.getClass().getSimpleName();
    }
    if (t instanceof java.nio.file.FileSystemException) {
      // e.g. AccessDeniedException("/t/_versions"): the class says what, the message where.
      return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
    return t.getMessage();
  }

  /** Longest message printed: an error quoting user input must stay one readable line. */
  static final int MAX_MESSAGE = 2000;

  /** Collapses a message to one line of at most {@link #MAX_MESSAGE} characters. */
  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    return dev.lancet.format.Texts.bounded(s.strip().replaceAll("\\s*[\\r\\n]+\\s*", " "), MAX_MESSAGE);
  }

  private static boolean isVerbose(ParseResult parsed) {
    for (ParseResult pr = parsed; pr != null; pr = pr.subcommand()) {
      if (pr.hasMatchedOption(VERBOSE)) {
        return true;
      }
    }
    return false;
  }

  static boolean hasVerbose(String[] args) {
    for (String a : args) {
      if (VERBOSE.equals(a)) {
        return true;
      }
      if ("--".equals(a)) {
        return false;
      }
    }
    return false;
  }
}
