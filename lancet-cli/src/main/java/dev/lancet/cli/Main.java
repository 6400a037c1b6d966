package dev.lancet.cli;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code lancet} command. Build a configured command line with {@link #commandLine} (or
 * {@link #commandLine(PrintWriter, PrintWriter)} to capture its output) and call
 * {@code execute(args)}; the exit code follows {@link ExitCodes}.
 */
@Command(
    name = "lancet",
    mixinStandardHelpOptions = true,
    version = "lancet 0.1.0",
    description = {"Create, read, change and maintain Lance tables (local, s3://, az://), "
        + "side by side with other Lance writers: create, append, scan, delete, update, "
        + "merge-insert, txn, schema changes, compact, tags, restore, cleanup; and inspect "
        + "them: log, inspect, show-txn. Every verb that prints data takes --json.",
        "Exit codes: 0 done, 1 internal error, 2 invalid input, 3 retryable conflict, "
            + "4 incompatible commit, 5 commit state unknown."},
    subcommands = {
        InspectCommand.class,
        LogCommand.class,
        ShowTxnCommand.class,
        CommitCommand.class,
        DemoCommand.class,
        CreateCommand.class,
        AppendCommand.class,
        ScanCommand.class,
        SearchCommand.class,
        AddColumnsCommand.class,
        DropColumnsCommand.class,
        AlterColumnsCommand.class,
        TagCommand.class,
        BranchCommand.class,
        RestoreCommand.class,
        CleanupCommand.class,
        DeleteCommand.class,
        UpdateCommand.class,
        MergeInsertCommand.class,
        CompactCommand.class,
        TxnCommand.class,
        HelpCommand.class
    },
    footer = {"", "Exit codes: 0 success; 2 bad arguments, missing or unreadable table, version "
        + "or tag; 1 an internal error."})
public final class Main implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = ErrorReporting.VERBOSE, scope = ScopeType.INHERIT,
      description = "Print stack traces of errors and debug logging.")
  boolean verbose;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "no command given; use one of: inspect, log, show-txn, commit, demo");
  }

  /** A command line writing to the process's stdout and stderr. */
  public static CommandLine commandLine() {
    return configure(new CommandLine(new Main()));
  }

  /** A command line writing to the given writers (tests capture output this way). */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine cmd = commandLine();
    cmd.setOut(out);
    cmd.setErr(err);
    return cmd;
  }

  /** Installs the error handling described in {@link ErrorReporting}. */
  static CommandLine configure(CommandLine cmd) {
    cmd.setParameterExceptionHandler(ErrorReporting.parameterHandler());
    cmd.setExecutionExceptionHandler(ErrorReporting.executionHandler());
    return cmd;
  }

  public static void main(String[] args) {
    if (ErrorReporting.hasVerbose(args)) {
      // Before any logger exists: slf4j-simple reads its level once.
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
    }
    Charset charset = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, charset), false);
    PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, charset), true);
    int code = commandLine(out, err).execute(args);
    out.flush();
    err.flush();
    System.exit(code);
  }
}
