package dev.lancet.interop.readme;

import dev.lancet.table.CompactionResult;
import dev.lancet.table.LanceTable;

/** README snippet "compact": small fragments and deleted rows rewritten. */
final class CompactSnippet {
  private CompactSnippet() {}

  static CompactionResult run(String uri) {
    CompactionResult r;
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      r = table.compact().targetRowsPerFragment(1_000_000).materializeDeletionsThreshold(0.1)
          .commit();   // row ids kept; concurrent appends and upserts are not disturbed
      System.out.println(r.fragmentsRemoved() + " fragments into " + r.fragmentsAdded() + ", "
          + r.rowsRewritten() + " rows rewritten");
      r.indexCoverage().forEach(c -> System.out.println(c.describe()));   // kept, skipped, lost
    }
    // README:end
    return r;
  }
}
