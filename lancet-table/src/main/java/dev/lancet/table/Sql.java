package dev.lancet.table;

import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.expr.BoundValueExpression;
import dev.lancet.table.expr.ExpressionException;
import dev.lancet.table.expr.Predicate;
import dev.lancet.table.expr.ValueExpression;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * SQL filters and values for the table API's statements, with the expression layer's errors as
 * {@link InvalidInputException}s that say which clause they are about (the expression error,
 * with its kind and position, is the cause).
 */
final class Sql {
  private Sql() {}

  static Predicate parseFilter(String sql, String clause) {
    try {
      return Predicate.parse(sql);
    } catch (ExpressionException e) {
      throw invalid(clause, sql, e);
    }
  }

  static BoundPredicate bindFilter(Predicate p, Schema schema, String clause) {
    try {
      return p.bind(schema);
    } catch (ExpressionException e) {
      throw invalid(clause, p.sql(), e);
    }
  }

  static BoundPredicate filter(String sql, Schema schema, String clause) {
    return bindFilter(parseFilter(sql, clause), schema, clause);
  }

  /** {@code sql} bound as the new value of a column of type {@code target} (SET col = sql). */
  static BoundValueExpression value(String sql, Schema schema, ArrowType target, String column) {
    String clause = "SET " + column + " = ...";
    try {
      return ValueExpression.parse(sql).bindAs(schema, target, column);
    } catch (ExpressionException e) {
      throw invalid(clause, sql, e);
    }
  }

  /** {@code sql} bound as the value of a new column {@code column} (its type the value's). */
  static BoundValueExpression value(String sql, Schema schema, String column) {
    String clause = "addColumns().sql(\"" + column + "\", ...)";
    try {
      return ValueExpression.parse(sql).bind(schema);
    } catch (ExpressionException e) {
      throw invalid(clause, sql, e);
    }
  }

  private static InvalidInputException invalid(String clause, String sql, ExpressionException e) {
    return new InvalidInputException(clause + " '" + dev.lancet.table.expr.ExprLimits.echo(sql)
        + "': " + e.getMessage(), e);
  }
}
