package dev.lancet.spark.rowlevel;

import dev.lancet.table.FragmentWriteSpec;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/** Sent to executors for a row-level operation. */
final class LancetDeltaWriterFactory implements DeltaWriterFactory {
  private static final long serialVersionUID = 1L;

  private final FragmentWriteSpec spec;
  private final String arrowSchemaJson;
  private final String inputSchemaJson;

  LancetDeltaWriterFactory(FragmentWriteSpec spec, Schema arrow, StructType input) {
    this.spec = spec;
    this.arrowSchemaJson = arrow.toJson();
    this.inputSchemaJson = input.json();
  }

  @Override
  public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId) {
    try {
      return new LancetDeltaWriter(spec, Schema.fromJSON(arrowSchemaJson),
          (StructType) DataType.fromJson(inputSchemaJson), partitionId, taskId);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
