package dev.lancet.table.expr;

import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A parsed SQL value expression ({@code x * 2 + 1}, {@code lower(name)}), the right side of
 * {@code UPDATE ... SET col = expr}; not yet bound to a schema.
 */
public final class ValueExpression {

  private final String sql;
  private final Expr expr;

  private ValueExpression(String sql, Expr expr) {
    this.sql = sql;
    this.expr = expr;
  }

  /** @throws ExpressionException (kind SYNTAX or UNSUPPORTED) */
  public static ValueExpression parse(String sql) {
    return new ValueExpression(sql, SqlTranslator.parseValue(sql));
  }

  public String sql() {
    return sql;
  }

  public Expr expr() {
    return expr;
  }

  /** @throws ExpressionException (kind UNKNOWN_COLUMN, TYPE or UNSUPPORTED) */
  public BoundValueExpression bind(Schema schema) {
    Objects.requireNonNull(schema, "schema");
    return new BoundValueExpression(sql, schema, Binder.bindValue(expr, schema));
  }

  @Override
  public String toString() {
    return sql;
  }
}
