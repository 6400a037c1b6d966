package dev.lancet.cli;

import dev.lancet.cli.table.InputFiles;
import dev.lancet.cli.table.Progress;
import dev.lancet.table.LanceTable;
import dev.lancet.table.MergeInsert;
import dev.lancet.table.StatementResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet merge-insert}: merges the rows of a file into a table by key columns. */
@Command(name = "merge-insert",
    description = {"Merge the rows of an Arrow IPC or CSV file into a table by key columns "
        + "(an upsert with --when-matched update), as one Transaction V2 commit that asserts the "
        + "keys it writes unique; a conflicting concurrent commit re-plans it. The source may "
        + "have only some of the table's columns (the keys among them): matched rows update "
        + "those columns and keep the others, inserted rows get null in the others.",
        "Exit codes: 0 done, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class MergeInsertCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Option(names = "--on", required = true, split = ",", paramLabel = "KEY[,KEY]",
      description = "The key columns.")
  List<String> keys;

  @Option(names = "--from", required = true, paramLabel = "FILE", description = "The source rows.")
  Path from;

  @Option(names = "--input-format", paramLabel = "F",
      description = "arrow-file, arrow-stream or csv (default: told by the content).")
  String inputFormat;

  @Option(names = "--when-matched", paramLabel = "update|keep", defaultValue = "keep",
      description = "What a table row whose key the source has becomes (default: ${DEFAULT-VALUE}).")
  String whenMatched;

  @Option(names = "--when-matched-if", paramLabel = "COND",
      description = "Update matched rows only where COND holds, e.g. 'source.ts > target.ts'.")
  String whenMatchedIf;

  @Option(names = "--when-not-matched", paramLabel = "insert|skip", defaultValue = "insert",
      description = "What a source row with a new key does (default: ${DEFAULT-VALUE}).")
  String whenNotMatched;

  @Option(names = "--when-not-matched-by-source", paramLabel = "keep|delete", defaultValue = "keep",
      description = "What a table row whose key the source lacks becomes (default: ${DEFAULT-VALUE}).")
  String bySource;

  @Option(names = "--delete-if", paramLabel = "PRED",
      description = "With --when-not-matched-by-source delete: only those rows where PRED holds.")
  String deleteIf;

  @Mixin
  StatementOptions options;

  @Override
  public Integer call() throws IOException {
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable table = target.open();
        ArrowReader reader = InputFiles.openColumnsOf(from, Optional.ofNullable(inputFormat)
            .map(InputFiles::parseFormat), table.schema(), alloc);
        Progress p = new Progress(spec.commandLine().getErr(), options.progress, "read")) {
      MergeInsert m = table.mergeInsert(keys).from(reader).onProgress(p);
      configure(m, whenMatched, whenMatchedIf, whenNotMatched, bySource, deleteIf);
      StatementResult r = options.apply(m).commit();
      p.close();
      StatementOutput.print(spec, options.json, "merge insert", r);
    }
    return ExitCodes.OK;
  }

  /** Applies the WHEN clauses as the options spell them. */
  static void configure(MergeInsert m, String whenMatched, String whenMatchedIf,
      String whenNotMatched, String bySource, String deleteIf) {
    switch (whenMatched.toLowerCase(Locale.ROOT)) {
      case "update" -> {
        if (whenMatchedIf != null) {
          m.whenMatchedUpdateAll(whenMatchedIf);
        } else {
          m.whenMatchedUpdateAll();
        }
      }
      case "keep" -> {
        if (whenMatchedIf != null) {
          throw new CliException("--when-matched-if needs --when-matched update");
        }
        m.whenMatchedKeep();
      }
      default -> throw new CliException("--when-matched takes update or keep, not '"
          + whenMatched + "'");
    }
    switch (whenNotMatched.toLowerCase(Locale.ROOT)) {
      case "insert" -> m.whenNotMatchedInsertAll();
      case "skip" -> m.whenNotMatchedSkip();
      default -> throw new CliException("--when-not-matched takes insert or skip, not '"
          + whenNotMatched + "'");
    }
    switch (bySource.toLowerCase(Locale.ROOT)) {
      case "keep" -> {
        if (deleteIf != null) {
          throw new CliException("--delete-if needs --when-not-matched-by-source delete");
        }
        m.whenNotMatchedBySourceKeep();
      }
      case "delete" -> {
        if (deleteIf != null) {
          m.whenNotMatchedBySourceDelete(deleteIf);
        } else {
          m.whenNotMatchedBySourceDelete();
        }
      }
      default -> throw new CliException("--when-not-matched-by-source takes keep or delete, "
          + "not '" + bySource + "'");
    }
  }
}
