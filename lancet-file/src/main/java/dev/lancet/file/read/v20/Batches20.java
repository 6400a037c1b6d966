package dev.lancet.file.read.v20;

import dev.lancet.file.RowRange;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches of one read of a 2.0 file: rows of the ranges in order, {@code batchSize} at a
 * time (a batch may take rows from several ranges), each field read piece by piece straight
 * into the root's vectors.
 */
final class Batches20 extends ArrowReader {
  private final java.nio.file.Path file;
  private final Schema schema;
  private final List<FieldReader> fields;
  private final List<RowRange> ranges;
  private final int batchSize;
  private int range;
  private long next;
  private long bytesRead;

  Batches20(java.nio.file.Path file, BufferAllocator allocator, Schema schema,
      List<FieldReader> fields, List<RowRange> ranges, int batchSize) {
    super(allocator);
    this.file = file;
    this.schema = schema;
    this.fields = List.copyOf(fields);
    this.ranges = List.copyOf(ranges);
    this.batchSize = batchSize;
    this.next = ranges.isEmpty() ? 0 : ranges.get(0).start();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    long[] starts = new long[4];
    long[] ends = new long[4];
    int pieces = 0;
    int rows = 0;
    while (rows < batchSize && range < ranges.size()) {
      RowRange r = ranges.get(range);
      long take = Math.min(r.end() - next, batchSize - rows);
      if (take > 0) {
        if (pieces == starts.length) {
          starts = Arrays.copyOf(starts, pieces * 2);
          ends = Arrays.copyOf(ends, pieces * 2);
        }
        starts[pieces] = next;
        ends[pieces] = next + take;
        pieces++;
        rows += (int) take;
        next += take;
      }
      if (next >= r.end()) {
        range++;
        if (range < ranges.size()) {
          next = ranges.get(range).start();
        }
      }
    }
    if (rows == 0) {
      return false;
    }
    VectorSchemaRoot root = getVectorSchemaRoot();
    for (int c = 0; c < fields.size(); c++) {
      FieldVector v = root.getVector(c);
      v.clear();
      v.setInitialCapacity(rows);
      v.allocateNew();
      int at = 0;
      for (int k = 0; k < pieces; k++) {
        try {
          fields.get(c).read(starts[k], ends[k], v, at);
        } catch (RuntimeException e) {
          // The checks before each use should leave nothing here; a damaged file that slips
          // past them still fails as a damaged file, never as an index or allocation error.
          throw new dev.lancet.file.CorruptFileException(file + ", field '" + v.getName()
              + "', rows " + starts[k] + ".." + ends[k] + ": " + e, e);
        }
        at += (int) (ends[k] - starts[k]);
      }
      v.setValueCount(rows);
      bytesRead += v.getBufferSize();
    }
    root.setRowCount(rows);
    return true;
  }

  @Override
  public long bytesRead() {
    return bytesRead;
  }

  @Override
  protected void closeReadSource() {
    // The file belongs to the LanceFile20 that made this read.
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
