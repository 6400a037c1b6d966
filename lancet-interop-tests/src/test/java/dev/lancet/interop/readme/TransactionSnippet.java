package dev.lancet.interop.readme;

import dev.lancet.table.LanceTable;
import dev.lancet.table.TransactionResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/** README snippet "transaction": append, delete and a config change as one version. */
final class TransactionSnippet {
  private TransactionSnippet() {}

  static TransactionResult run(String uri, String arrowFile) throws Exception {
    TransactionResult r;
    // README:begin
    try (BufferAllocator allocator = new RootAllocator();
        ArrowFileReader rows = new ArrowFileReader(Files.newByteChannel(Path.of(arrowFile)), allocator);
        LanceTable table = LanceTable.open(uri)) {
      r = table.newTransaction()
          .append(rows)
          .delete("id < 1000")                      // sees the appended rows too
          .setConfig("etl.last_load", "2026-12-01")
          .commit();                                 // all or nothing, one version
      System.out.println("version " + r.version() + ": " + r.statements());
    }
    // README:end
    return r;
  }
}
