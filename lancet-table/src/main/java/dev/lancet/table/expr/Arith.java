package dev.lancet.table.expr;

import dev.lancet.table.expr.Expr.ArithOp;
import java.math.BigDecimal;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Arithmetic kernels with DataFusion's semantics: integer {@code + - *} and unary minus wrap
 * around in the result type (DataFusion's default, no overflow check); integer {@code /}
 * truncates toward zero and {@code %} takes the dividend's sign; an integer division or modulo by
 * zero is an error ("Divide by zero", as lance-core reports it), as is the one overflowing
 * division {@code MIN / -1}. Floats follow IEEE 754 (x / 0 is an infinity or NaN). Decimals are
 * exact; their {@code /} and {@code %} are refused when binding.
 */
final class Arith {

  private Arith() {}

  static Values eval(Bound.Arith a, Values l, Values r) {
    ArrowType t = a.type();
    int n = l.length;
    long[] valid = Values.and(l.valid, r.valid);
    if (Types.isInt(t)) {
      long[] x = ((Values.Longs) l).v;
      long[] y = ((Values.Longs) r).v;
      long[] out = new long[n];
      int width = Types.bitWidth(t);
      boolean unsigned = Types.isUnsignedInt(t);
      switch (a.op()) {
        case ADD -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] + y[i];
          }
        }
        case SUB -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] - y[i];
          }
        }
        case MUL -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] * y[i];
          }
        }
        case DIV, MOD -> {
          boolean div = a.op() == ArithOp.DIV;
          long min = Long.MIN_VALUE >> (64 - width);
          for (int i = 0; i < n; i++) {
            if (valid != null && (valid[i >>> 6] & (1L << i)) == 0) {
              continue;
            }
            long d = y[i];
            if (d == 0) {
              throw ExpressionException.evaluation(a.at(), "Divide by zero error in "
                  + (div ? "'/'" : "'%'") + " (the divisor is 0 in at least one row;"
                  + " lance-core fails the same way)");
            }
            if (unsigned && width == 64) {
              out[i] = div ? Long.divideUnsigned(x[i], d) : Long.remainderUnsigned(x[i], d);
            } else {
              if (!unsigned && x[i] == min && d == -1) {
                throw ExpressionException.evaluation(a.at(), "overflow in " + x[i]
                    + (div ? " / " : " % ") + "-1 (" + Types.describe(t) + ")");
              }
              out[i] = div ? x[i] / d : x[i] % d;
            }
          }
        }
      }
      wrap(out, width, unsigned);
      return new Values.Longs(t, out, n, valid);
    }
    if (Types.isFloat(t)) {
      double[] x = ((Values.Doubles) l).v;
      double[] y = ((Values.Doubles) r).v;
      double[] out = new double[n];
      switch (a.op()) {
        case ADD -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] + y[i];
          }
        }
        case SUB -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] - y[i];
          }
        }
        case MUL -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] * y[i];
          }
        }
        case DIV -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] / y[i];
          }
        }
        case MOD -> {
          for (int i = 0; i < n; i++) {
            out[i] = x[i] % y[i];
          }
        }
      }
      if (Types.isFloat32(t)) {
        // float32 arithmetic: an exact double result rounded to float is the float result
        for (int i = 0; i < n; i++) {
          out[i] = (float) out[i];
        }
      }
      return new Values.Doubles(t, out, n, valid);
    }
    // decimals
    ArrowType.Decimal d = (ArrowType.Decimal) t;
    BigDecimal[] x = ((Values.Decimals) l).v;
    BigDecimal[] y = ((Values.Decimals) r).v;
    BigDecimal[] out = new BigDecimal[n];
    for (int i = 0; i < n; i++) {
      if (x[i] == null || y[i] == null || (valid != null && (valid[i >>> 6] & (1L << i)) == 0)) {
        continue;
      }
      BigDecimal v = switch (a.op()) {
        case ADD -> x[i].add(y[i]);
        case SUB -> x[i].subtract(y[i]);
        case MUL -> x[i].multiply(y[i]);
        default -> throw new IllegalStateException("decimal " + a.op());
      };
      Scalar s = Casts.decimal(v, d);
      if (s == null) {
        throw ExpressionException.evaluation(a.at(), "decimal overflow: " + v + " does not fit "
            + Types.describe(t));
      }
      out[i] = s.asDecimal();
    }
    return new Values.Decimals(t, out, n, valid);
  }

  static Values negate(Bound.Negate x, Values in) {
    ArrowType t = x.type();
    int n = in.length;
    if (in instanceof Values.Longs l) {
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        out[i] = -l.v[i];
      }
      wrap(out, Types.bitWidth(t), false);
      return new Values.Longs(t, out, n, in.valid);
    }
    if (in instanceof Values.Doubles d) {
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        out[i] = -d.v[i];
      }
      return new Values.Doubles(t, out, n, in.valid);
    }
    Values.Decimals d = (Values.Decimals) in;
    BigDecimal[] out = new BigDecimal[n];
    for (int i = 0; i < n; i++) {
      out[i] = d.v[i] == null ? null : d.v[i].negate();
    }
    return new Values.Decimals(t, out, n, in.valid);
  }

  /** Reduces 64-bit results to {@code width} bits, two's complement (wrapping). */
  static void wrap(long[] v, int width, boolean unsigned) {
    if (width == 64) {
      return;
    }
    int shift = 64 - width;
    if (unsigned) {
      long m = (1L << width) - 1;
      for (int i = 0; i < v.length; i++) {
        v[i] &= m;
      }
    } else {
      for (int i = 0; i < v.length; i++) {
        v[i] = (v[i] << shift) >> shift;
      }
    }
  }
}
