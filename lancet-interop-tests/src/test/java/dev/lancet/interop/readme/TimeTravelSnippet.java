package dev.lancet.interop.readme;

import dev.lancet.table.LanceTable;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** README snippet "time-travel": tag a version, read back at a version and at a tag. */
final class TimeTravelSnippet {
  private TimeTravelSnippet() {}

  static long run(String uri) throws Exception {
    long rows = 0;
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      table.tags().create("before-evolution", 1);
      table.tags().move("before-evolution", 2);
      try (ArrowReader r = table.newScan().select("id", "name").asOfTag("before-evolution").open()) {
        while (r.loadNextBatch()) {
          VectorSchemaRoot batch = r.getVectorSchemaRoot();
          rows += batch.getRowCount();
        }
      }
      try (ArrowReader r = table.newScan().asOfVersion(1).withRowId().limit(5).open()) {
        while (r.loadNextBatch()) {
          System.out.println(r.getVectorSchemaRoot().contentToTSVString());
        }
      }
      table.tags().list().forEach(t -> System.out.println(t.name() + " -> " + t.version()));
    }
    // README:end
    return rows;
  }
}
