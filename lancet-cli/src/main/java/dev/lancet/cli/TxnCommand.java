package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.cli.table.InputFiles;
import dev.lancet.cli.table.Progress;
import dev.lancet.table.LanceTable;
import dev.lancet.table.MergeInsert;
import dev.lancet.table.TableTransaction;
import dev.lancet.table.TransactionResult;
import dev.lancet.table.Update;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

/**
 * {@code lancet txn}: several statements as one atomic commit, in the order given. {@code --set}
 * belongs to the {@code --update} before it; {@code --on} and the {@code --when-*} options to the
 * {@code --merge-insert} before it.
 */
@Command(name = "txn",
    description = {"Run statements, in the order given, as one atomic commit (one Transaction V2 "
        + "version, a user step per statement); later statements see earlier ones' effects.",
        "  --append FILE | --delete PRED | --update PRED --set COL=EXPR [--set ...] | "
            + "--merge-insert FILE --on KEY[,KEY] [--when-matched update|keep] "
            + "[--when-not-matched insert|skip] [--when-not-matched-by-source keep|delete] | "
            + "--set-config KEY=VALUE",
        "Exit codes: 0 committed, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class TxnCommand implements Callable<Integer> {
  /** One statement as the options spelled it. */
  private static final class Planned {
    final String kind;
    final String arg;
    final List<String> sets = new ArrayList<>();
    List<String> on = List.of();
    String whenMatched = "keep";
    String whenNotMatched = "insert";
    String bySource = "keep";

    Planned(String kind, String arg) {
      this.kind = kind;
      this.arg = arg;
    }
  }

  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Option(names = "--max-retries", paramLabel = "K", defaultValue = "20",
      description = "Retries after losing a race (default: ${DEFAULT-VALUE}).")
  int maxRetries;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
  boolean progress;

  private final List<Planned> statements = new ArrayList<>();

  @Option(names = "--append", paramLabel = "FILE", description = "Append the rows of FILE.")
  void append(String file) {
    statements.add(new Planned("append", file));
  }

  @Option(names = "--delete", paramLabel = "PRED", description = "Delete the rows PRED selects.")
  void delete(String pred) {
    statements.add(new Planned("delete", pred));
  }

  @Option(names = "--update", paramLabel = "PRED", description = "Update the rows PRED selects.")
  void update(String pred) {
    statements.add(new Planned("update", pred));
  }

  @Option(names = "--set", paramLabel = "COL=EXPR", description = "A column of the --update before.")
  void set(String assignment) {
    last("--set", "update").sets.add(assignment);
  }

  @Option(names = "--merge-insert", paramLabel = "FILE", description = "Merge the rows of FILE.")
  void mergeInsert(String file) {
    statements.add(new Planned("merge-insert", file));
  }

  @Option(names = "--on", split = ",", paramLabel = "KEY[,KEY]",
      description = "The keys of the --merge-insert before.")
  void on(List<String> keys) {
    last("--on", "merge-insert").on = List.copyOf(keys);
  }

  @Option(names = "--when-matched", paramLabel = "update|keep")
  void whenMatched(String v) {
    last("--when-matched", "merge-insert").whenMatched = v;
  }

  @Option(names = "--when-not-matched", paramLabel = "insert|skip")
  void whenNotMatched(String v) {
    last("--when-not-matched", "merge-insert").whenNotMatched = v;
  }

  @Option(names = "--when-not-matched-by-source", paramLabel = "keep|delete")
  void bySource(String v) {
    last("--when-not-matched-by-source", "merge-insert").bySource = v;
  }

  @Option(names = "--set-config", paramLabel = "KEY=VALUE", description = "Set a config key.")
  void setConfig(String kv) {
    statements.add(new Planned("set-config", kv));
  }

  private Planned last(String option, String kind) {
    if (statements.isEmpty() || !statements.get(statements.size() - 1).kind.equals(kind)) {
      throw new CliException(option + " belongs to a --" + kind + " and must follow it");
    }
    return statements.get(statements.size() - 1);
  }

  @Override
  public Integer call() throws IOException {
    if (statements.isEmpty()) {
      throw new CliException("a transaction needs at least one statement (--append, --delete, "
          + "--update, --merge-insert, --set-config)");
    }
    List<AutoCloseable> open = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator(); LanceTable table = target.open();
        Progress p = new Progress(spec.commandLine().getErr(), progress, "read")) {
      try {
        TableTransaction txn = table.newTransaction().maxRetries(maxRetries).onProgress(p);
        for (Planned s : statements) {
          switch (s.kind) {
            case "append" -> txn.append(input(s.arg, table, alloc, open));
            case "delete" -> txn.delete(s.arg);
            case "update" -> {
              if (s.sets.isEmpty()) {
                throw new CliException("--update " + s.arg + " needs at least one --set");
              }
              Update u = table.newUpdate().where(s.arg);
              for (String a : s.sets) {
                String[] kv = StatementOutput.assignment(a, "--set");
                u.set(kv[0], kv[1]);
              }
              txn.update(u);
            }
            case "merge-insert" -> {
              if (s.on.isEmpty()) {
                throw new CliException("--merge-insert " + s.arg + " needs --on KEY");
              }
              MergeInsert m = table.mergeInsert(s.on).from(input(s.arg, table, alloc, open));
              MergeInsertCommand.configure(m, s.whenMatched, null, s.whenNotMatched, s.bySource,
                  null);
              txn.mergeInsert(m);
            }
            default -> {
              String[] kv = StatementOutput.assignment(s.arg, "--set-config");
              txn.setConfig(kv[0], kv[1]);
            }
          }
        }
        TransactionResult r = txn.commit();
        p.close();
        print(r);
      } finally {
        for (int i = open.size() - 1; i >= 0; i--) {
          try {
            open.get(i).close();
          } catch (Exception e) {
            // closing input files
          }
        }
      }
    }
    return ExitCodes.OK;
  }

  private static ArrowReader input(String file, LanceTable table, BufferAllocator alloc,
      List<AutoCloseable> open) throws IOException {
    ArrowReader r = InputFiles.open(Path.of(file), Optional.empty(), Optional.of(table.schema()),
        alloc);
    open.add(r);
    return r;
  }

  private void print(TransactionResult r) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o = CliJson.object();
      o.put("ok", true);
      o.put("committed", true);
      o.set("version", CliJson.unsigned(r.version()));
      o.put("uuid", r.transactionUuid());
      ArrayNode st = CliJson.array();
      for (TransactionResult.StatementCounts c : r.statements()) {
        ObjectNode x = CliJson.object();
        x.put("statement", c.description());
        x.put("rowsDeleted", c.rowsDeleted());
        x.put("rowsUpdated", c.rowsUpdated());
        x.put("rowsInserted", c.rowsInserted());
        st.add(x);
      }
      o.set("statements", st);
      ArrayNode res = CliJson.array();
      r.reservationVersions().forEach(v -> res.add(CliJson.unsigned(v)));
      o.set("reservationVersions", res);
      o.set("attempts", StatementOutput.attempts(r.attempts()));
      out.println(CliJson.print(o));
    } else {
      out.println("committed " + r.statements().size() + " statement(s) as version "
          + r.version() + (r.reservationVersions().isEmpty() ? ""
              : " (ids reserved in version(s) " + r.reservationVersions() + ")"));
      for (TransactionResult.StatementCounts c : r.statements()) {
        out.println(String.format(java.util.Locale.ROOT, "  %s: %,d deleted, %,d updated, "
            + "%,d inserted", c.description(), c.rowsDeleted(), c.rowsUpdated(),
            c.rowsInserted()));
      }
    }
    out.flush();
  }
}
