package dev.lancet.datafile.lance.file;

import dev.lancet.table.spi.RowRange;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches of one read: rows of the ranges in order, {@code batchSize} at a time (a batch
 * may take rows from several ranges), decoded column by column straight into the root's
 * vectors. Only the chunks a batch needs are read from the file.
 */
final class LanceFileBatches extends ArrowReader {
  private final Schema schema;
  private final List<ColumnPages> columns;
  private final List<RowRange> ranges;
  private final int batchSize;
  private int range;
  private long next;
  private long bytesRead;

  LanceFileBatches(BufferAllocator allocator, Schema schema, List<ColumnPages> columns,
      List<RowRange> ranges, int batchSize) {
    super(allocator);
    this.schema = schema;
    this.columns = columns;
    this.ranges = List.copyOf(ranges);
    this.batchSize = batchSize;
    this.next = ranges.isEmpty() ? 0 : ranges.get(0).start();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    // The pieces of the next batch: [starts[k], ends[k]) in file rows.
    long[] starts = new long[4];
    long[] ends = new long[4];
    int pieces = 0;
    int rows = 0;
    while (rows < batchSize && range < ranges.size()) {
      RowRange r = ranges.get(range);
      long take = Math.min(r.end() - next, batchSize - rows);
      if (take > 0) {
        if (pieces == starts.length) {
          starts = java.util.Arrays.copyOf(starts, pieces * 2);
          ends = java.util.Arrays.copyOf(ends, pieces * 2);
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
    for (int c = 0; c < columns.size(); c++) {
      FieldVector v = root.getVector(c);
      v.setInitialCapacity(rows);
      v.allocateNew();
      VectorSink sink = VectorSink.of(v);
      int at = 0;
      for (int k = 0; k < pieces; k++) {
        columns.get(c).decode(starts[k], ends[k], sink, at);
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
    // The file belongs to the data-file reader that made this read.
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
