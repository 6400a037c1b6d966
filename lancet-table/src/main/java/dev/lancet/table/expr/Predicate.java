package dev.lancet.table.expr;

import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A parsed SQL filter with Lance's semantics, not yet bound to a schema. Parse once, bind to each
 * schema the filter runs against, evaluate per batch:
 *
 * <pre>{@code
 * BoundPredicate p = Predicate.parse("id % 10 = 0 AND name LIKE 'a%'").bind(schema);
 * RoaringBitmap rows = p.selection(batch); // offsets of the rows the filter keeps
 * }</pre>
 */
public final class Predicate {

  private final String sql;
  private final Expr expr;

  private Predicate(String sql, Expr expr) {
    this.sql = sql;
    this.expr = expr;
  }

  /**
   * Parses {@code sql}.
   *
   * @throws ExpressionException (kind SYNTAX or UNSUPPORTED) naming the construct and column
   */
  public static Predicate parse(String sql) {
    return new Predicate(sql, SqlTranslator.parseFilter(sql));
  }

  public String sql() {
    return sql;
  }

  /** The parsed tree (for inspection and tests). */
  public Expr expr() {
    return expr;
  }

  /**
   * Resolves names against {@code schema} (the schema of the batches it will see; a
   * dictionary-encoded field must carry its encoding), infers types and applies Lance's coercion.
   *
   * @throws ExpressionException (kind UNKNOWN_COLUMN, TYPE or UNSUPPORTED)
   */
  public BoundPredicate bind(Schema schema) {
    Objects.requireNonNull(schema, "schema");
    return new BoundPredicate(sql, schema, Binder.bindFilter(expr, schema));
  }

  @Override
  public String toString() {
    return sql;
  }
}
