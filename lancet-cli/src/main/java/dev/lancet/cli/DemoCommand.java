package dev.lancet.cli;

import static dev.lancet.cli.TextTable.Column.left;
import static dev.lancet.cli.TextTable.Column.right;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.Table;
import dev.lancet.demo.Acknowledged;
import dev.lancet.demo.AttemptRecord;
import dev.lancet.demo.Check;
import dev.lancet.demo.ConcurrentWritersDemo;
import dev.lancet.demo.DemoLocation;
import dev.lancet.demo.DemoReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lancet demo [TABLE]}: the concurrent-writers demo ({@link ConcurrentWritersDemo}). Creates
 * a table of real Lance data files, runs seven writers committing Transaction V2 operations at
 * once, prints every commit attempt, then checks the final table with Lancet and lance-core.
 * Exits {@link ExitCodes#INTERNAL} when a check fails: that would be a defect in Lancet.
 */
@Command(name = "demo",
    description = {"Creates a Lance table of real data files in TABLE (default: a new temporary "
        + "directory) and runs concurrent writers on it: appends with key assertions (one key "
        + "collision), a column added while appends land, a delete and a column rewrite of one "
        + "fragment, two deletes of another. Prints every commit attempt, then checks the final "
        + "table by reading it with Lancet and with lance-core.",
        "Exit codes: 0 every check passed; 1 a check failed; 2 TABLE is not empty or cannot be opened."})
public final class DemoCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  StorageOptionsMixin storage;

  @Parameters(index = "0", arity = "0..1", paramLabel = "TABLE",
      description = "An empty or new directory for the table (default: a new temporary directory), or "
          + "an empty s3://bucket/path or az://container/path (with --storage-option).")
  String table;

  @Option(names = "--json", description = "Print the attempts and checks as one JSON object.")
  boolean json;

  @Override
  public Integer call() {
    DemoLocation root = table != null && table.contains("://") && !table.startsWith("file:")
        ? new DemoLocation(table, storage.options()) : DemoLocation.local(tableDirectory());
    PrintWriter out = spec.commandLine().getOut();
    if (!json) {
      out.println("Lancet demo: 7 writers commit Transaction V2 operations at once to a new table in " + root);
      out.println("(v1 schema: id int64 key, value string; v2: " + ConcurrentWritersDemo.FRAGMENTS
          + " fragments x " + ConcurrentWritersDemo.ROWS_PER_FRAGMENT
          + " rows, data files written by lance-core's LanceFileWriter)");
      out.flush();
    }
    DemoReport report = ConcurrentWritersDemo.run(root);
    if (json) {
      out.println(CliJson.print(toJson(report)));
    } else {
      printText(out, report);
    }
    out.flush();
    return report.passed() ? ExitCodes.OK : ExitCodes.INTERNAL;
  }

  private Path tableDirectory() {
    Path dir = table == null ? null : Path.of(table.startsWith("file:") ? java.net.URI.create(table).getPath() : table);
    if (dir == null) {
      try {
        return Files.createTempDirectory("lancet-demo-").toAbsolutePath();
      } catch (IOException e) {
        throw new UncheckedIOException("creating a temporary directory for the demo table", e);
      }
    }
    Path root = dir.toAbsolutePath();
    if (Files.exists(root) && !Files.isDirectory(root)) {
      throw new CliException(root + " is a file; name an empty or new directory for the demo table");
    }
    if (Files.isDirectory(root)) {
      try (var s = Files.list(root)) {
        if (s.findAny().isPresent()) {
          throw new CliException(root + " is not empty; name an empty or new directory for the demo table");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("listing " + root, e);
      }
    }
    return root;
  }

  private static void printText(PrintWriter out, DemoReport report) {
    out.println();
    out.println("COMMIT ATTEMPTS (in the order they happened; a re-plan after a conflict is a new plan)");
    TextTable attempts = TextTable.of(right("#"), left("WRITER"), left("TXN"), right("PLAN"),
        left("STEPS").maxWidth(64), right("READ"), right("ATTEMPT"), left("OUTCOME"), right("VERSION"),
        left("DETAIL").maxWidth(120));
    for (AttemptRecord a : report.attempts()) {
      attempts.row(a.sequence(), a.writer(), a.transaction(), a.plan(), String.join("; ", a.steps()),
          "v" + a.readVersion(), a.attempt(), a.outcome(), "v" + a.version(), a.detail());
    }
    attempts.print(out);

    out.println();
    out.println("HISTORY");
    try (Table table = report.table().open()) {
      LogCommand.printAll(out, table);
    }

    out.println();
    out.println("CHECKS (the final table v" + report.finalVersion() + ", read by Lancet and by lance-core)");
    TextTable checks = TextTable.of(left("CHECK").maxWidth(90), left("EXPECTED").maxWidth(50),
        left("ACTUAL").maxWidth(90), left("RESULT"));
    for (Check c : report.checks()) {
      checks.row(c.name(), c.expected(), c.actual(), c.passed() ? "ok" : "FAILED");
    }
    checks.print(out);
    for (String e : report.errors()) {
      out.println("error: " + e);
    }

    out.println();
    long failed = report.checks().stream().filter(c -> !c.passed()).count();
    String seconds = String.format(Locale.ROOT, "%.1f", report.elapsed().toMillis() / 1000.0);
    if (report.passed()) {
      out.println("All " + report.checks().size() + " checks passed in " + seconds + " s. Look around: ./lancet log "
          + report.table() + " ; ./lancet show-txn " + report.table() + " --version N"
          + (report.table().isLocal() ? "" : " (with the same --storage-option flags)"));
    } else {
      out.println(failed + " of " + report.checks().size() + " checks FAILED"
          + (report.errors().isEmpty() ? "" : ", " + report.errors().size() + " writer error(s)")
          + " (" + seconds + " s); the table is kept in " + report.table());
    }
  }

  private static ObjectNode toJson(DemoReport report) {
    ObjectNode root = CliJson.object();
    root.put("table", report.table().toString());
    root.set("finalVersion", CliJson.unsigned(report.finalVersion()));
    root.put("passed", report.passed());
    root.put("elapsedMillis", report.elapsed().toMillis());
    ArrayNode attempts = root.putArray("attempts");
    for (AttemptRecord a : report.attempts()) {
      ObjectNode o = attempts.addObject();
      o.put("sequence", a.sequence());
      o.put("writer", a.writer());
      o.put("transaction", a.transaction());
      o.put("plan", a.plan());
      o.set("steps", CliJson.strings(a.steps()));
      o.set("readVersion", CliJson.unsigned(a.readVersion()));
      o.put("attempt", a.attempt());
      o.put("outcome", a.outcome().name());
      o.set("version", CliJson.unsigned(a.version()));
      o.put("detail", a.detail());
      o.put("uuid", a.transactionUuid());
    }
    ArrayNode acknowledged = root.putArray("acknowledged");
    for (Acknowledged k : report.acknowledged()) {
      ObjectNode o = acknowledged.addObject();
      o.put("writer", k.writer());
      o.put("transaction", k.transaction());
      o.put("uuid", k.transactionUuid());
      o.set("version", CliJson.unsigned(k.version()));
    }
    ArrayNode checks = root.putArray("checks");
    for (Check c : report.checks()) {
      ObjectNode o = checks.addObject();
      o.put("name", c.name());
      o.put("expected", c.expected());
      o.put("actual", c.actual());
      o.put("passed", c.passed());
    }
    root.set("errors", CliJson.strings(report.errors()));
    return root;
  }

}
