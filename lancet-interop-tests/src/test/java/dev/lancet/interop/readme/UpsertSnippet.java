package dev.lancet.interop.readme;

import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/** README snippet "upsert": a merge insert by key. */
final class UpsertSnippet {
  private UpsertSnippet() {}

  static StatementResult run(String uri, String arrowFile) throws Exception {
    StatementResult r;
    // README:begin
    try (BufferAllocator allocator = new RootAllocator();
        ArrowFileReader rows = new ArrowFileReader(Files.newByteChannel(Path.of(arrowFile)), allocator);
        LanceTable table = LanceTable.open(uri)) {
      r = table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll()
          .from(rows).commit();   // re-planned if a concurrent writer collides
      System.out.println(r.rowsUpdated() + " updated, " + r.rowsInserted() + " inserted, "
          + r.plans() + " plan(s)");
    }
    // README:end
    return r;
  }
}
