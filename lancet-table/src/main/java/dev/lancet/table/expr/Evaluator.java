package dev.lancet.table.expr;

import dev.lancet.table.expr.Expr.CompareOp;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Evaluates a {@link Bound} tree over one batch, a column at a time: each node runs one kernel
 * over whole arrays (dispatch is per node and batch, not per row). The hot shapes, a column
 * compared with a constant, AND/OR/NOT, IS NULL, IN over integers or strings and LIKE with a
 * literal prefix, are tight loops over primitive arrays and bitmaps.
 */
final class Evaluator {

  /** Supplies the columns of the batch being evaluated. */
  interface Batch {
    int rowCount();

    Values column(Bound.Column column);
  }

  private Evaluator() {}

  static Values eval(Bound b, Batch batch) {
    int n = batch.rowCount();
    if (b instanceof Bound.Column c) {
      return batch.column(c);
    }
    if (b instanceof Bound.Const c) {
      return broadcast(c.value(), n);
    }
    if (b instanceof Bound.Cast c) {
      return Casts.cast(eval(c.operand(), batch), c.type(), c.safe(), c.at());
    }
    if (b instanceof Bound.Compare c) {
      return compare(c, batch);
    }
    if (b instanceof Bound.And a) {
      return and((Values.Bools) bools(eval(a.left(), batch)), bools(eval(a.right(), batch)));
    }
    if (b instanceof Bound.Or o) {
      return or(bools(eval(o.left(), batch)), bools(eval(o.right(), batch)));
    }
    if (b instanceof Bound.Not x) {
      Values.Bools v = bools(eval(x.operand(), batch));
      long[] bits = new long[v.bits.length];
      for (int w = 0; w < bits.length; w++) {
        bits[w] = ~v.bits[w] & (v.valid == null ? -1L : v.valid[w]);
      }
      Values.clearTail(bits, n);
      return new Values.Bools(bits, n, v.valid);
    }
    if (b instanceof Bound.IsNull x) {
      Values v = eval(x.operand(), batch);
      long[] bits = new long[Values.words(n)];
      for (int w = 0; w < bits.length; w++) {
        long valid = v.valid == null ? -1L : v.valid[w];
        bits[w] = x.negated() ? valid : ~valid;
      }
      Values.clearTail(bits, n);
      return new Values.Bools(bits, n, null);
    }
    if (b instanceof Bound.IsBool x) {
      Values.Bools v = bools(eval(x.operand(), batch));
      long[] bits = new long[Values.words(n)];
      for (int w = 0; w < bits.length; w++) {
        long valid = v.valid == null ? -1L : v.valid[w];
        long match = x.value() ? v.bits[w] : valid & ~v.bits[w];
        bits[w] = x.negated() ? ~match : match;
      }
      Values.clearTail(bits, n);
      return new Values.Bools(bits, n, null);
    }
    if (b instanceof Bound.IsDistinct d) {
      return distinct(d, batch);
    }
    if (b instanceof Bound.InList in) {
      return InKernels.in(in, eval(in.operand(), batch));
    }
    if (b instanceof Bound.Like l) {
      return like(l, eval(l.operand(), batch));
    }
    if (b instanceof Bound.Arith a) {
      return Arith.eval(a, eval(a.left(), batch), eval(a.right(), batch));
    }
    if (b instanceof Bound.Negate x) {
      return Arith.negate(x, eval(x.operand(), batch));
    }
    if (b instanceof Bound.Concat c) {
      return concat(c, eval(c.left(), batch), eval(c.right(), batch));
    }
    if (b instanceof Bound.Call c) {
      List<Values> args = new ArrayList<>();
      for (Bound a : c.args()) {
        args.add(eval(a, batch));
      }
      return Functions.evaluate(c, args, n);
    }
    throw new IllegalStateException("no kernel for " + b);
  }

  private static Values.Bools bools(Values v) {
    if (v instanceof Values.Bools b) {
      return b;
    }
    // an all-null operand (NULL typed as boolean)
    return new Values.Bools(new long[Values.words(v.length)], v.length,
        new long[Values.words(v.length)]);
  }

  /** Kleene AND: false wins over null, null over true. */
  static Values.Bools and(Values.Bools a, Values.Bools b) {
    int n = a.length;
    long[] bits = new long[a.bits.length];
    long[] valid = new long[a.bits.length];
    for (int w = 0; w < bits.length; w++) {
      long va = a.valid == null ? -1L : a.valid[w];
      long vb = b.valid == null ? -1L : b.valid[w];
      bits[w] = a.bits[w] & b.bits[w];
      valid[w] = (va & vb) | (va & ~a.bits[w]) | (vb & ~b.bits[w]);
    }
    Values.clearTail(valid, n);
    return new Values.Bools(bits, n, a.valid == null && b.valid == null ? null : valid);
  }

  /** Kleene OR: true wins over null, null over false. */
  static Values.Bools or(Values.Bools a, Values.Bools b) {
    int n = a.length;
    long[] bits = new long[a.bits.length];
    long[] valid = new long[a.bits.length];
    for (int w = 0; w < bits.length; w++) {
      long va = a.valid == null ? -1L : a.valid[w];
      long vb = b.valid == null ? -1L : b.valid[w];
      bits[w] = a.bits[w] | b.bits[w];
      valid[w] = (va & vb) | a.bits[w] | b.bits[w];
    }
    Values.clearTail(valid, n);
    return new Values.Bools(bits, n, a.valid == null && b.valid == null ? null : valid);
  }

  // ---------------------------------------------------------------------------------------------
  // Comparisons
  // ---------------------------------------------------------------------------------------------

  private static Values compare(Bound.Compare c, Batch batch) {
    CompareOp op = c.op();
    if (c.right() instanceof Bound.Const k && !(c.left() instanceof Bound.Const)) {
      return compareConst(op, eval(c.left(), batch), k.value());
    }
    if (c.left() instanceof Bound.Const k && !(c.right() instanceof Bound.Const)) {
      return compareConst(op.flip(), eval(c.right(), batch), k.value());
    }
    Values l = eval(c.left(), batch);
    Values r = eval(c.right(), batch);
    int n = l.length;
    long[] valid = Values.and(l.valid, r.valid);
    long[] bits = new long[Values.words(n)];
    if (l instanceof Values.Dict d) {
      l = d.decode();
    }
    if (r instanceof Values.Dict d) {
      r = d.decode();
    }
    if (l instanceof Values.Longs a && r instanceof Values.Longs b) {
      int mode = intMode(a.type, b.type);
      for (int i = 0; i < n; i++) {
        if (op.test(compareLongs(a.v[i], b.v[i], mode))) {
          bits[i >>> 6] |= 1L << i;
        }
      }
    } else if (l instanceof Values.Doubles a && r instanceof Values.Doubles b) {
      for (int i = 0; i < n; i++) {
        if (op.test(compareDoubles(a.v[i], b.v[i]))) {
          bits[i >>> 6] |= 1L << i;
        }
      }
    } else {
      for (int i = 0; i < n; i++) {
        if (l.isValid(i) && r.isValid(i) && op.test(compareAt(l, i, r, i))) {
          bits[i >>> 6] |= 1L << i;
        }
      }
    }
    mask(bits, valid);
    return new Values.Bools(bits, n, valid);
  }

  /** 0: both signed-like, 1: both unsigned, 2: left unsigned / right signed, 3: the reverse. */
  static int intMode(ArrowType a, ArrowType b) {
    boolean ua = Types.isUnsignedInt(a);
    boolean ub = Types.isUnsignedInt(b);
    return ua == ub ? (ua ? 1 : 0) : (ua ? 2 : 3);
  }

  /** Exact comparison of two integers whatever their signedness. */
  static int compareLongs(long a, long b, int mode) {
    return switch (mode) {
      case 0 -> Long.compare(a, b);
      case 1 -> Long.compareUnsigned(a, b);
      case 2 -> a < 0 ? 1 : Long.compare(a, b);
      default -> b < 0 ? -1 : Long.compare(a, b);
    };
  }

  private static void mask(long[] bits, long[] valid) {
    if (valid != null) {
      for (int w = 0; w < bits.length; w++) {
        bits[w] &= valid[w];
      }
    }
  }

  /** A column compared with a non-null constant of its (compare) type. */
  static Values compareConst(CompareOp op, Values l, Scalar k) {
    int n = l.length;
    if (k.isNull()) {
      return nulls(Types.BOOL, n);
    }
    long[] bits = new long[Values.words(n)];
    if (l instanceof Values.Dict d) {
      // evaluate once per dictionary entry, then gather
      Values.Bools perEntry = (Values.Bools) compareConst(op, d.dictionary, k);
      for (int i = 0; i < n; i++) {
        if (d.isValid(i) && perEntry.get(d.indices[i])) {
          bits[i >>> 6] |= 1L << i;
        }
      }
      return new Values.Bools(bits, n, d.valid);
    }
    if (l instanceof Values.Longs a && Types.isLongBacked(k.type())
        && Types.isUnsignedInt(a.type) == Types.isUnsignedInt(k.type())) {
      long c = k.asLong();
      long[] v = a.v;
      if (Types.isUnsignedInt(a.type)) {
        // unsigned: flip the sign bit and compare signed
        c ^= Long.MIN_VALUE;
        long[] flipped = new long[n];
        for (int i = 0; i < n; i++) {
          flipped[i] = v[i] ^ Long.MIN_VALUE;
        }
        v = flipped;
      }
      signedConstLoop(op, v, c, bits, n);
    } else if (l instanceof Values.Longs a) {
      long c = k.asLong();
      int mode = intMode(a.type, k.type());
      for (int i = 0; i < n; i++) {
        if (op.test(compareLongs(a.v[i], c, mode))) {
          bits[i >>> 6] |= 1L << i;
        }
      }
    } else if (l instanceof Values.Doubles a) {
      double c = k.asDouble();
      double[] v = a.v;
      for (int i = 0; i < n; i++) {
        if (op.test(compareDoubles(v[i], c))) {
          bits[i >>> 6] |= 1L << i;
        }
      }
    } else if (l instanceof Values.Bytes a) {
      byte[] c = k.value() instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : k.asBytes();
      byte[] data = a.data;
      int[] off = a.offsets;
      if (op == CompareOp.EQ || op == CompareOp.NE) {
        boolean eq = op == CompareOp.EQ;
        for (int i = 0; i < n; i++) {
          int s = off[i];
          boolean same = off[i + 1] - s == c.length
              && Arrays.equals(data, s, s + c.length, c, 0, c.length);
          if (same == eq) {
            bits[i >>> 6] |= 1L << i;
          }
        }
      } else {
        for (int i = 0; i < n; i++) {
          if (op.test(Arrays.compareUnsigned(data, off[i], off[i + 1], c, 0, c.length))) {
            bits[i >>> 6] |= 1L << i;
          }
        }
      }
    } else {
      for (int i = 0; i < n; i++) {
        if (l.isValid(i) && op.test(compareScalar(scalarAt(l, i), k))) {
          bits[i >>> 6] |= 1L << i;
        }
      }
    }
    mask(bits, l.valid);
    return new Values.Bools(bits, n, l.valid);
  }

  /**
   * Sets bit i of {@code bits} where {@code v[i] op c}, a word at a time: the 64 results of a
   * word are gathered in a register and stored once (a read-modify-write of the word per row
   * costs several times the comparison).
   */
  private static void signedConstLoop(CompareOp op, long[] v, long c, long[] bits, int n) {
    for (int w = 0, base = 0; base < n; w++, base += 64) {
      int len = Math.min(64, n - base);
      long acc = 0;
      switch (op) {
        case EQ -> {
          for (int j = 0; j < len; j++) {
            acc |= (v[base + j] == c ? 1L : 0L) << j;
          }
        }
        case NE -> {
          for (int j = 0; j < len; j++) {
            acc |= (v[base + j] != c ? 1L : 0L) << j;
          }
        }
        case LT -> {
          for (int j = 0; j < len; j++) {
            acc |= (v[base + j] < c ? 1L : 0L) << j;
          }
        }
        case LE -> {
          for (int j = 0; j < len; j++) {
            acc |= (v[base + j] <= c ? 1L : 0L) << j;
          }
        }
        case GT -> {
          for (int j = 0; j < len; j++) {
            acc |= (v[base + j] > c ? 1L : 0L) << j;
          }
        }
        case GE -> {
          for (int j = 0; j < len; j++) {
            acc |= (v[base + j] >= c ? 1L : 0L) << j;
          }
        }
      }
      bits[w] = acc;
    }
  }

  /**
   * IEEE 754 totalOrder, as arrow-rs compares floats (Rust's {@code f64::total_cmp}): -NaN <
   * -inf < ... < -0.0 < 0.0 < ... < inf < NaN, NaN equals NaN of the same sign, -0.0 is not 0.0.
   * Unlike {@link Double#compare} the sign of a NaN counts: 0.0 / 0 yields a negative NaN on
   * x86, which sorts below every number (lance-core: {@code f64 / 0 > 0} is false where f64 is
   * 0).
   */
  static int compareDoubles(double a, double b) {
    long x = Double.doubleToRawLongBits(a);
    long y = Double.doubleToRawLongBits(b);
    x ^= (x >> 63) >>> 1;
    y ^= (y >> 63) >>> 1;
    return Long.compare(x, y);
  }

  /** Three-way comparison of row {@code i} of {@code a} with row {@code j} of {@code b}. */
  static int compareAt(Values a, int i, Values b, int j) {
    return compareScalar(scalarAt(a, i), scalarAt(b, j));
  }

  /** Compares two non-null scalars of one compare domain. */
  static int compareScalar(Scalar a, Scalar b) {
    Object x = a.value();
    Object y = b.value();
    if (x instanceof Long l && y instanceof Long m) {
      return compareLongs(l, m, intMode(a.type(), b.type()));
    }
    if (x instanceof Double d && y instanceof Double e) {
      return compareDoubles(d, e);
    }
    if (x instanceof BigDecimal d && y instanceof BigDecimal e) {
      return d.compareTo(e);
    }
    if (x instanceof Boolean p && y instanceof Boolean q) {
      return Boolean.compare(p, q);
    }
    byte[] p = x instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) x;
    byte[] q = y instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) y;
    return Arrays.compareUnsigned(p, q);
  }

  private static Values distinct(Bound.IsDistinct d, Batch batch) {
    Values l = eval(d.left(), batch);
    Values r = eval(d.right(), batch);
    int n = l.length;
    long[] bits = new long[Values.words(n)];
    for (int i = 0; i < n; i++) {
      boolean lv = l.isValid(i);
      boolean rv = r.isValid(i);
      boolean distinct = lv != rv || (lv && compareAt(l, i, r, i) != 0);
      if (distinct != d.negated()) {
        bits[i >>> 6] |= 1L << i;
      }
    }
    return new Values.Bools(bits, n, null);
  }

  // ---------------------------------------------------------------------------------------------
  // LIKE, ||
  // ---------------------------------------------------------------------------------------------

  private static Values like(Bound.Like l, Values in) {
    int n = in.length;
    long[] bits = new long[Values.words(n)];
    LikePattern p = l.pattern();
    boolean want = !l.negated();
    if (in instanceof Values.Dict d) {
      Values.Bools perEntry = (Values.Bools) like(l, d.dictionary);
      for (int i = 0; i < n; i++) {
        if (d.isValid(i) && perEntry.get(d.indices[i])) {
          bits[i >>> 6] |= 1L << i;
        }
      }
      return new Values.Bools(bits, n, d.valid);
    }
    Values.Bytes s = (Values.Bytes) in;
    byte[] data = s.data;
    int[] off = s.offsets;
    for (int i = 0; i < n; i++) {
      if (p.matches(data, off[i], off[i + 1]) == want) {
        bits[i >>> 6] |= 1L << i;
      }
    }
    mask(bits, s.valid);
    return new Values.Bools(bits, n, s.valid);
  }

  private static Values concat(Bound.Concat c, Values l, Values r) {
    int n = l.length;
    Values.Bytes a = l instanceof Values.Dict d ? d.decode() : (Values.Bytes) l;
    Values.Bytes b = r instanceof Values.Dict d ? d.decode() : (Values.Bytes) r;
    Values.Builder out = Values.Builder.of(c.type(), n);
    for (int i = 0; i < n; i++) {
      if (!a.isValid(i) || !b.isValid(i)) {
        out.appendNull();
      } else {
        out.append(new Scalar(c.type(), a.string(i) + b.string(i)));
      }
    }
    return out.build();
  }

  // ---------------------------------------------------------------------------------------------
  // Scalars and columns
  // ---------------------------------------------------------------------------------------------

  /** A column of {@code n} nulls of {@code type}. */
  static Values nulls(ArrowType type, int n) {
    Values.Builder b = Values.Builder.of(type, n);
    for (int i = 0; i < n; i++) {
      b.appendNull();
    }
    return b.build();
  }

  /** {@code s} repeated {@code n} times. */
  static Values broadcast(Scalar s, int n) {
    if (s.isNull()) {
      return nulls(s.type(), n);
    }
    ArrowType t = s.type();
    if (Types.isLongBacked(t)) {
      long[] v = new long[n];
      Arrays.fill(v, s.asLong());
      return new Values.Longs(t, v, n, null);
    }
    if (Types.isFloat(t)) {
      double[] v = new double[n];
      Arrays.fill(v, s.asDouble());
      return new Values.Doubles(t, v, n, null);
    }
    if (Types.isBool(t)) {
      long[] bits = s.asBoolean() ? Values.allValid(n) : new long[Values.words(n)];
      return new Values.Bools(bits, n, null);
    }
    Values.Builder b = Values.Builder.of(t, n);
    for (int i = 0; i < n; i++) {
      b.append(s);
    }
    return b.build();
  }

  /** Row {@code i} of {@code v} as a scalar (null if the row is null). */
  static Scalar scalarAt(Values v, int i) {
    if (!v.isValid(i)) {
      return Scalar.nullOf(v.type);
    }
    if (v instanceof Values.Longs l) {
      return Scalar.ofLong(v.type, l.v[i]);
    }
    if (v instanceof Values.Doubles d) {
      return new Scalar(v.type, d.v[i]);
    }
    if (v instanceof Values.Bools b) {
      return new Scalar(Types.BOOL, b.get(i));
    }
    if (v instanceof Values.Decimals d) {
      return new Scalar(v.type, d.v[i]);
    }
    if (v instanceof Values.Bytes b) {
      return new Scalar(v.type, Types.isString(v.type) ? b.string(i) : b.bytes(i));
    }
    if (v instanceof Values.Dict d) {
      return new Scalar(v.type, d.dictionary.string(d.indices[i]));
    }
    throw new IllegalStateException("no scalar form for " + Types.describe(v.type));
  }
}
