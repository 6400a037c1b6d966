package dev.lancet.cli;

import dev.lancet.cli.table.Progress;
import dev.lancet.table.LanceTable;
import dev.lancet.table.Scan;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet scan}: prints rows of a table. */
@Command(name = "scan",
    description = {"Print rows of a table: a readable table, or --format csv|json|arrow (an "
        + "Arrow IPC stream on stdout; --json is --format json). JSON keeps exact types "
        + "(integers as integers); timestamps, dates and times print as ISO-8601 text unless "
        + "--raw-temporal asks for their stored integers."})
public final class ScanCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;


  @Mixin
  TableArgument target;

  @Option(names = "--columns", split = ",", paramLabel = "a,b", description = "Only these columns.")
  List<String> columns;

  static final class At {
    @Option(names = "--version", paramLabel = "N", description = "Read version N.")
    Long version;

    @Option(names = "--tag", paramLabel = "T", description = "Read the version tag T names.")
    String tag;
  }

  @ArgGroup(exclusive = true)
  At at;

  @Option(names = "--where", paramLabel = "PRED",
      description = "Only the rows where the SQL filter PRED holds, e.g. \"id %% 10 = 0\".")
  String where;

  @Option(names = "--limit", paramLabel = "N", description = "At most N rows.")
  Long limit;

  @Option(names = "--offset", paramLabel = "N", description = "Skip N rows first.")
  Long offset;

  @Option(names = "--with-row-id", description = "Add the _rowid column.")
  boolean rowId;

  @Option(names = "--with-row-address", description = "Add the _rowaddr column.")
  boolean rowAddress;

  @picocli.CommandLine.Mixin
  RowOutputOptions rowOutput;

  @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
  boolean progress;


  @Override
  public Integer call() throws IOException {
    rowOutput.format(); // a bad format fails before the table is opened
    try (LanceTable table = target.open()) {
      Scan scan = table.newScan();
      if (columns != null) {
        scan.select(columns);
      }
      if (at != null && at.version != null) {
        scan.asOfVersion(at.version);
      }
      if (at != null && at.tag != null) {
        scan.asOfTag(at.tag);
      }
      if (where != null) {
        scan.filter(where);
      }
      if (limit != null) {
        scan.limit(limit);
      }
      if (offset != null) {
        scan.offset(offset);
      }
      if (rowId) {
        scan.withRowId();
      }
      if (rowAddress) {
        scan.withRowAddress();
      }
      // Progress only when the rows go somewhere else than the terminal it is drawn on.
      try (ArrowReader reader = scan.open();
          Progress p = new Progress(spec.commandLine().getErr(), progress || rowOutput.toFile(),
              "scanned")) {
        rowOutput.print(spec, reader, p);
      }
    }
    return ExitCodes.OK;
  }
}
