package dev.lancet.table;

import java.io.IOException;
import java.util.Iterator;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The caller's in-memory batches as the stream a write reads: each root's buffers are shared
 * into this reader's root (their reference counts raised, no bytes copied), one batch at a
 * time as the write asks for it. The caller keeps its roots and closes them; the write that made
 * this reader closes it, which drops its references.
 */
final class RootsReader extends ArrowReader {
  private final Schema schema;
  private final Iterator<? extends VectorSchemaRoot> roots;
  private int index;

  private RootsReader(BufferAllocator allocator, Schema schema,
      Iterator<? extends VectorSchemaRoot> roots) {
    super(allocator);
    this.schema = schema;
    this.roots = roots;
  }

  /**
   * A reader of {@code batches}, all of the first one's schema; the iterable is walked lazily.
   *
   * @throws InvalidInputException when there is no batch, a batch has no columns or a
   *     dictionary-encoded column (whose dictionaries only an {@link ArrowReader} carries)
   */
  static RootsReader of(Iterable<? extends VectorSchemaRoot> batches) {
    Objects.requireNonNull(batches, "batches");
    Iterator<? extends VectorSchemaRoot> it = batches.iterator();
    if (!it.hasNext()) {
      throw new InvalidInputException("no batches to write: give at least one VectorSchemaRoot "
          + "(a root of 0 rows is fine)");
    }
    VectorSchemaRoot first = Objects.requireNonNull(it.next(), "batch 0");
    if (first.getFieldVectors().isEmpty()) {
      throw new InvalidInputException("batch 0 has no columns; a Lance table needs at least one");
    }
    for (FieldVector v : first.getFieldVectors()) {
      if (v.getField().getDictionary() != null) {
        throw new InvalidInputException("column '" + v.getName() + "' is dictionary-encoded: "
            + "pass the batches as an ArrowReader, which carries their dictionaries");
      }
    }
    Iterator<VectorSchemaRoot> all = new Iterator<>() {
      private boolean firstGiven;

      @Override
      public boolean hasNext() {
        return !firstGiven || it.hasNext();
      }

      @Override
      public VectorSchemaRoot next() {
        if (!firstGiven) {
          firstGiven = true;
          return first;
        }
        return it.next();
      }
    };
    return new RootsReader(first.getFieldVectors().get(0).getAllocator(), first.getSchema(), all);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (!roots.hasNext()) {
      getVectorSchemaRoot().clear(); // the last batch's references are dropped at the end
      return false;
    }
    VectorSchemaRoot next = Objects.requireNonNull(roots.next(), "batch " + index);
    if (!next.getSchema().equals(schema)) {
      throw new InvalidInputException("batch " + index + " has the schema " + next.getSchema()
          + ", not the first batch's " + schema + ": every batch of a write has one schema");
    }
    index++;
    // VectorLoader, inside, retains the batch's buffers; loadRecordBatch closes the batch.
    ArrowRecordBatch batch = new VectorUnloader(next).getRecordBatch();
    loadRecordBatch(batch);
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    // The roots are the caller's.
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
