package dev.lancet.cli;

import dev.lancet.cli.table.Progress;
import dev.lancet.cli.table.ScanOutput;
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

  @Option(names = "--format", paramLabel = "F", defaultValue = "table",
      description = "table, csv, json or arrow (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--json", description = "The same as --format json.")
  boolean json;

  @Option(names = "--raw-temporal", description = "Print timestamps, dates and times as the "
      + "integers stored (ticks of the column's unit since the epoch, days, ticks since midnight).")
  boolean rawTemporal;

  @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
  boolean progress;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the rows to FILE, not stdout.")
  java.nio.file.Path output;

  @Override
  public Integer call() throws IOException {
    if (json && !format.equals("table") && !format.equals("json")) {
      throw new CliException("--json and --format " + format + " ask for two formats; give one");
    }
    ScanOutput.Format f = ScanOutput.parse(json ? "json" : format);
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
          Progress p = new Progress(spec.commandLine().getErr(), progress || output != null,
              "scanned")) {
        if (output != null) {
          try (java.io.OutputStream raw = new java.io.BufferedOutputStream(
                  java.nio.file.Files.newOutputStream(output));
              java.io.PrintWriter text = new java.io.PrintWriter(new java.io.OutputStreamWriter(
                  raw, java.nio.charset.StandardCharsets.UTF_8))) {
            ScanOutput.write(reader, f, text, raw, p, rawTemporal);
            Outputs.check(text, "writing the rows to " + output);
          }
        } else {
          ScanOutput.write(reader, f, spec.commandLine().getOut(), System.out,
              f == ScanOutput.Format.TABLE ? rows -> { } : p, rawTemporal);
          Outputs.check(spec.commandLine().getOut(), "writing the rows to standard output");
          Outputs.check(System.out, "writing the rows to standard output");
        }
      }
    }
    return ExitCodes.OK;
  }
}
