package dev.lancet.cli;

import dev.lancet.cli.table.InputFiles;
import dev.lancet.cli.table.Progress;
import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.nio.file.Path;
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

/** {@code lancet append}: appends the rows of an Arrow IPC or CSV file to a table. */
@Command(name = "append",
    description = {"Append the rows of an Arrow IPC file or stream, or CSV with a header row, "
        + "as one Transaction V2 commit; the columns must match the table's.",
        "Exit codes: 0 committed, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class AppendCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Option(names = "--from", required = true, paramLabel = "FILE", description = "The rows.")
  Path from;

  @Option(names = "--input-format", paramLabel = "F",
      description = "arrow-file, arrow-stream or csv (default: told by the content).")
  String inputFormat;

  @Option(names = "--max-rows-per-file", paramLabel = "N", description = "Rows per data file.")
  Long maxRowsPerFile;

  @Option(names = "--max-retries", paramLabel = "K", defaultValue = "20",
      description = "Retries after losing a race (default: ${DEFAULT-VALUE}).")
  int maxRetries;

  @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
  boolean progress;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable table = target.open();
        ArrowReader reader = InputFiles.open(from, Optional.ofNullable(inputFormat)
            .map(InputFiles::parseFormat), Optional.of(table.schema()), alloc);
        Progress p = new Progress(spec.commandLine().getErr(), progress, "appended")) {
      var append = table.newAppend().from(reader).maxRetries(maxRetries).onProgress(p);
      if (maxRowsPerFile != null) {
        append.maxRowsPerFile(maxRowsPerFile);
      }
      CommitInfo info = append.commit();
      p.close();
      Results.print(spec, json, "appended " + info.rowsWritten() + " rows in " + info.filesWritten()
          + " file(s) as version " + info.version() + " (" + info.attempts() + " attempt(s))",
          Results.fields("version", info.version(), "rows", info.rowsWritten(), "files",
              info.filesWritten(), "attempts", info.attempts(), "uuid", info.transactionUuid()));
    }
    return ExitCodes.OK;
  }
}
