package dev.lancet.table.expr;

import dev.lancet.table.expr.Expr.ArithOp;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * DataFusion's implicit conversions for operands that Lance's literal resolution left alone
 * (comparison and arithmetic coercion in {@code datafusion-expr-common}'s {@code
 * type_coercion::binary}), restricted to the pairs whose result Lancet reproduces exactly.
 */
final class Coercion {

  private Coercion() {}

  /** Casts the operands of a comparison to one comparable type. */
  static Bound[] comparable(Bound l, Bound r, String what, Position at) {
    ArrowType a = l.type();
    ArrowType b = r.type();
    if (Types.isInt(a) && Types.isInt(b)) {
      // exact integer comparison across widths and signedness: no cast needed
      return new Bound[] {l, r};
    }
    if (isOpaque(a) || isOpaque(b)) {
      Bound s = isOpaque(a) ? l : r;
      throw ExpressionException.type(s.at(), "cannot compare a " + Types.describe(s.type())
          + " with " + what + ": compare its fields, or test it with IS NULL");
    }
    ArrowType t = commonType(a, b, what, at);
    return new Bound[] {Binder.fold(castTo(l, t)), Binder.fold(castTo(r, t))};
  }

  private static boolean isOpaque(ArrowType t) {
    return t instanceof ArrowType.Struct || t instanceof ArrowType.FixedSizeList
        || t instanceof ArrowType.List || t instanceof ArrowType.LargeList;
  }

  static Bound castTo(Bound b, ArrowType t) {
    if (b.type().equals(t)) {
      return b;
    }
    return Binder.fold(new Bound.Cast(b, t, false, b.at()));
  }

  /** The type two operands meet at, or a TYPE error naming both. */
  static ArrowType commonType(ArrowType a, ArrowType b, String what, Position at) {
    if (Types.isNull(a)) {
      return b;
    }
    if (Types.isNull(b) || a.equals(b)) {
      return a;
    }
    if (Types.isInt(a) && Types.isInt(b)) {
      ArrowType t = commonInt(a, b);
      if (t == null) {
        throw ExpressionException.type(at, "cannot combine " + Types.describe(a) + " and "
            + Types.describe(b) + " in " + what + " (no integer type holds both): CAST one side");
      }
      return t;
    }
    if (Types.isNumeric(a) && Types.isNumeric(b)) {
      if (Types.isFloat(a) || Types.isFloat(b)) {
        boolean f64 = (Types.isFloat(a) && !Types.isFloat32(a))
            || (Types.isFloat(b) && !Types.isFloat32(b)) || Types.isDecimal(a)
            || Types.isDecimal(b);
        return f64 ? Types.FLOAT64 : Types.FLOAT32;
      }
      // decimals (and integers meeting decimals): exact, at the larger scale
      int scale = Math.max(scaleOf(a), scaleOf(b));
      return Types.decimal(38, scale);
    }
    if (Types.isString(a) && Types.isString(b)) {
      return Types.LARGE_UTF8;
    }
    if (Types.isBinary(a) && Types.isBinary(b)) {
      return new ArrowType.LargeBinary();
    }
    if (Types.isDate(a) && Types.isDate(b)) {
      return Types.DATE64;
    }
    if (a instanceof ArrowType.Timestamp x && b instanceof ArrowType.Timestamp y) {
      TimeUnit unit = x.getUnit().ordinal() <= y.getUnit().ordinal() ? x.getUnit() : y.getUnit();
      String zone = x.getTimezone() != null ? x.getTimezone() : y.getTimezone();
      return Types.timestamp(unit, zone);
    }
    if (Types.isDate(a) && Types.isTimestamp(b)) {
      return b;
    }
    if (Types.isTimestamp(a) && Types.isDate(b)) {
      return a;
    }
    throw ExpressionException.type(at, "cannot compare " + Types.describe(a) + " with "
        + Types.describe(b) + " in " + what + hintFor(a, b));
  }

  private static String hintFor(ArrowType a, ArrowType b) {
    ArrowType other = Types.isString(a) ? b : Types.isString(b) ? a : null;
    if (other == null) {
      return ": CAST one side to the other's type";
    }
    if (Types.isDate(other)) {
      return ": write a date literal, date '2024-01-02'";
    }
    if (Types.isTimestamp(other)) {
      return ": write a timestamp literal, timestamp '2024-01-02 03:04:05'";
    }
    return ": Lancet does not compare text with " + Types.describe(other)
        + " implicitly; CAST one side";
  }

  private static int scaleOf(ArrowType t) {
    return t instanceof ArrowType.Decimal d ? d.getScale() : 0;
  }

  /** DataFusion's integer widening; null for uint64 against a signed type. */
  static ArrowType commonInt(ArrowType a, ArrowType b) {
    ArrowType.Int x = (ArrowType.Int) a;
    ArrowType.Int y = (ArrowType.Int) b;
    if (x.getIsSigned() == y.getIsSigned()) {
      return new ArrowType.Int(Math.max(x.getBitWidth(), y.getBitWidth()), x.getIsSigned());
    }
    ArrowType.Int u = x.getIsSigned() ? y : x;
    ArrowType.Int s = x.getIsSigned() ? x : y;
    if (u.getBitWidth() == 64) {
      return null;
    }
    return new ArrowType.Int(Math.max(s.getBitWidth(), u.getBitWidth() * 2), true);
  }

  /** Binds {@code l op r} with DataFusion's arithmetic coercion. */
  static Bound arith(ArithOp op, Bound l, Bound r, Position at) {
    ArrowType a = l.type();
    ArrowType b = r.type();
    if (Types.isNull(a) || Types.isNull(b)) {
      ArrowType t = Types.isNull(a) ? b : a;
      if (!Types.isNull(t) && !Types.isNumeric(t)) {
        throw ExpressionException.type(at, "'" + op.symbol() + "' needs numbers, got "
            + Types.describe(t));
      }
      return new Bound.Const(Scalar.nullOf(t), at);
    }
    for (Bound x : new Bound[] {l, r}) {
      if (!Types.isNumeric(x.type())) {
        String hint = Types.isTemporal(x.type())
            ? "date and time arithmetic is not supported in Lance filters"
            : Types.isString(x.type()) ? "join strings with ||" : "";
        throw ExpressionException.type(x.at(), "'" + op.symbol() + "' needs numbers, got "
            + Types.describe(x.type()) + (hint.isEmpty() ? "" : " (" + hint + ")"));
      }
    }
    if (Types.isInt(a) && Types.isInt(b)) {
      ArrowType t = commonInt(a, b);
      if (t == null) {
        throw ExpressionException.type(at, "cannot combine " + Types.describe(a) + " and "
            + Types.describe(b) + " with '" + op.symbol() + "': CAST one side");
      }
      return new Bound.Arith(op, castTo(l, t), castTo(r, t), t, at);
    }
    if (Types.isFloat(a) || Types.isFloat(b)) {
      ArrowType t = commonType(a, b, "'" + op.symbol() + "'", at);
      return new Bound.Arith(op, castTo(l, t), castTo(r, t), t, at);
    }
    // decimal arithmetic
    if (op == ArithOp.DIV || op == ArithOp.MOD) {
      throw ExpressionException.unsupported("decimal '" + op.symbol() + "'", at,
          "CAST the decimal AS DOUBLE to divide");
    }
    ArrowType.Decimal x = asDecimal(a);
    ArrowType.Decimal y = asDecimal(b);
    int p1 = x.getPrecision();
    int s1 = x.getScale();
    int p2 = y.getPrecision();
    int s2 = y.getScale();
    ArrowType.Decimal t;
    if (op == ArithOp.MUL) {
      t = Types.decimal(Math.min(38, p1 + p2 + 1), s1 + s2);
    } else {
      int scale = Math.max(s1, s2);
      t = Types.decimal(Math.min(38, Math.max(p1 - s1, p2 - s2) + scale + 1), scale);
    }
    return new Bound.Arith(op, castTo(l, x), castTo(r, y), t, at);
  }

  /** An integer type as the decimal that holds it (DataFusion: int32 is decimal(10, 0)). */
  private static ArrowType.Decimal asDecimal(ArrowType t) {
    if (t instanceof ArrowType.Decimal d) {
      return d;
    }
    int digits = switch (Types.bitWidth(t)) {
      case 8 -> 3;
      case 16 -> 5;
      case 32 -> 10;
      default -> 20;
    };
    return Types.decimal(digits, 0);
  }

  static String castHint(ArrowType from, ArrowType to) {
    if (Types.isFloat(from) && Types.isString(to)) {
      return "Lancet does not render floats as text (lance-core's formatting differs from "
          + "Java's)";
    }
    if (Types.isTimestamp(from) && Types.isString(to)) {
      return "compare with a timestamp literal instead of text";
    }
    if (from instanceof ArrowType.Timestamp f && f.getTimezone() != null
        && to instanceof ArrowType.Timestamp) {
      return "a zoned timestamp cannot be made naive; compare it with a timestamp literal";
    }
    return "";
  }
}
