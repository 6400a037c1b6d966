package dev.lancet.spark;

import dev.lancet.spark.read.LancetScanBuilder;
import dev.lancet.spark.rowlevel.LancetRowLevelOperationBuilder;
import dev.lancet.spark.write.LancetWriteBuilder;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.catalog.SupportsMetadataColumns;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsRowLevelOperations;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RowLevelOperationBuilder;
import org.apache.spark.sql.connector.write.RowLevelOperationInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Lance table as Spark sees it, pinned at the version resolved when Spark loaded it
 * ({@link TableState}): reads (columnar, pruned, filtered, {@code _rowid}/{@code _rowaddr}),
 * batch and streaming writes, and row-level DELETE / UPDATE / MERGE.
 */
public final class LancetSparkTable implements SupportsRead, SupportsWrite,
    SupportsMetadataColumns, SupportsRowLevelOperations {
  public static final String ROW_ID = "_rowid";
  public static final String ROW_ADDR = "_rowaddr";

  private final String name;
  private final TableState state;
  private final StructType schema;

  /** {@code schema}: the table's, or for a table a write will create, the data's. */
  public LancetSparkTable(String name, TableState state, StructType schema) {
    this.name = name;
    this.state = state;
    this.schema = schema;
  }

  public static LancetSparkTable of(String name, TableState state) {
    return new LancetSparkTable(name, state, SparkSchemas.toSpark(state.arrowSchema()));
  }

  public TableState state() {
    return state;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return schema;
  }

  @Override
  public Map<String, String> properties() {
    return Map.of("provider", "lancet", "location", state.uri(),
        "version", state.version().isPresent() ? Long.toString(state.version().getAsLong()) : "");
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE,
        TableCapability.TRUNCATE, TableCapability.STREAMING_WRITE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    requireExists();
    return new LancetScanBuilder(state.with(options), schema);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    if (state.timeTravel()) {
      throw new UnsupportedOperationException("table " + name + " was loaded at an older version "
          + "(version, tag or timestamp given); write to the newest version instead");
    }
    return new LancetWriteBuilder(state.with(info.options()), info);
  }

  @Override
  public RowLevelOperationBuilder newRowLevelOperationBuilder(RowLevelOperationInfo info) {
    requireExists();
    if (state.timeTravel()) {
      throw new UnsupportedOperationException("table " + name + " was loaded at an older version; "
          + "row-level operations change the newest version");
    }
    return new LancetRowLevelOperationBuilder(state.with(info.options()), schema, info);
  }

  @Override
  public MetadataColumn[] metadataColumns() {
    return new MetadataColumn[] {
        metadata(ROW_ID, "the row's stable row id (its row address without stable row ids)"),
        metadata(ROW_ADDR, "fragment id << 32 | physical offset")};
  }

  private static MetadataColumn metadata(String name, String comment) {
    return new MetadataColumn() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public DataType dataType() {
        return DataTypes.LongType;
      }

      @Override
      public boolean isNullable() {
        return false;
      }

      @Override
      public String comment() {
        return comment;
      }
    };
  }

  private void requireExists() {
    if (!state.exists()) {
      throw new IllegalStateException("no Lance table at " + state.uri());
    }
  }
}
