package dev.lancet.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Batches taken out of a read (their buffers retained, not copied, so the reader can move on)
 * with the row ids and versions that go with each row: what a statement's reading threads hand
 * to the thread that writes.
 */
class HeldBatches implements AutoCloseable {
  /** One batch and its per-row ids and versions (null where the writer wants none). */
  record Held(VectorSchemaRoot root, long[] rowIds, long[] createdAt, long[] lastUpdatedAt) {}

  private final BufferAllocator allocator;
  private final List<Held> batches = new ArrayList<>();

  HeldBatches(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /** Keeps {@code batch}'s buffers (the caller may close or reuse {@code batch}). */
  void add(VectorSchemaRoot batch, long[] rowIds, long[] createdAt, long[] lastUpdatedAt) {
    VectorSchemaRoot held = VectorSchemaRoot.create(batch.getSchema(), allocator);
    try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
      new VectorLoader(held).load(rb);
    } catch (RuntimeException e) {
      held.close();
      throw e;
    }
    batches.add(new Held(held, rowIds, createdAt, lastUpdatedAt));
  }

  List<Held> batches() {
    return batches;
  }

  @Override
  public void close() {
    batches.forEach(h -> h.root().close());
    batches.clear();
  }
}
