package dev.lancet.interop.readme;

import dev.lancet.table.HistoryEntry;
import dev.lancet.table.LanceTable;

/** README snippet "history". */
final class HistorySnippet {
  private HistorySnippet() {}

  static int run(String uri) {
    int versions = 0;
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      for (HistoryEntry h : table.history()) {
        System.out.println(h.version() + " " + h.timestamp().orElseThrow() + " " + h.operation()
            + " " + h.steps() + " read=" + h.readVersion().orElse(0L) + " tags=" + h.tags());
        versions++;
      }
    }
    // README:end
    return versions;
  }
}
