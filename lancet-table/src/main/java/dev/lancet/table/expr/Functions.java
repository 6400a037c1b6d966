package dev.lancet.table.expr;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The scalar functions Lancet evaluates, each one lance-core 7.0.0's filter accepts with the same
 * result (DataFusion's function library; names are case-sensitive there, and here):
 *
 * <ul>
 *   <li>{@code lower(s)}, {@code upper(s)}: Unicode case mapping.
 *   <li>{@code length(s)}, {@code char_length(s)}, {@code character_length(s)}: characters (code
 *       points); int32 for utf8, int64 for large_utf8.
 *   <li>{@code octet_length(s)}: bytes.
 *   <li>{@code abs(n)}: same type; overflow (the minimum of a signed type) is an error.
 *   <li>{@code starts_with(s, prefix)}, {@code ends_with(s, suffix)}: boolean.
 *   <li>{@code coalesce(a, b, ...)}: the first non-null argument.
 *   <li>{@code is_valid(x)}: {@code x IS NOT NULL} (a Lance spelling, kept for compatibility).
 * </ul>
 *
 * lance-core refuses {@code TRIM}, {@code SUBSTRING}/{@code SUBSTR}, {@code CEIL} and {@code
 * FLOOR} (its SQL parser reads them as special syntax); so does Lancet.
 */
final class Functions {

  enum Fn {
    LOWER,
    UPPER,
    CHAR_LENGTH,
    OCTET_LENGTH,
    ABS,
    STARTS_WITH,
    ENDS_WITH,
    COALESCE
  }

  static final List<String> NAMES =
      List.of(
          "lower", "upper", "length", "char_length", "character_length", "octet_length", "abs",
          "starts_with", "ends_with", "coalesce", "is_valid");

  private Functions() {}

  static Fn lookup(String name) {
    return switch (name) {
      case "lower" -> Fn.LOWER;
      case "upper" -> Fn.UPPER;
      case "length", "char_length", "character_length" -> Fn.CHAR_LENGTH;
      case "octet_length" -> Fn.OCTET_LENGTH;
      case "abs" -> Fn.ABS;
      case "starts_with" -> Fn.STARTS_WITH;
      case "ends_with" -> Fn.ENDS_WITH;
      case "coalesce" -> Fn.COALESCE;
      default -> null;
    };
  }

  static Values evaluate(Bound.Call call, List<Values> args, int n) {
    return switch (call.fn()) {
      case LOWER, UPPER -> caseMap(call, bytes(args.get(0)), n);
      case CHAR_LENGTH, OCTET_LENGTH -> length(call, bytes(args.get(0)), n);
      case ABS -> abs(call, args.get(0), n);
      case STARTS_WITH, ENDS_WITH -> affix(call, bytes(args.get(0)), bytes(args.get(1)), n);
      case COALESCE -> coalesce(call, args, n);
    };
  }

  private static Values.Bytes bytes(Values v) {
    return v instanceof Values.Dict d ? d.decode() : (Values.Bytes) v;
  }

  private static Values caseMap(Bound.Call call, Values.Bytes in, int n) {
    Values.Builder b = Values.Builder.of(call.type(), n);
    boolean lower = call.fn() == Fn.LOWER;
    for (int i = 0; i < n; i++) {
      if (!in.isValid(i)) {
        b.appendNull();
      } else {
        String s = in.string(i);
        b.append(new Scalar(call.type(),
            lower ? s.toLowerCase(Locale.ROOT) : s.toUpperCase(Locale.ROOT)));
      }
    }
    return b.build();
  }

  private static Values length(Bound.Call call, Values.Bytes in, int n) {
    long[] out = new long[n];
    boolean chars = call.fn() == Fn.CHAR_LENGTH;
    for (int i = 0; i < n; i++) {
      if (in.isValid(i)) {
        int s = in.offsets[i];
        int e = in.offsets[i + 1];
        if (chars) {
          int count = 0;
          for (int k = s; k < e; k++) {
            // count bytes that start a UTF-8 sequence
            if ((in.data[k] & 0xC0) != 0x80) {
              count++;
            }
          }
          out[i] = count;
        } else {
          out[i] = e - s;
        }
      }
    }
    return new Values.Longs(call.type(), out, n, in.valid);
  }

  private static Values abs(Bound.Call call, Values in, int n) {
    ArrowType t = call.type();
    if (in instanceof Values.Longs l) {
      if (Types.isUnsignedInt(t)) {
        return l;
      }
      long min = Long.MIN_VALUE >> (64 - Types.bitWidth(t));
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        long x = l.v[i];
        if (x == min && in.isValid(i)) {
          throw ExpressionException.evaluation(call.at(),
              "abs(" + x + ") overflows " + Types.describe(t));
        }
        out[i] = Math.abs(x);
      }
      return new Values.Longs(t, out, n, in.valid);
    }
    if (in instanceof Values.Doubles d) {
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        out[i] = Math.abs(d.v[i]);
      }
      return new Values.Doubles(t, out, n, in.valid);
    }
    Values.Decimals d = (Values.Decimals) in;
    BigDecimal[] out = new BigDecimal[n];
    for (int i = 0; i < n; i++) {
      out[i] = d.v[i] == null ? null : d.v[i].abs();
    }
    return new Values.Decimals(t, out, n, in.valid);
  }

  private static Values affix(Bound.Call call, Values.Bytes s, Values.Bytes p, int n) {
    long[] bits = new long[Values.words(n)];
    long[] valid = Values.and(s.valid, p.valid);
    boolean start = call.fn() == Fn.STARTS_WITH;
    for (int i = 0; i < n; i++) {
      if (!s.isValid(i) || !p.isValid(i)) {
        continue;
      }
      int ss = s.offsets[i];
      int se = s.offsets[i + 1];
      int ps = p.offsets[i];
      int pl = p.offsets[i + 1] - ps;
      if (se - ss < pl) {
        continue;
      }
      int from = start ? ss : se - pl;
      boolean eq = true;
      for (int k = 0; k < pl && eq; k++) {
        eq = s.data[from + k] == p.data[ps + k];
      }
      if (eq) {
        bits[i >>> 6] |= 1L << i;
      }
    }
    return new Values.Bools(bits, n, valid);
  }

  private static Values coalesce(Bound.Call call, List<Values> args, int n) {
    Values.Builder b = Values.Builder.of(call.type(), n);
    for (int i = 0; i < n; i++) {
      Scalar found = null;
      for (Values a : args) {
        if (a.isValid(i)) {
          found = Evaluator.scalarAt(a, i);
          break;
        }
      }
      if (found == null) {
        b.appendNull();
      } else {
        b.append(new Scalar(call.type(), found.value()));
      }
    }
    return b.build();
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
