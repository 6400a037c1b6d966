package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.cli.table.Progress;
import dev.lancet.table.Compaction;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.IndexCoverage;
import dev.lancet.table.LanceTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet compact}: rewrites small fragments and fragments with many deleted rows. */
@Command(name = "compact",
    description = {"Rewrite small fragments, and fragments with many deleted rows, into "
        + "fragments of about N rows, as one data_change = false commit (stable row ids and row "
        + "versions kept); concurrent appends and merge inserts of new keys are not disturbed.",
        "Indexes: with stable row ids an index keyed by row ids (vector, BTree, bitmap, ...) "
            + "follows its rows into the new fragments. Fragments covered by an index that "
            + "cannot (every index of a table without stable row ids; zone-map and Bloom-filter "
            + "indexes) are skipped unless --allow-index-coverage-loss is given; each such index "
            + "is reported with the number of fragments and why (docs/decisions/0026).",
        "Exit codes: 0 done, 2 invalid input, 3 retryable conflict, 4 incompatible, "
            + "5 commit state unknown."})
public final class CompactCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Option(names = "--target-rows-per-fragment", paramLabel = "N",
      description = "Rows per compacted fragment (default: 1048576).")
  Long targetRows;

  @Option(names = "--materialize-deletions-threshold", paramLabel = "F",
      description = "Rewrite a fragment whose deleted share of rows is above F (default: 0.1).")
  Double threshold;

  @Option(names = "--allow-index-coverage-loss",
      description = "Rewrite fragments covered by an index that cannot follow its rows anyway: "
          + "their rows become unindexed until the index is optimized, and a vector index left "
          + "covering nothing is dropped.")
  boolean allowIndexCoverageLoss;

  @Mixin
  StatementOptions options;

  @Override
  public Integer call() {
    try (LanceTable table = target.open();
        Progress p = new Progress(spec.commandLine().getErr(), options.progress, "rewrote")) {
      Compaction c = table.compact().onProgress(p).allowIndexCoverageLoss(allowIndexCoverageLoss);
      if (targetRows != null) {
        c.targetRowsPerFragment(targetRows);
      }
      if (threshold != null) {
        c.materializeDeletionsThreshold(threshold);
      }
      CompactionResult r = options.apply(c).commit();
      p.close();
      PrintWriter out = spec.commandLine().getOut();
      if (options.json) {
        ObjectNode o = StatementOutput.json(r.version(), StatementOutput.counts(
            "fragmentsRemoved", r.fragmentsRemoved(), "fragmentsAdded", r.fragmentsAdded(),
            "rowsRewritten", r.rowsRewritten(), "deletionsMaterialized",
            r.deletionsMaterialized(), "fragmentsSkipped", r.fragmentsSkipped()), r.plans(),
            r.attempts());
        ArrayNode indexes = CliJson.array();
        for (IndexCoverage ic : r.indexCoverage()) {
          ObjectNode i = CliJson.object();
          i.put("index", ic.index());
          i.put("outcome", ic.outcome().name().toLowerCase(java.util.Locale.ROOT));
          i.put("fragments", ic.fragments());
          i.put("reason", ic.reason());
          indexes.add(i);
        }
        o.set("indexCoverage", indexes);
        out.println(CliJson.print(o));
      } else if (r.committed()) {
        out.println(String.format(java.util.Locale.ROOT, "compacted %d fragment(s) into %d, "
            + "%,d rows rewritten, %,d deleted rows dropped; version %d (%d plan(s))",
            r.fragmentsRemoved(), r.fragmentsAdded(), r.rowsRewritten(),
            r.deletionsMaterialized(), r.version().getAsLong(), r.plans()));
      } else {
        out.println("nothing to compact; nothing committed");
      }
      if (!options.json) {
        for (IndexCoverage ic : r.indexCoverage()) {
          out.println(ic.describe());
        }
      }
      out.flush();
    }
    return ExitCodes.OK;
  }
}
