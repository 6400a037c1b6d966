package dev.lancet.spark.write;

import dev.lancet.spark.SparkSchemas;
import dev.lancet.spark.TableState;
import dev.lancet.spark.stream.LancetStreamingWrite;
import dev.lancet.table.DistributedWrite;
import dev.lancet.table.LanceTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Plans a batch or streaming write. An append is planned against the version the table was
 * loaded at (captured when Spark resolved the table, not at commit time); a truncate (Spark's
 * {@code mode("overwrite")}) replaces content and schema; a table that does not exist yet is
 * created by the commit.
 */
public final class LancetWriteBuilder implements WriteBuilder, SupportsTruncate {
  private final TableState state;
  private final LogicalWriteInfo info;
  private boolean truncate;

  public LancetWriteBuilder(TableState state, LogicalWriteInfo info) {
    this.state = state;
    this.info = info;
  }

  @Override
  public WriteBuilder truncate() {
    this.truncate = true;
    return this;
  }

  @Override
  public Write build() {
    return new Write() {
      @Override
      public String description() {
        return "lancet " + (truncate ? "overwrite " : "append ") + state.uri();
      }

      @Override
      public BatchWrite toBatch() {
        return new LancetBatchWrite(start("spark job " + info.queryId()), info.schema(),
            state.options().commitRetries());
      }

      @Override
      public StreamingWrite toStreaming() {
        if (truncate) {
          throw new UnsupportedOperationException("the Lancet streaming sink appends; use "
              + "outputMode(\"append\")");
        }
        return new LancetStreamingWrite(state, info);
      }
    };
  }

  /** Starts the distributed write on the driver. */
  JobCommit start(String what) {
    if (!state.exists()) {
      DistributedWrite w = DistributedWrite.create(state.uri(), SparkSchemas.toArrow(info.schema()),
          state.options().createOptions());
      return new JobCommit(w, () -> { }, what);
    }
    LanceTable table = state.open();
    try {
      DistributedWrite w = truncate
          ? table.newDistributedOverwrite(overwriteSchema(state.arrowSchema(), info.schema(),
              state.options().overwriteSchema()), state.options().createOptions())
          : table.newDistributedWrite(state.version().getAsLong(), state.options().createOptions(),
              List.of());
      return new JobCommit(w, table, what);
    } catch (RuntimeException e) {
      table.close();
      throw e;
    }
  }

  /**
   * The Arrow schema of an overwrite's data: a column whose name and Spark type match the
   * table's keeps the table's Lance type (a fixed-size list, an unsigned integer, a large string);
   * others take the Spark type's (always, with {@code overwriteSchema}).
   */
  static Schema overwriteSchema(Schema table, StructType data, boolean fromData) {
    List<Field> out = new ArrayList<>();
    for (StructField f : data.fields()) {
      Field old = null;
      for (Field t : table.getFields()) {
        if (t.getName().equalsIgnoreCase(f.name())) {
          old = t;
        }
      }
      if (!fromData && old != null
          && SparkSchemas.toSpark(old, old.getName()).dataType().equals(f.dataType())) {
        out.add(old);
      } else {
        out.add(SparkSchemas.toArrow(new StructType(new StructField[] {f})).getFields().get(0));
      }
    }
    return new Schema(out);
  }
}
