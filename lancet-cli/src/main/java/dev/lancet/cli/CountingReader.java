package dev.lancet.cli;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** A reader passing another's batches through, reporting the rows read so far. */
final class CountingReader extends ArrowReader {
  private final ArrowReader inner;
  private final LongConsumer progress;
  private long rows;

  CountingReader(ArrowReader inner, LongConsumer progress) {
    super(null);
    this.inner = inner;
    this.progress = progress;
  }

  long rows() {
    return rows;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return inner.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    boolean more = inner.loadNextBatch();
    if (more) {
      rows += inner.getVectorSchemaRoot().getRowCount();
      progress.accept(rows);
    }
    return more;
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return inner.getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return inner.lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return inner.getDictionaryIds();
  }

  @Override
  public long bytesRead() {
    return inner.bytesRead();
  }

  @Override
  public void close() {
    // the caller closes the inner reader
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() throws IOException {
    return inner.getVectorSchemaRoot().getSchema();
  }
}
