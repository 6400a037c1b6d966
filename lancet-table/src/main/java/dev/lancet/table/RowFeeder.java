package dev.lancet.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Hands out a reader's rows one at a time (copying each into a target), batch after batch. */
final class RowFeeder {
  private final ArrowReader reader;
  private final BatchConformance conformance;
  private VectorSchemaRoot current;
  private int next;
  private long delivered;

  RowFeeder(ArrowReader reader, BatchConformance conformance) {
    this.reader = reader;
    this.conformance = conformance;
  }

  /** Copies the next row into row {@code row} of {@code target}; false when there is none. */
  boolean copyNext(VectorSchemaRoot target, int row) {
    if (!advance()) {
      return false;
    }
    List<FieldVector> from = current.getFieldVectors();
    List<FieldVector> to = target.getFieldVectors();
    for (int c = 0; c < to.size(); c++) {
      to.get(c).copyFromSafe(next, row, from.get(c));
    }
    next++;
    delivered++;
    return true;
  }

  boolean hasMore() {
    return advance();
  }

  long delivered() {
    return delivered;
  }

  private boolean advance() {
    try {
      while (current == null || next >= current.getRowCount()) {
        if (!reader.loadNextBatch()) {
          return false;
        }
        current = conformance.conform(reader.getVectorSchemaRoot());
        next = 0;
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("reading the new columns' rows", e);
    }
  }
}
