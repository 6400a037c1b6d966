package dev.lancet.interop.readme;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/** README snippet "create": a table from an Arrow IPC file. */
final class CreateSnippet {
  private CreateSnippet() {}

  static long run(String uri, String arrowFile) throws Exception {
    // README:begin
    try (BufferAllocator allocator = new RootAllocator();
        ArrowFileReader rows = new ArrowFileReader(Files.newByteChannel(Path.of(arrowFile)), allocator);
        LanceTable table = LanceTable.create(uri, rows,
            CreateOptions.builder().storageVersion("2.1").stableRowIds(true).build())) {
      System.out.println("version " + table.version() + ", " + table.countRows() + " rows");
    }
    // README:end
    try (LanceTable table = LanceTable.open(uri)) {
      return table.countRows();
    }
  }
}
