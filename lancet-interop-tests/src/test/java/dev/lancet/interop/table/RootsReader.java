package dev.lancet.interop.table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** An {@link ArrowReader} over batches made in advance (test data); closes them when closed. */
final class RootsReader extends ArrowReader {
  private final Schema schema;
  private final List<VectorSchemaRoot> roots;
  private int next;

  RootsReader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> roots) {
    super(allocator);
    this.schema = schema;
    this.roots = new ArrayList<>(roots);
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
    roots.forEach(VectorSchemaRoot::close);
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
