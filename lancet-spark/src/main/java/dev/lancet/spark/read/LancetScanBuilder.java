package dev.lancet.spark.read;

import dev.lancet.spark.LancetSparkTable;
import dev.lancet.spark.SparkSchemas;
import dev.lancet.spark.TableState;
import dev.lancet.table.expr.ExpressionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Plans a read: the columns Spark needs (metadata columns included), and the predicates the
 * table API can evaluate with Spark's meaning ({@link FilterTranslator}). Every predicate is
 * still handed back to Spark to re-apply after the scan: pushing only saves rows.
 */
public final class LancetScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns,
    SupportsPushDownV2Filters {
  private final TableState state;
  private final StructType tableSchema;
  private StructType required;
  private final List<Predicate> pushed = new ArrayList<>();
  private final List<String> pushedSql = new ArrayList<>();

  public LancetScanBuilder(TableState state, StructType tableSchema) {
    this.state = state;
    this.tableSchema = tableSchema;
    this.required = tableSchema;
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    this.required = requiredSchema;
  }

  @Override
  public Predicate[] pushPredicates(Predicate[] predicates) {
    Schema arrow = state.arrowSchema();
    FilterTranslator t = new FilterTranslator(arrow);
    for (Predicate p : predicates) {
      Optional<String> sql = t.translate(p);
      if (sql.isPresent() && binds(sql.get(), arrow)) {
        pushed.add(p);
        pushedSql.add(sql.get());
      }
    }
    return predicates;
  }

  private static boolean binds(String sql, Schema arrow) {
    try {
      dev.lancet.table.expr.Predicate.parse(sql).bind(arrow);
      return true;
    } catch (ExpressionException e) {
      return false;
    }
  }

  @Override
  public Predicate[] pushedPredicates() {
    return pushed.toArray(new Predicate[0]);
  }

  @Override
  public Scan build() {
    List<String> columns = new ArrayList<>();
    boolean rowId = false;
    boolean rowAddr = false;
    for (StructField f : required.fields()) {
      if (f.name().equals(LancetSparkTable.ROW_ID)) {
        rowId = true;
      } else if (f.name().equals(LancetSparkTable.ROW_ADDR)) {
        rowAddr = true;
      } else {
        columns.add(f.name());
      }
    }
    // The filter's columns are always among the required ones: Spark re-applies every predicate.
    Optional<String> filter = pushedSql.isEmpty() ? Optional.empty()
        : Optional.of(String.join(" AND ", pushedSql.stream().map(s -> "(" + s + ")").toList()));
    List<StructField> read = new ArrayList<>();
    Schema arrow = state.arrowSchema();
    for (String c : columns) {
      Field f = arrow.findField(c);
      read.add(SparkSchemas.toSpark(f, c));
    }
    if (rowId) {
      read.add(new StructField(LancetSparkTable.ROW_ID, org.apache.spark.sql.types.DataTypes.LongType,
          false, org.apache.spark.sql.types.Metadata.empty()));
    }
    if (rowAddr) {
      read.add(new StructField(LancetSparkTable.ROW_ADDR, org.apache.spark.sql.types.DataTypes.LongType,
          false, org.apache.spark.sql.types.Metadata.empty()));
    }
    return new LancetScan(state, columns, rowId, rowAddr, filter,
        new StructType(read.toArray(new StructField[0])));
  }
}
