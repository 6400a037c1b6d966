package dev.lancet.cli;

import dev.lancet.cli.table.InputFiles;
import dev.lancet.cli.table.Progress;
import dev.lancet.cli.table.TypeSpecs;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.io.PrintWriter;
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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet create}: a new table holding the rows of an Arrow IPC or CSV file. */
@Command(name = "create",
    description = {"Create a table from an Arrow IPC file or stream, or CSV with a header row "
        + "(column types inferred: int64, double, bool, else string).",
        "Exit codes: 0 created, 2 invalid input (a table exists there, a schema Lance cannot "
            + "store, a file that is not Arrow or CSV)."})
public final class CreateCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  StorageOptionsMixin storage;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The new table: a directory or file:///path.")
  String location;

  @Option(names = "--from", required = true, paramLabel = "FILE", description = "The rows.")
  Path from;

  @Option(names = "--input-format", paramLabel = "F",
      description = "arrow-file, arrow-stream or csv (default: told by the content).")
  String inputFormat;

  @Option(names = "--storage-version", paramLabel = "V", defaultValue = "2.1",
      description = "Lance data storage version, 2.0 or 2.1 (default: ${DEFAULT-VALUE}).")
  String storageVersion;

  @Option(names = "--stable-row-ids", description = "Give rows stable row ids.")
  boolean stableRowIds;

  @Option(names = "--max-rows-per-file", paramLabel = "N",
      description = "Rows per data file (and fragment); default 1048576.")
  Long maxRowsPerFile;

  @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
  boolean progress;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--schema", paramLabel = "NAME:TYPE,...", description = "The columns of a CSV "
      + "input and their Lance types, instead of inferring them: e.g. "
      + "id:int64,at:timestamp:us:UTC,day:date32:day,embedding:fixed_size_list:float:128 "
      + "(a vector cell is a JSON array such as \"[0.5, 1, 2]\").")
  String schema;

  @Override
  public Integer call() throws IOException {
    CreateOptions.Builder options = CreateOptions.builder().storageVersion(storageVersion)
        .storageOptions(storage.options())
        .stableRowIds(stableRowIds);
    if (maxRowsPerFile != null) {
      options.maxRowsPerFile(maxRowsPerFile);
    }
    PrintWriter err = spec.commandLine().getErr();
    try (BufferAllocator alloc = new RootAllocator();
        ArrowReader reader = InputFiles.open(from, Optional.ofNullable(inputFormat)
            .map(InputFiles::parseFormat), Optional.ofNullable(schema).map(TypeSpecs::schema),
            alloc);
        Progress p = new Progress(err, progress, "created")) {
      CountingReader counted = new CountingReader(reader, p);
      try (LanceTable table = LanceTable.create(location, counted, options.build())) {
        p.accept(counted.rows());
        Results.print(spec, json, "created " + location + " at version " + table.version()
            + " with " + table.countRows() + " rows",
            Results.fields("version", table.version(), "rows", table.countRows()));
      }
    }
    return ExitCodes.OK;
  }
}
