package dev.lancet.interop.mixed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one mixed-writers run: what each writer got acknowledged, lance-core's
 * failures by message, Lancet's conflicts by winner and collision kind (and which of them were
 * false: against a lance-core compaction or config update that does not touch the fragments of
 * the rows the statement changes), re-runs, lost races, and the write form of every version.
 */
record RunFigures(String policy, long seed, long millis, int versions,
    Map<String, Integer> acknowledged, Map<String, Integer> lanceErrors, int lanceInternalErrors,
    int lanceGaveUp, Map<String, Integer> lancetConflicts, int falseConflicts,
    List<String> falseConflictExamples, int genuineMaintenanceConflicts,
    Map<String, Integer> lancetErrors, Map<String, Integer> lancetGaveUp, int reruns, long lostRaces,
    Map<String, Integer> lancetForms, int compositeVersions, int lanceUnreadableTransactions) {

  static final String INTERNAL_ERROR = "Encountered internal error. Please file a bug report";

  RunFigures {
    acknowledged = Map.copyOf(acknowledged);
    lanceErrors = Map.copyOf(lanceErrors);
    lancetConflicts = Map.copyOf(lancetConflicts);
    falseConflictExamples = List.copyOf(falseConflictExamples);
    lancetErrors = Map.copyOf(lancetErrors);
    lancetGaveUp = Map.copyOf(lancetGaveUp);
    lancetForms = Map.copyOf(lancetForms);
  }

  int ack(String key) {
    return acknowledged.getOrDefault(key, 0);
  }

  int conflicts() {
    return lancetConflicts.values().stream().mapToInt(Integer::intValue).sum();
  }

  int lanceErrorCount() {
    return lanceErrors.values().stream().mapToInt(Integer::intValue).sum();
  }

  int lancetErrorCount() {
    return lancetErrors.values().stream().mapToInt(Integer::intValue).sum();
  }

  int lancetGaveUpCount() {
    return lancetGaveUp.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** An error message grouped by kind: digits and ids folded, cut to a readable length. */
  static String kindOf(String message) {
    String m = message.contains(INTERNAL_ERROR) ? "internal error: " + message : message;
    m = m.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>")
        .replaceAll("\\d+", "N");
    return m.substring(0, Math.min(m.length(), 110));
  }

  /** A table of runs (one line each, then the totals) and the breakdowns over all of them. */
  static String table(List<RunFigures> runs) {
    String header = String.format("%-18s %5s %7s %4s | %-17s %5s %4s | %-11s %5s %5s %5s %5s %5s %5s %5s | %6s %6s",
        "policy", "run", "ms", "ver", "lance a/c/r/u", "err", "int", "Lancet a/d/m", "confl", "false",
        "real", "rerun", "lost", "gave", "fail", "compos", "unread");
    StringBuilder sb = new StringBuilder(header).append('\n').append("-".repeat(header.length())).append('\n');
    int[] total = new int[18];
    for (int i = 0; i < runs.size(); i++) {
      RunFigures r = runs.get(i);
      int[] row = {
        r.ack("lance-ingest APPEND"), r.ack("lance-maint COMPACT"), r.ack("lance-maint RESERVE"),
        r.ack("lance-maint CONFIG"),
        r.lanceErrorCount(), r.lanceInternalErrors(), r.ack("lancet APPEND"), r.ack("lancet DELETE"),
        r.ack("lancet MERGE"), r.conflicts(), r.falseConflicts(), r.genuineMaintenanceConflicts(),
        r.reruns(), (int) r.lostRaces(), r.lancetGaveUpCount(), r.lancetErrorCount(), r.compositeVersions(),
        r.lanceUnreadableTransactions()};
      for (int k = 0; k < row.length; k++) {
        total[k] += row[k];
      }
      sb.append(line(r.policy(), String.valueOf(i + 1), r.millis(), r.versions(), row)).append('\n');
    }
    long ms = runs.stream().mapToLong(RunFigures::millis).sum();
    int versions = runs.stream().mapToInt(RunFigures::versions).sum();
    sb.append("-".repeat(header.length())).append('\n')
        .append(line(runs.isEmpty() ? "" : runs.get(0).policy(), "all", ms, versions, total)).append('\n');
    sb.append("ms = setup and writers; lance a/c/r/u = lance-core appends/compactions/the compactions'"
        + " fragment reservations/config updates acknowledged; err = lance-core"
        + " errors (int = the internal error); Lancet a/d/m = appends/deletes/merge inserts acknowledged;"
        + " confl = Lancet conflicts (false = against a lance-core compaction or config update not touching"
        + " the statement's fragments, real = against a compaction that rewrote them); rerun = statements"
        + " run again after a conflict; lost = lost races retried in the commit loop; gave = Lancet"
        + " statements abandoned after " + LancetWriterMain.MAX_TRIES + " conflicting tries; fail = Lancet"
        + " statements failing other than by a retryable conflict; compos = composite versions; unread ="
        + " versions whose transaction lance-core cannot read\n");
    sb.append("lance-core errors by message:").append(breakdown(runs, RunFigures::lanceErrors));
    sb.append("Lancet conflicts by winner and kind:").append(breakdown(runs, RunFigures::lancetConflicts));
    sb.append("Lancet failures other than conflicts:").append(breakdown(runs, RunFigures::lancetErrors));
    sb.append("Lancet statements abandoned (their conflicts in order):").append(breakdown(runs, RunFigures::lancetGaveUp));
    sb.append("Lancet write forms (writer op -> recorded operation):").append(breakdown(runs, RunFigures::lancetForms));
    List<String> examples = new ArrayList<>();
    runs.forEach(r -> examples.addAll(r.falseConflictExamples()));
    if (!examples.isEmpty()) {
      sb.append("false conflicts (first ").append(Math.min(5, examples.size())).append("):\n");
      examples.stream().limit(5).forEach(e -> sb.append("  ").append(e).append('\n'));
    }
    return sb.toString();
  }

  private static String line(String policy, String run, long ms, int versions, int[] v) {
    return String.format("%-18s %5s %7d %4d | %3d/%3d/%3d/%3d   %5d %4d | %3d/%3d/%3d %5d %5d %5d %5d %5d %5d %5d | %6d %6d",
        policy, run, ms, versions, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
        v[11], v[12], v[13], v[14], v[15], v[16], v[17]);
  }

  private static String breakdown(List<RunFigures> runs,
      java.util.function.Function<RunFigures, Map<String, Integer>> of) {
    Map<String, Integer> sum = new TreeMap<>();
    runs.forEach(r -> of.apply(r).forEach((k, n) -> sum.merge(k, n, Integer::sum)));
    if (sum.isEmpty()) {
      return " none\n";
    }
    StringBuilder sb = new StringBuilder("\n");
    sum.forEach((k, n) -> sb.append(String.format("  %6d  %s%n", n, k)));
    return sb.toString();
  }
}
