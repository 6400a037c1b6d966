package dev.lancet.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code format("lancet")}: a Lance table by URI.
 *
 * <pre>{@code
 * spark.read().format("lancet").option("version", 3).load("/data/events");
 * df.write().format("lancet").mode("append").save("/data/events");
 * }</pre>
 *
 * Options: {@link LancetOptions}. A write to a path with no table creates it.
 */
public final class LancetDataSource implements TableProvider, DataSourceRegister {
  @Override
  public String shortName() {
    return "lancet";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    LancetOptions o = new LancetOptions(options.asCaseSensitiveMap());
    TableState state = TableState.load(o.path(), o);
    if (!state.exists()) {
      throw new IllegalArgumentException("no Lance table at " + o.path()
          + " (it has no _versions/ directory)");
    }
    return SparkSchemas.toSpark(state.arrowSchema());
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    if (partitioning.length > 0) {
      throw new UnsupportedOperationException("Lance tables are not partitioned; drop partitionBy");
    }
    LancetOptions o = new LancetOptions(properties);
    TableState state = TableState.load(o.path(), o);
    if (!state.exists()) {
      return new LancetSparkTable(o.path(), state, schema);
    }
    StructType table = SparkSchemas.toSpark(state.arrowSchema());
    // A write passes the data's schema; the table keeps its own unless the names differ (an
    // overwrite with new columns).
    return new LancetSparkTable(o.path(), state, sameNames(table, schema) ? table : schema);
  }

  private static boolean sameNames(StructType a, StructType b) {
    if (a.fields().length != b.fields().length) {
      return false;
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    for (String n : a.fieldNames()) {
      names.add(n.toLowerCase(java.util.Locale.ROOT));
    }
    for (String n : b.fieldNames()) {
      if (!names.contains(n.toLowerCase(java.util.Locale.ROOT))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }
}
