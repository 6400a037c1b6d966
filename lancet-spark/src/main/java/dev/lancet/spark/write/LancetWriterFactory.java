package dev.lancet.spark.write;

import dev.lancet.table.FragmentWriteSpec;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/** Sent to executors: the write's spec, the table's Arrow schema and the input rows' schema. */
public final class LancetWriterFactory implements DataWriterFactory, StreamingDataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final FragmentWriteSpec spec;
  private final String arrowSchemaJson;
  private final String inputSchemaJson;

  public LancetWriterFactory(FragmentWriteSpec spec, Schema arrow, StructType input) {
    this.spec = spec;
    this.arrowSchemaJson = arrow.toJson();
    this.inputSchemaJson = input.json();
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    return new LancetDataWriter(spec, arrowSchema(), (StructType) DataType.fromJson(inputSchemaJson),
        partitionId, taskId);
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId) {
    return createWriter(partitionId, taskId);
  }

  private Schema arrowSchema() {
    try {
      return Schema.fromJSON(arrowSchemaJson);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
