package dev.lancet.cli;

import dev.lancet.table.Compaction;
import dev.lancet.table.Delete;
import dev.lancet.table.MergeInsert;
import dev.lancet.table.Update;
import picocli.CommandLine.Option;

/** The options every row-level command shares: retries, re-plans, progress, JSON. */
public final class StatementOptions {
  @Option(names = "--max-replans", paramLabel = "N", defaultValue = "10",
      description = "Plan again after a conflicting concurrent commit at most N times "
          + "(default: ${DEFAULT-VALUE}).")
  int maxReplans;

  @Option(names = "--max-retries", paramLabel = "K", defaultValue = "20",
      description = "Retries after losing a race (default: ${DEFAULT-VALUE}).")
  int maxRetries;

  @Option(names = "--progress", description = "Show progress on stderr even when it is not a terminal.")
  boolean progress;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  Delete apply(Delete d) {
    return d.maxReplans(maxReplans).maxRetries(maxRetries);
  }

  Update apply(Update u) {
    return u.maxReplans(maxReplans).maxRetries(maxRetries);
  }

  MergeInsert apply(MergeInsert m) {
    return m.maxReplans(maxReplans).maxRetries(maxRetries);
  }

  Compaction apply(Compaction c) {
    return c.maxReplans(maxReplans).maxRetries(maxRetries);
  }
}
