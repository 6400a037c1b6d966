package dev.lancet.interop.table;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** A reader that also closes the table it came from. */
final class ClosingReader extends ArrowReader {
  private final ArrowReader inner;
  private final AutoCloseable owner;

  ClosingReader(ArrowReader inner, AutoCloseable owner) {
    super(null);
    this.inner = inner;
    this.owner = owner;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return inner.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    return inner.loadNextBatch();
  }

  @Override
  public long bytesRead() {
    return inner.bytesRead();
  }

  @Override
  public void close() throws IOException {
    try {
      inner.close();
    } finally {
      try {
        owner.close();
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() throws IOException {
    return inner.getVectorSchemaRoot().getSchema();
  }
}
