package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.LancetException;
import dev.lancet.table.LanceTableException;
import dev.lancet.core.commit.CommitConflictException;
import dev.lancet.core.commit.CommitStateUnknownException;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.commit.IncompatibleTransactionException;
import dev.lancet.core.commit.RetriesExhaustedException;
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
  static final String JSON = "--json";

  private ErrorReporting() {}

  /**
   * What a failure is, for people (the stderr line) and for scripts (the {@code --json} error
   * object): one classification, so the exit code, the line and the JSON always agree.
   */
  record Failure(int exitCode, String kind, String label, String message, Exception error) {
    /** The stderr line, without the {@code lancet: } prefix. */
    String line() {
      return label.isEmpty() ? message : label + ": " + message;
    }

    /**
     * The JSON object a {@code --json} command prints on stdout when it fails: {@code committed:
     * false}, the exit code, the error kind and message, and what the error knows (the winner's
     * version and operation, the collisions as sentences and as typed {@code conflicts}, the
     * attempts, the version and uuid whose outcome is unknown).
     */
    ObjectNode json() {
      ObjectNode o = CliJson.object();
      o.put("ok", false);
      o.put("exitCode", exitCode);
      o.put("error", kind);
      o.put("message", message);
      if (error instanceof ConflictingCommitException c) {
        o.set("winnerVersion", CliJson.unsigned(c.version()));
        o.put("winnerOperation", c.winnerOperation());
        o.set("collisions", CliJson.strings(c.collisions()));
        o.set("conflicts", ConflictJson.of(c.conflicts()));
      } else if (error instanceof IncompatibleTransactionException c) {
        o.set("winnerVersion", CliJson.unsigned(c.winnerVersion()));
        o.put("winnerOperation", c.winnerOperation());
        o.set("collisions", CliJson.strings(c.reasons()));
        o.set("conflicts", ConflictJson.of(c.conflicts()));
      } else if (error instanceof RetriesExhaustedException c) {
        o.set("lastVersion", CliJson.unsigned(c.version()));
        o.put("attempts", c.attempts());
      } else if (error instanceof CommitStateUnknownException c) {
        o.set("version", CliJson.unsigned(c.version()));
        o.put("uuid", c.transactionUuid());
      }
      return o;
    }
  }

  /** Classifies a failure of a command (or of its arguments). */
  static Failure classify(Exception ex) {
    // The table API wraps the kernel's typed commit errors; the kernel error carries the
    // winner and the collisions, the table error the message written for its user.
    if (ex instanceof LanceTableException && ex.getCause() instanceof LancetException kernel
        && isCommitError(kernel)) {
      Failure inner = classify(kernel);
      return new Failure(inner.exitCode(), inner.kind(), inner.label(), oneLine(describe(ex)), kernel);
    }
    if (ex instanceof dev.lancet.table.IncompatibleCommitException) {
      return new Failure(ExitCodes.INCOMPATIBLE, "incompatible", "incompatible transaction",
          oneLine(describe(ex)), ex);
    }
    if (ex instanceof dev.lancet.table.RetryableConflictException) {
      return new Failure(ExitCodes.RETRYABLE_CONFLICT, "retryable_conflict", "retryable conflict",
          oneLine(describe(ex)), ex);
    }
    if (ex instanceof dev.lancet.table.CommitStateUnknownException) {
      return new Failure(ExitCodes.COMMIT_STATE_UNKNOWN, "commit_state_unknown",
          "commit state unknown", oneLine(describe(ex)), ex);
    }
    if (ex instanceof ParameterException) {
      return new Failure(ExitCodes.USAGE, "usage", "", oneLine(ex.getMessage()), ex);
    }
    if (ex instanceof IncompatibleTransactionException) {
      return new Failure(ExitCodes.INCOMPATIBLE, "incompatible", "incompatible transaction",
          oneLine(describe(ex)), ex);
    }
    if (ex instanceof RetriesExhaustedException) {
      return new Failure(ExitCodes.RETRYABLE_CONFLICT, "retries_exhausted", "retryable conflict",
          oneLine(describe(ex)), ex);
    }
    if (ex instanceof CommitConflictException) {
      return new Failure(ExitCodes.RETRYABLE_CONFLICT, "retryable_conflict", "retryable conflict",
          oneLine(describe(ex)), ex);
    }
    if (ex instanceof CommitStateUnknownException) {
      return new Failure(ExitCodes.COMMIT_STATE_UNKNOWN, "commit_state_unknown",
          "commit state unknown", oneLine(describe(ex)), ex);
    }
    if (isUserError(ex)) {
      return new Failure(ExitCodes.USAGE, "invalid_input", "", oneLine(describe(ex)), ex);
    }
    return new Failure(ExitCodes.INTERNAL, "internal", "internal error", oneLine(ex.toString()), ex);
  }

  private static boolean isCommitError(LancetException e) {
    return e instanceof CommitConflictException || e instanceof IncompatibleTransactionException
        || e instanceof CommitStateUnknownException;
  }

  /** Bad arguments: one line, a hint where to find the usage, exit 2 (and JSON with --json). */
  static IParameterExceptionHandler parameterHandler() {
    return (ParameterException ex, String[] args) -> {
      CommandLine cmd = ex.getCommandLine();
      Failure failure = classify(ex);
      if (hasOption(args, JSON)) {
        printJson(cmd, failure);
      }
      PrintWriter err = cmd.getErr();
      err.println(PREFIX + failure.line());
      err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
      if (hasVerbose(args)) {
        ex.printStackTrace(err);
      }
      err.flush();
      return failure.exitCode();
    };
  }

  /** Failures while running a command: one line on stderr; with --json also a JSON object. */
  static IExecutionExceptionHandler executionHandler() {
    return (Exception ex, CommandLine cmd, ParseResult parsed) -> {
      Failure failure = classify(ex);
      if (hasMatchedOption(parsed, JSON)) {
        printJson(cmd, failure);
      }
      PrintWriter err = cmd.getErr();
      boolean verbose = hasMatchedOption(parsed, VERBOSE);
      err.println(PREFIX + failure.line() + (failure.exitCode() == ExitCodes.INTERNAL && !verbose
          ? " (run with --verbose for the stack trace)" : ""));
      if (verbose) {
        ex.printStackTrace(err);
      }
      err.flush();
      return failure.exitCode();
    };
  }

  private static void printJson(CommandLine cmd, Failure failure) {
    PrintWriter out = cmd.getOut();
    out.println(CliJson.print(failure.json()));
    out.flush();
  }

  /**
   * Errors about the user's input or table rather than about Lancet: a missing table,
   * version or tag, corrupt or unreadable files, a malformed location.
   */
  static boolean isUserError(Throwable ex) {
    return ex instanceof CliException
        || ex instanceof dev.lancet.table.LanceTableException
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

  private static boolean hasMatchedOption(ParseResult parsed, String option) {
    for (ParseResult pr = parsed; pr != null; pr = pr.subcommand()) {
      if (pr.hasMatchedOption(option)) {
        return true;
      }
    }
    return false;
  }

  static boolean hasVerbose(String[] args) {
    return hasOption(args, VERBOSE);
  }

  /** Whether {@code option} is among the arguments before any {@code --}. */
  private static boolean hasOption(String[] args, String option) {
    for (String a : args) {
      if (option.equals(a)) {
        return true;
      }
      if ("--".equals(a)) {
        return false;
      }
    }
    return false;
  }
}
