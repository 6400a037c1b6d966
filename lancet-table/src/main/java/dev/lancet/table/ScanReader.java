package dev.lancet.table;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The {@link ArrowReader} a scan returns: the tasks' fragments read one after another, each
 * batch moved (not copied: the buffers are shared) into the reader's root under the table's
 * current column names.
 */
final class ScanReader extends ArrowReader {
  private final Schema schema;
  private final List<ScanTask> tasks;
  private final BufferAllocator allocator;
  private int next;
  private FragmentRead current;
  private long bytes;

  ScanReader(BufferAllocator allocator, Schema schema, List<ScanTask> tasks) {
    super(allocator);
    this.allocator = allocator;
    this.schema = schema;
    this.tasks = tasks;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    while (true) {
      if (current == null) {
        if (next >= tasks.size()) {
          return false;
        }
        current = tasks.get(next++).read(allocator);
      }
      VectorSchemaRoot batch = current.next();
      if (batch == null) {
        current.close();
        current = null;
        continue;
      }
      try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
        bytes += rb.computeBodyLength();
        new VectorLoader(getVectorSchemaRoot()).load(rb);
      }
      return true;
    }
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  @Override
  protected void closeReadSource() {
    if (current != null) {
      current.close();
      current = null;
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
