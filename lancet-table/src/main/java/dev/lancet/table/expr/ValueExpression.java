package dev.lancet.table.expr;

import java.util.Objects;
import org.apache.arrow.vector.types.pojo.ArrowType;
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

  /**
   * Binds the expression as the new value of a column of type {@code target} ({@code UPDATE ...
   * SET column = expr}): a value of another type is cast to it as lance-core's update does
   * (DataFusion's cast, failing on a value that does not convert, such as an overflow).
   *
   * @throws ExpressionException (kind TYPE when no cast between the types exists)
   */
  public BoundValueExpression bindAs(Schema schema, ArrowType target, String column) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(target, "target");
    Bound b = Binder.bindValue(expr, schema);
    if (!b.type().equals(target)) {
      if (!Casts.supported(b.type(), target)) {
        throw ExpressionException.type(expr.at(), "column '" + column + "' is "
            + Types.describe(target) + ", but the value is " + Types.describe(b.type())
            + ", which does not convert to it; CAST it, or change the column's type");
      }
      b = Binder.fold(new Bound.Cast(b, target, false, expr.at()));
    }
    return new BoundValueExpression(sql, schema, b);
  }

  @Override
  public String toString() {
    return sql;
  }
}
