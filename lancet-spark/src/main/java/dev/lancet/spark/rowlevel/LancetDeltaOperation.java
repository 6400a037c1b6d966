package dev.lancet.spark.rowlevel;

import dev.lancet.spark.LancetSparkTable;
import dev.lancet.spark.TableState;
import dev.lancet.spark.read.LancetScanBuilder;
import dev.lancet.spark.write.JobCommit;
import dev.lancet.spark.write.LancetBatchWrite;
import dev.lancet.table.DistributedWrite;
import dev.lancet.table.LanceTable;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A row-level operation as a delta: Spark scans the table at its pinned version with
 * {@code _rowaddr}, and sends each task's deleted row addresses, updated rows and inserted rows
 * to a {@link LancetDeltaWriter}. The driver commits one composite operation planned against that
 * same version: a SetDeletionFile (or RemoveFragment) per touched fragment, the new rows as new
 * fragments, and, when the table has a primary key (lance-core's unenforced primary key, or the
 * {@code primaryKey} option), an AssertUniqueKeys over the keys written, so that two concurrent
 * MERGE INTO jobs inserting the same key cannot both commit (the second fails with a retryable
 * conflict; run it again). Concurrent deletes or updates of rows of one fragment conflict too.
 */
final class LancetDeltaOperation implements SupportsDelta {
  private final TableState state;
  private final StructType schema;
  private final Command command;

  LancetDeltaOperation(TableState state, StructType schema, Command command) {
    this.state = state;
    this.schema = schema;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public String description() {
    return "lancet " + command + " " + state.uri() + " @" + state.version().getAsLong();
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return new LancetScanBuilder(state.with(options), schema);
  }

  @Override
  public NamedReference[] rowId() {
    return new NamedReference[] {Expressions.column(LancetSparkTable.ROW_ADDR)};
  }

  @Override
  public NamedReference[] requiredMetadataAttributes() {
    return new NamedReference[0];
  }

  @Override
  public boolean representUpdateAsDeleteAndInsert() {
    return false;
  }

  @Override
  public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new DeltaWriteBuilder() {
      @Override
      public DeltaWrite build() {
        return new DeltaWrite() {
          @Override
          public DeltaBatchWrite toBatch() {
            return new Batch(start(info), info.schema(), state.options().commitRetries());
          }
        };
      }
    };
  }

  private JobCommit start(LogicalWriteInfo info) {
    List<String> keys = command == Command.DELETE ? List.of() : state.primaryKey();
    LanceTable table = state.open();
    try {
      DistributedWrite w = table.newDistributedWrite(state.version().getAsLong(),
          state.options().createOptions(), keys);
      return new JobCommit(w, table, "spark " + command + " " + info.queryId())
          .statement(command == Command.MERGE ? "merge into"
              : command.name().toLowerCase(java.util.Locale.ROOT));
    } catch (RuntimeException e) {
      table.close();
      throw e;
    }
  }

  private static final class Batch extends LancetBatchWrite implements DeltaBatchWrite {
    Batch(JobCommit job, StructType input, int retries) {
      super(job, input, retries);
    }

    @Override
    public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
      return new LancetDeltaWriterFactory(job.write().spec(), job.write().arrowSchema(), input);
    }
  }
}
