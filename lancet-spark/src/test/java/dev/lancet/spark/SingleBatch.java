package dev.lancet.spark;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** An ArrowReader of one batch (a copy of {@code batch}'s buffers' references). */
final class SingleBatch extends ArrowReader {
  private final VectorSchemaRoot batch;
  private boolean done;

  SingleBatch(BufferAllocator allocator, VectorSchemaRoot batch) {
    super(allocator);
    this.batch = batch;
  }

  @Override
  public boolean loadNextBatch() {
    if (done) {
      return false;
    }
    done = true;
    try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
      new VectorLoader(getVectorSchemaRoot()).load(rb);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
  }

  @Override
  protected Schema readSchema() {
    return batch.getSchema();
  }
}
