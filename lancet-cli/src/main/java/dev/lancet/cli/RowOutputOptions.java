package dev.lancet.cli;

import dev.lancet.cli.table.Progress;
import dev.lancet.cli.table.ScanOutput;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * How a command that prints rows (scan, search) prints them: the format, {@code --json},
 * temporal values as text or integers, and where to. A write of the rows that fails (a full
 * device, a closed pipe) is an error, never a silent success.
 */
final class RowOutputOptions {
  @Option(names = "--format", paramLabel = "F", defaultValue = "table",
      description = "table, csv, json or arrow (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = "--json", description = "The same as --format json.")
  boolean json;

  @Option(names = "--raw-temporal", description = "Print timestamps, dates and times as the "
      + "integers stored (ticks of the column's unit since the epoch, days, ticks since midnight).")
  boolean rawTemporal;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the rows to FILE, not stdout.")
  Path output;

  /** The format asked for (checked before any work). */
  ScanOutput.Format format() {
    if (json && !format.equals("table") && !format.equals("json")) {
      throw new CliException("--json and --format " + format + " ask for two formats; give one");
    }
    return ScanOutput.parse(json ? "json" : format);
  }

  /** Whether progress goes to stderr: the rows go elsewhere than the terminal it is drawn on. */
  boolean toFile() {
    return output != null;
  }

  /** Prints every row of {@code reader}. */
  void print(CommandSpec spec, ArrowReader reader, Progress progress) throws IOException {
    ScanOutput.Format f = format();
    if (output != null) {
      try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(output));
          PrintWriter text = new PrintWriter(new OutputStreamWriter(raw, StandardCharsets.UTF_8))) {
        ScanOutput.write(reader, f, text, raw, progress, rawTemporal);
        Outputs.check(text, "writing the rows to " + output);
      }
    } else {
      ScanOutput.write(reader, f, spec.commandLine().getOut(), System.out,
          f == ScanOutput.Format.TABLE ? rows -> { } : progress, rawTemporal);
      Outputs.check(spec.commandLine().getOut(), "writing the rows to standard output");
      Outputs.check(System.out, "writing the rows to standard output");
    }
  }
}
