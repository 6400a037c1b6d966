package dev.lancet.spark.write;

import dev.lancet.spark.SparkAllocator;
import dev.lancet.table.FragmentWriteSpec;
import dev.lancet.table.FragmentWriter;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.types.StructType;

/**
 * One task attempt's writer: Spark rows into Arrow batches of the table's schema, batches into
 * data files through the table API's {@link FragmentWriter}. {@link #commit()} describes the
 * files (nothing is published: the driver commits the attempts Spark's commit protocol reports
 * as committed); {@link #abort()} deletes them.
 */
public class LancetDataWriter implements DataWriter<InternalRow> {
  static final int BATCH_ROWS = 4096;

  private final int partitionId;
  private final long taskId;
  private final BufferAllocator allocator;
  private final FragmentWriter writer;
  private final VectorSchemaRoot root;
  private final Schema arrow;
  private final StructType input;
  private RowsToArrow rows;
  private long total;
  private boolean done;

  public LancetDataWriter(FragmentWriteSpec spec, Schema arrow, StructType input, int partitionId,
      long taskId) {
    this.partitionId = partitionId;
    this.taskId = taskId;
    this.allocator = SparkAllocator.child("write partition " + partitionId);
    FragmentWriter w = null;
    VectorSchemaRoot r = null;
    try {
      w = FragmentWriter.open(spec, allocator);
      r = VectorSchemaRoot.create(arrow, allocator);
    } catch (RuntimeException e) {
      if (r != null) {
        r.close();
      }
      if (w != null) {
        w.close();
      }
      allocator.close();
      throw e;
    }
    this.writer = w;
    this.root = r;
    this.arrow = arrow;
    this.input = input;
  }

  /** Where each table column is in the input rows (by name, case-insensitively as Spark resolves). */
  static int[] ordinals(Schema arrow, StructType input) {
    int[] out = new int[arrow.getFields().size()];
    for (int i = 0; i < out.length; i++) {
      String name = arrow.getFields().get(i).getName();
      int found = -1;
      for (int j = 0; j < input.fields().length; j++) {
        if (input.fields()[j].name().equalsIgnoreCase(name)) {
          found = j;
          break;
        }
      }
      if (found < 0) {
        throw new IllegalArgumentException("the rows have no column '" + name + "' of the Lance "
            + "table (they have " + String.join(", ", input.fieldNames()) + ")");
      }
      out[i] = found;
    }
    return out;
  }

  @Override
  public void write(InternalRow row) {
    add(row);
  }

  /** Adds one row whose table columns are at the ordinals given at construction. */
  protected void add(SpecializedGetters row) {
    if (rows == null) {
      // matched by name on the first row: a DELETE's writer gets no rows and no columns
      rows = new RowsToArrow(root, ordinals(arrow, input));
    }
    rows.add(row);
    total++;
    if (rows.rows() >= BATCH_ROWS) {
      flush();
    }
  }

  private void flush() {
    if (rows != null && rows.rows() > 0) {
      writer.write(rows.finishBatch());
      rows.reset();
    }
  }

  protected long[] keyHashes() {
    return writer.keyHashes();
  }

  protected TaskFiles describe(Map<Long, org.roaringbitmap.RoaringBitmap> deleted) {
    flush();
    List<dev.lancet.table.spi.WrittenFile> files = writer.finish();
    done = true;
    return new TaskFiles(partitionId, taskId, files, writer.keyHashes(), deleted, total);
  }

  @Override
  public TaskFiles commit() {
    return describe(Map.of());
  }

  @Override
  public void abort() {
    writer.abort();
  }

  @Override
  public void close() {
    try {
      if (!done) {
        writer.abort();
      }
      writer.close();
    } finally {
      root.close();
      allocator.close();
    }
  }
}
