package dev.lancet.datafile.lance;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** The batches of several readers of one schema, one reader after another. */
public final class ConcatReader extends ArrowReader {
  private final List<ArrowReader> parts;
  private int at;

  public ConcatReader(BufferAllocator allocator, List<ArrowReader> parts) {
    super(allocator);
    this.parts = parts;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    while (at < parts.size()) {
      ArrowReader r = parts.get(at);
      if (r.loadNextBatch()) {
        try (ArrowRecordBatch b = new VectorUnloader(r.getVectorSchemaRoot()).getRecordBatch()) {
          new VectorLoader(getVectorSchemaRoot()).load(b);
        }
        return true;
      }
      at++;
    }
    return false;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() throws IOException {
    return parts.get(0).getVectorSchemaRoot().getSchema();
  }
}
