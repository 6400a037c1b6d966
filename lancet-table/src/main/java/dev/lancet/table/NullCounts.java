package dev.lancet.table;

import dev.lancet.core.version.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Nulls in the live rows of a column, for tightening its nullability. */
final class NullCounts {
  private NullCounts() {}

  /** Nulls of column {@code path} ("a", or "s.a": a child counts where its parents are valid). */
  static long count(TableContext ctx, Snapshot read, String path) {
    String[] parts = path.split("\\.");
    long nulls = 0;
    try (ArrowReader r = new Scan(ctx, ref -> new Scan.At(read, ctx.at(read.manifest()))).select(parts[0]).open()) {
      while (r.loadNextBatch()) {
        FieldVector top = r.getVectorSchemaRoot().getVector(0);
        int rows = r.getVectorSchemaRoot().getRowCount();
        for (int i = 0; i < rows; i++) {
          FieldVector cur = top;
          for (int p = 1; p < parts.length && cur != null; p++) {
            if (cur.isNull(i)) {
              cur = null;
            } else {
              String name = parts[p];
              cur = cur.getChildrenFromFields().stream().filter(c -> c.getName().equals(name))
                  .findFirst().orElse(null);
            }
          }
          if (cur != null && cur.isNull(i)) {
            nulls++;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("counting nulls of column " + path, e);
    }
    return nulls;
  }
}
