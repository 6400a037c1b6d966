package dev.lancet.spark.read;

import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.expr.Predicate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The pushed filter, evaluated with the table API's SQL filter layer (dev.lancet.table.expr, Lance's
 * semantics) on each batch a task reads; the selected rows are copied into a batch of their own.
 * (When the table API's scan takes a filter itself, the scan will evaluate it instead.)
 */
final class BatchFilter implements AutoCloseable {
  private final BoundPredicate predicate;
  private final BufferAllocator allocator;
  private VectorSchemaRoot out;

  BatchFilter(String sql, org.apache.arrow.vector.types.pojo.Schema schema, BufferAllocator allocator) {
    this.predicate = Predicate.parse(sql).bind(schema);
    this.allocator = allocator;
  }

  /** {@code batch} itself when every row passes, else a batch of the passing rows. */
  VectorSchemaRoot apply(VectorSchemaRoot batch) {
    RoaringBitmap keep = predicate.selection(batch);
    int rows = batch.getRowCount();
    if (keep.getCardinality() == rows) {
      return batch;
    }
    release();
    List<FieldVector> vectors = new ArrayList<>();
    for (FieldVector from : batch.getFieldVectors()) {
      FieldVector to = from.getField().createVector(allocator);
      to.setInitialCapacity(keep.getCardinality());
      to.allocateNew();
      TransferPair copier = from.makeTransferPair(to);
      int j = 0;
      for (IntIterator it = keep.getIntIterator(); it.hasNext(); j++) {
        copier.copyValueSafe(it.next(), j);
      }
      to.setValueCount(j);
      vectors.add(to);
    }
    out = new VectorSchemaRoot(vectors);
    out.setRowCount(keep.getCardinality());
    return out;
  }

  private void release() {
    if (out != null) {
      out.close();
      out = null;
    }
  }

  @Override
  public void close() {
    release();
  }
}
