package dev.lancet.datafile.lance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} over batches made in advance, replayed without a copy (each batch's
 * buffers are shared with the reader's root). With {@code owns}, closing the reader closes the
 * batches; without, they can be replayed again by another reader (the benchmarks).
 */
public final class ReplayReader extends ArrowReader {
  private final Schema schema;
  private final List<VectorSchemaRoot> roots;
  private final boolean owns;
  private int next;

  public ReplayReader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> roots,
      boolean owns) {
    super(allocator);
    this.schema = schema;
    this.roots = new ArrayList<>(roots);
    this.owns = owns;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (next >= roots.size()) {
      return false;
    }
    try (ArrowRecordBatch rb = new VectorUnloader(roots.get(next++)).getRecordBatch()) {
      loadRecordBatch(rb);
    }
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    if (owns) {
      roots.forEach(VectorSchemaRoot::close);
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
