package dev.lancet.spark.rowlevel;

import dev.lancet.spark.TableState;
import org.apache.spark.sql.connector.write.RowLevelOperation;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.types.StructType;

/** DELETE FROM, UPDATE and MERGE INTO as delta operations keyed by {@code _rowaddr}. */
public final class LancetRowLevelOperationBuilder implements RowLevelOperationBuilder {
  private final TableState state;
  private final StructType schema;
  private final RowLevelOperationInfo info;

  public LancetRowLevelOperationBuilder(TableState state, StructType schema,
      RowLevelOperationInfo info) {
    this.state = state;
    this.schema = schema;
    this.info = info;
  }

  @Override
  public RowLevelOperation build() {
    return new LancetDeltaOperation(state, schema, info.command());
  }
}
