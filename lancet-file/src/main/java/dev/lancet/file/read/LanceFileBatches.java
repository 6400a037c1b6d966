package dev.lancet.file.read;

import dev.lancet.file.RowRange;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
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
  private final List<FieldDecoder> columns;
  private final List<RowRange> ranges;
  private final int batchSize;
  private int range;
  private long next;
  private long bytesRead;
  /** Per column, the buffers the last batch was decoded into and their reference counts then. */
  private final ArrowBuf[][] filled;
  private final int[][] filledRefs;

  LanceFileBatches(BufferAllocator allocator, Schema schema, List<FieldDecoder> columns,
      List<RowRange> ranges, int batchSize) {
    super(allocator);
    this.schema = schema;
    this.columns = columns;
    this.ranges = List.copyOf(ranges);
    this.batchSize = batchSize;
    this.next = ranges.isEmpty() ? 0 : ranges.get(0).start();
    this.filled = new ArrowBuf[columns.size()][];
    this.filledRefs = new int[columns.size()][];
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
      FieldDecoder field = columns.get(c);
      if (!field.nested() && reusable(c, v, rows)) {
        v.reset(); // zeroed in place: allocating a batch's vectors anew was a tenth of a filter
      } else {
        v.clear();
        v.setInitialCapacity(rows);
        v.allocateNew();
      }
      field.decode(v, starts, ends, pieces);
      v.setValueCount(rows);
      bytesRead += v.getBufferSize();
      remember(c, v);
    }
    root.setRowCount(rows);
    return true;
  }

  /**
   * Whether {@code v}'s buffers hold {@code rows} rows and nothing took a reference to them
   * since this reader filled them last: a consumer that sliced or shared the last batch without
   * copying holds one, and its rows must stay as they were.
   */
  private boolean reusable(int column, FieldVector v, int rows) {
    ArrowBuf[] last = filled[column];
    if (last == null || v.getValueCapacity() < rows) {
      return false;
    }
    List<ArrowBuf> now = v.getFieldBuffers();
    if (now.size() != last.length) {
      return false;
    }
    for (int i = 0; i < last.length; i++) {
      if (now.get(i) != last[i] || last[i].refCnt() != filledRefs[column][i]) {
        return false;
      }
    }
    return true;
  }

  /** Notes the buffers {@code v} was just filled in, and their reference counts. */
  private void remember(int column, FieldVector v) {
    List<ArrowBuf> bufs = v.getFieldBuffers();
    filled[column] = bufs.toArray(new ArrowBuf[0]);
    filledRefs[column] = new int[bufs.size()];
    for (int i = 0; i < bufs.size(); i++) {
      filledRefs[column][i] = bufs.get(i).refCnt();
    }
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
