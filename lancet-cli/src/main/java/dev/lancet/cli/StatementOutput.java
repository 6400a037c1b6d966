package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.table.Attempt;
import dev.lancet.table.StatementResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the row-level commands print: one line for people, or under {@code --json} an object
 * with exact types (counts, versions and attempts are JSON integers; {@code version} is
 * {@code null} when nothing was committed).
 */
final class StatementOutput {
  private StatementOutput() {}

  static ArrayNode attempts(List<Attempt> attempts) {
    ArrayNode a = CliJson.array();
    for (Attempt x : attempts) {
      ObjectNode o = CliJson.object();
      o.put("transaction", x.transactionUuid());
      o.put("attempt", x.attempt());
      o.put("outcome", x.outcome().name().toLowerCase(java.util.Locale.ROOT));
      o.set("version", CliJson.unsigned(x.version()));
      o.put("detail", x.detail());
      a.add(o);
    }
    return a;
  }

  static ObjectNode json(OptionalLong version, Map<String, Long> counts, int plans,
      List<Attempt> attempts) {
    ObjectNode o = CliJson.object();
    o.put("ok", true);
    o.put("committed", version.isPresent());
    if (version.isPresent()) {
      o.set("version", CliJson.unsigned(version.getAsLong()));
    } else {
      o.putNull("version");
    }
    counts.forEach(o::put);
    o.put("plans", plans);
    o.set("attempts", attempts(attempts));
    return o;
  }

  /** Counts in the order given: name, value, name, value... */
  static Map<String, Long> counts(Object... kv) {
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      out.put((String) kv[i], ((Number) kv[i + 1]).longValue());
    }
    return out;
  }

  static void print(CommandSpec spec, boolean json, String what, StatementResult r) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(CliJson.print(json(r.version(), counts(
          "rowsDeleted", r.rowsDeleted(), "rowsUpdated", r.rowsUpdated(),
          "rowsInserted", r.rowsInserted(), "filesWritten", r.filesWritten()),
          r.plans(), r.attempts())));
    } else {
      String counts = String.format(java.util.Locale.ROOT,
          "%s: %,d deleted, %,d updated, %,d inserted", what, r.rowsDeleted(), r.rowsUpdated(),
          r.rowsInserted());
      out.println(r.version().isPresent()
          ? counts + "; version " + r.version().getAsLong() + " (" + r.plans() + " plan(s), "
              + r.attempts().size() + " commit attempt(s))"
          : counts + "; nothing to change, nothing committed");
    }
    out.flush();
  }

  /** {@code col=EXPR} split at the first {@code =}. */
  static String[] assignment(String s, String option) {
    int eq = s.indexOf('=');
    if (eq <= 0) {
      throw new CliException(option + " takes COLUMN=EXPRESSION, not '" + s + "'");
    }
    return new String[] {s.substring(0, eq).strip(), s.substring(eq + 1).strip()};
  }
}
