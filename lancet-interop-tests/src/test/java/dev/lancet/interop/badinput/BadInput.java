package dev.lancet.interop.badinput;

import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.operation.LegacyOperation;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One bad input of the sweep: what is submitted, to which table, and the error it must end in.
 *
 * @param category the category (paths, references, rows, schema, input, damage, ...)
 * @param name what is wrong, in a few words
 * @param submission what is committed
 * @param damage what is done to the table first (a copy of it), or nothing
 * @param expect the typed error (through the API) and exit code (through {@code lancet commit})
 */
record BadInput(String category, String name, Submission submission, Damage damage, Expect expect) {
  BadInput {
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(submission, "submission");
    Objects.requireNonNull(damage, "damage");
    Objects.requireNonNull(expect, "expect");
  }

  /** A read version meaning "the latest version when the commit starts". */
  static final long LATEST = 0;
  /** A read version meaning "the latest version before the table was damaged". */
  static final long BEFORE_DAMAGE = Long.MIN_VALUE + 1;

  /** What is committed. */
  sealed interface Submission {}

  /**
   * A composite operation (API: TransactionBuilder; CLI: a Transaction in protobuf JSON) planned
   * against {@code readVersion} ({@link #LATEST}, {@link #BEFORE_DAMAGE}, or a number, bad ones
   * included); {@code allowBases} allows any base path location.
   */
  record Composite(CompositeOperation op, long readVersion, boolean allowBases) implements Submission {}

  /** A legacy operation (API: LegacyTransactionBuilder; CLI: its Transaction in protobuf JSON). */
  record Legacy(LegacyOperation op, long readVersion, boolean allowBases) implements Submission {}

  /**
   * What only the command line can be given: a file's bytes as they are (or a directory or FIFO
   * in its place), with extra arguments.
   */
  record CommandLine(Function<Path, Path> operationFile, List<String> arguments) implements Submission {}

  /** A change made to a fresh copy of the table before the commit; {@link #NONE} for none. */
  @FunctionalInterface
  interface Damage {
    Damage NONE = table -> { };

    void apply(BadInputTable table) throws Exception;
  }

  /**
   * The error the input must end in: {@code type} through the API (null when the case is for the
   * command line only), {@code exitCode} through {@code lancet commit}, and text both messages
   * contain.
   */
  record Expect(Class<? extends Throwable> type, int exitCode, String text) {}

  @Override
  public String toString() {
    return category + ": " + name;
  }
}
