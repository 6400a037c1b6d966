package dev.lancet.table.expr;

import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Whether a bound expression can give null, by DataFusion's rules as lance-core applies them
 * when it derives a new column's nullability from its SQL expression: a column as its schema
 * says (nullable if any level of a nested path is), a constant if it is NULL, an operator if any
 * operand is, IS [NOT] NULL / IS [NOT] TRUE / IS [NOT] DISTINCT FROM never, a safe cast and a
 * function call always (DataFusion's default for a function's result).
 */
final class Nullability {
  private Nullability() {}

  static boolean of(Bound b, Schema schema) {
    if (b instanceof Bound.Column c) {
      return column(c.path(), schema);
    } else if (b instanceof Bound.Const c) {
      return c.value().isNull();
    } else if (b instanceof Bound.Cast c) {
      return c.safe() || of(c.operand(), schema);
    } else if (b instanceof Bound.Negate n) {
      return of(n.operand(), schema);
    } else if (b instanceof Bound.Arith a) {
      return of(a.left(), schema) || of(a.right(), schema);
    } else if (b instanceof Bound.Concat c) {
      return of(c.left(), schema) || of(c.right(), schema);
    } else if (b instanceof Bound.Compare c) {
      return of(c.left(), schema) || of(c.right(), schema);
    } else if (b instanceof Bound.And a) {
      return of(a.left(), schema) || of(a.right(), schema);
    } else if (b instanceof Bound.Or o) {
      return of(o.left(), schema) || of(o.right(), schema);
    } else if (b instanceof Bound.Not n) {
      return of(n.operand(), schema);
    } else if (b instanceof Bound.IsNull || b instanceof Bound.IsBool
        || b instanceof Bound.IsDistinct) {
      return false;
    } else if (b instanceof Bound.InList l) {
      return l.hasNull() || of(l.operand(), schema);
    } else if (b instanceof Bound.Like l) {
      return of(l.operand(), schema);
    }
    return true; // a function call, and anything new: nullable is the safe answer
  }

  private static boolean column(List<String> path, Schema schema) {
    List<Field> level = schema.getFields();
    for (String name : path) {
      Field found = null;
      for (Field f : level) {
        if (f.getName().equals(name)) {
          found = f;
          break;
        }
      }
      if (found == null || found.isNullable()) {
        return true;
      }
      level = found.getChildren();
    }
    return false;
  }
}
