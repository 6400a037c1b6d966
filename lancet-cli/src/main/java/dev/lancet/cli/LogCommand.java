package dev.lancet.cli;

import static dev.lancet.cli.TextTable.Column.left;
import static dev.lancet.cli.TextTable.Column.right;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lancet log}: the history of a table, newest version first, one row per version. A
 * version whose manifest or transaction cannot be read shows {@code ?} and the error; the
 * other versions still print.
 */
@Command(name = "log",
    description = {"List the versions of a table, newest first.",
        "One row per version: when it was committed; the statement that made it (append, "
            + "delete, merge insert, compaction, ... whatever operation carried it); the tags "
            + "on it; the start of its transaction's uuid; and a detail: the operation written "
            + "(Lance's legacy name, or CompositeOperation), what it changed, and 'rebased over "
            + "vA-vB' when the writer planned it on an older version and it landed after "
            + "concurrent commits. A version that cannot be read shows ? and the error."})
public final class LogCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  StorageOptionsMixin storage;

  @Parameters(index = "0", paramLabel = "TABLE",
      description = "The table: a directory, file:///path, memory://name, s3://bucket/path or az://container/path.")
  String location;

  @Option(names = "--json", description = "Print a JSON array of objects {version, timestamp, "
      + "statement, operation, readVersion, uuid, steps, tags, manifestPath, error?}.")
  boolean json;

  @Option(names = {"-n", "--limit"}, paramLabel = "K", description = "Show only the newest K versions.")
  Integer limit;

  @Option(names = "--branch", paramLabel = "NAME", description = "The branch whose versions to show (default main).")
  String branch;

  /** What {@code log} shows about one version. Empty parts print as {@code -}. */
  record Entry(
      long version,
      String manifestPath,
      Optional<Instant> timestamp,
      Optional<Transaction> transaction,
      Optional<String> error,
      List<String> tags) {
    Entry withTags(List<String> names) {
      return new Entry(version, manifestPath, timestamp, transaction, error, List.copyOf(names));
    }
  }

  @Override
  public Integer call() {
    if (limit != null && limit < 1) {
      throw new ParameterException(spec.commandLine(), "--limit must be at least 1, not " + limit);
    }
    List<Entry> entries;
    try (Table root = Table.open(location, storage.options())) {
      Table table = root.checkoutBranch(Optional.ofNullable(branch));
      entries = newestFirst(table, limit == null ? Integer.MAX_VALUE : limit);
      if (entries.isEmpty()) {
        throw new CliException("the table at " + location + " has no versions in _versions/");
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      printJson(out, entries);
    } else {
      printTable(out, entries);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Reads one version; never throws: a failure becomes the entry's error. */
  static Entry read(Table table, VersionEntry v) {
    Snapshot snapshot;
    try {
      snapshot = Snapshot.load(table.store(), v);
    } catch (Exception e) {
      return new Entry(v.version(), v.path(), Optional.empty(), Optional.empty(),
          Optional.of(errorText(e)), List.of());
    }
    Optional<Instant> timestamp = snapshot.manifest().timestamp();
    try {
      return new Entry(v.version(), v.path(), timestamp, snapshot.transaction(), Optional.empty(),
          List.of());
    } catch (Exception e) {
      return new Entry(v.version(), v.path(), timestamp, Optional.empty(), Optional.of(errorText(e)),
          List.of());
    }
  }

  private static String errorText(Exception e) {
    String text = ErrorReporting.oneLine(ErrorReporting.describe(e));
    return ErrorReporting.isUserError(e) ? text : e.getClass().getSimpleName() + ": " + text;
  }

  /** Prints every version of {@code table}, newest first, as the text table. */
  static void printAll(PrintWriter out, Table table) {
    printTable(out, newestFirst(table, Integer.MAX_VALUE));
  }

  /** Up to {@code limit} versions, newest first, each read with {@link #read}. */
  private static List<Entry> newestFirst(Table table, int limit) {
    List<VersionEntry> versions = table.versions();
    java.util.Map<Long, List<String>> tags = new java.util.HashMap<>();
    try {
      for (dev.lancet.core.version.Tag tag : dev.lancet.core.version.Tags.list(table.store())) {
        tags.computeIfAbsent(tag.version(), k -> new ArrayList<>()).add(tag.name());
      }
    } catch (java.io.IOException | RuntimeException e) {
      // A tag that cannot be read does not hide the history; inspect and tag list report it.
    }
    List<Entry> entries = new ArrayList<>();
    for (int i = versions.size() - 1; i >= 0 && entries.size() < limit; i--) {
      VersionEntry v = versions.get(i);
      entries.add(read(table, v).withTags(tags.getOrDefault(v.version(), List.of())));
    }
    return entries;
  }

  private static void printTable(PrintWriter out, List<Entry> entries) {
    TextTable t = TextTable.of(right("VERSION"), left("COMMITTED"), left("STATEMENT"),
        left("TAGS").maxWidth(20), left("TXN"), left("DETAIL").maxWidth(240));
    for (Entry e : entries) {
      String timestamp = e.error().isPresent() && e.timestamp().isEmpty() ? "?" : Formats.instantSeconds(e.timestamp());
      String tags = e.tags().isEmpty() ? Formats.NONE : String.join(",", e.tags());
      if (e.error().isPresent()) {
        t.row(Formats.unsigned(e.version()), timestamp, "?", tags, "?", "error: " + e.error().get());
      } else if (e.transaction().isEmpty()) {
        t.row(Formats.unsigned(e.version()), timestamp, Formats.NONE, tags, Formats.NONE,
            "no transaction recorded");
      } else {
        Transaction txn = e.transaction().get();
        String uuid = txn.getUuid();
        String detail = Transactions.operationName(txn) + ": " + Transactions.brief(txn)
            + rebase(txn.getReadVersion(), e.version());
        t.row(Formats.unsigned(e.version()), timestamp,
            dev.lancet.core.transaction.StatementName.of(txn, e.version()), tags,
            uuid.isEmpty() ? Formats.NONE : uuid.substring(0, Math.min(8, uuid.length())), detail);
      }
    }
    t.print(out);
  }

  /**
   * "; rebased over vA-vB" when the writer read an older version than the one before its own:
   * it was planned on {@code read} and landed after the commits in between.
   */
  private static String rebase(long read, long version) {
    if (read == 0 || read >= version - 1) {
      return "";
    }
    return read + 1 == version - 1 ? "; planned on v" + read + ", rebased over v" + (read + 1)
        : "; planned on v" + read + ", rebased over v" + (read + 1) + "-v" + (version - 1);
  }

  private static void printJson(PrintWriter out, List<Entry> entries) {
    ArrayNode items = CliJson.array();
    for (Entry e : entries) {
      ObjectNode o = items.addObject();
      o.set("version", CliJson.unsigned(e.version()));
      o.put("timestamp", e.timestamp().map(Instant::toString).orElse(null));
      if (e.transaction().isPresent()) {
        Transaction txn = e.transaction().get();
        o.put("statement", dev.lancet.core.transaction.StatementName.of(txn, e.version()));
        o.put("operation", Transactions.operationName(txn));
        o.set("readVersion", CliJson.unsigned(txn.getReadVersion()));
        o.put("uuid", txn.getUuid());
        o.set("steps", CliJson.strings(Transactions.steps(txn)));
      } else {
        o.putNull("statement");
        o.putNull("operation");
        o.putNull("readVersion");
        o.putNull("uuid");
        o.set("steps", CliJson.array());
      }
      o.set("tags", CliJson.strings(e.tags()));
      o.put("manifestPath", e.manifestPath());
      e.error().ifPresent(err -> o.put("error", err));
    }
    out.println(CliJson.print(items));
  }
}
