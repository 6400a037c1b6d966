package dev.lancet.spark.read;

import dev.lancet.spark.SparkAllocator;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one input partition on an executor: re-creates the scan task at its version, reads its
 * Arrow batches, applies the pushed filter, and hands each batch to Spark as column vectors over
 * the same buffers (valid until the next call).
 */
final class LancetColumnarReader implements PartitionReader<ColumnarBatch> {
  private final BufferAllocator allocator;
  private final LanceTable table;
  private final ArrowReader reader;
  private final BatchFilter filter;
  private final List<DataType> types = new ArrayList<>();
  private ColumnarBatch current;

  LancetColumnarReader(LancetInputPartition p) {
    this.allocator = SparkAllocator.child("read fragment " + p.task().fragmentId());
    LanceTable t = null;
    ArrowReader r = null;
    BatchFilter f = null;
    try {
      t = LanceTable.open(p.uri(), p.storageOptions());
      r = t.openTask(p.task()).open(allocator);
      if (!p.filter().isEmpty()) {
        f = new BatchFilter(p.filter(), r.getVectorSchemaRoot().getSchema(), allocator);
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly(f, r, t);
      allocator.close();
      throw e instanceof RuntimeException re ? re : new java.io.UncheckedIOException((IOException) e);
    }
    this.table = t;
    this.reader = r;
    this.filter = f;
    StructType schema = (StructType) DataType.fromJson(p.sparkSchemaJson());
    for (StructField sf : schema.fields()) {
      types.add(sf.dataType());
    }
  }

  @Override
  public boolean next() throws IOException {
    while (reader.loadNextBatch()) {
      VectorSchemaRoot batch = reader.getVectorSchemaRoot();
      if (filter != null) {
        batch = filter.apply(batch);
      }
      if (batch.getRowCount() == 0) {
        continue;
      }
      current = new ColumnarBatch(ArrowColumns.wrapAll(batch.getFieldVectors(), types),
          batch.getRowCount());
      return true;
    }
    return false;
  }

  @Override
  public ColumnarBatch get() {
    return current;
  }

  @Override
  public void close() {
    closeQuietly(filter, reader, table);
    allocator.close();
  }

  private static void closeQuietly(AutoCloseable... all) {
    for (AutoCloseable c : all) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception e) {
          // closing after a finished or failed read
        }
      }
    }
  }
}
