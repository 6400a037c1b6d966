package dev.lancet.interop.readme;

import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;

/** README snippet "delete": rows by a SQL filter. */
final class DeleteSnippet {
  private DeleteSnippet() {}

  static StatementResult run(String uri) {
    StatementResult r;
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      r = table.delete("score < 10 OR name IS NULL");
      System.out.println(r.rowsDeleted() + " rows deleted"
          + r.version().stream().mapToObj(v -> " in version " + v).findFirst().orElse(""));
    }
    // README:end
    return r;
  }
}
