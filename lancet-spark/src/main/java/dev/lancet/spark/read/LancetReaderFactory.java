package dev.lancet.spark.read;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Columnar readers (Arrow batches as Spark column vectors); rows when Spark asks for rows. */
final class LancetReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    return true;
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new LancetColumnarReader((LancetInputPartition) partition);
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    LancetColumnarReader batches = new LancetColumnarReader((LancetInputPartition) partition);
    return new PartitionReader<>() {
      private java.util.Iterator<InternalRow> rows = java.util.Collections.emptyIterator();

      @Override
      public boolean next() throws java.io.IOException {
        while (!rows.hasNext()) {
          if (!batches.next()) {
            return false;
          }
          rows = batches.get().rowIterator();
        }
        return true;
      }

      @Override
      public InternalRow get() {
        return rows.next();
      }

      @Override
      public void close() throws java.io.IOException {
        batches.close();
      }
    };
  }
}
