package dev.lancet.table.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Conversions between the supported types, as arrow-rs' {@code cast} does them under
 * DataFusion's {@code CAST} (not safe: a value that does not convert is an error; {@code
 * TRY_CAST} makes it null). Conversions whose result Lancet cannot reproduce exactly (a float or
 * timestamp rendered as text, a zoned timestamp made naive) are refused when binding.
 */
final class Casts {

  private static final long MS_PER_DAY = 86_400_000L;
  private static final long SECONDS_PER_DAY = 86_400L;
  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "^(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[T ](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?"
              + "\\s*(Z|z|[+-]\\d{2}(?::?\\d{2})?)?$");
  private static final Pattern DATE = Pattern.compile("^(\\d{4})-(\\d{1,2})-(\\d{1,2})$");
  private static final Pattern FLOAT =
      Pattern.compile("^[+-]?(\\d+\\.?\\d*([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?|inf|infinity|nan)$",
          Pattern.CASE_INSENSITIVE);

  private Casts() {}

  /** Whether Lancet converts {@code from} to {@code to}; else the binder refuses the cast. */
  static boolean supported(ArrowType from, ArrowType to) {
    if (from.equals(to) || Types.isNull(from)) {
      return true;
    }
    if (Types.isInt(from) || Types.isBool(from)) {
      return Types.isNumeric(to) || Types.isString(to) || Types.isBool(to);
    }
    if (Types.isFloat(from)) {
      return Types.isNumeric(to) || Types.isBool(to);
    }
    if (Types.isDecimal(from)) {
      return Types.isNumeric(to) || Types.isString(to);
    }
    if (Types.isString(from)) {
      return Types.isNumeric(to) || Types.isString(to) || Types.isTemporal(to)
          || Types.isBinary(to);
    }
    if (Types.isBinary(from)) {
      return Types.isBinary(to);
    }
    if (Types.isDate(from)) {
      return Types.isTemporal(to) || Types.isString(to);
    }
    if (from instanceof ArrowType.Timestamp f) {
      if (to instanceof ArrowType.Timestamp t) {
        return f.getTimezone() == null || t.getTimezone() != null;
      }
      return Types.isDate(to);
    }
    return false;
  }

  /** Converts every row of {@code in} to {@code to}. */
  static Values cast(Values in, ArrowType to, boolean safe, Position at) {
    ArrowType from = in.type;
    int n = in.length;
    if (from.equals(to)) {
      return in;
    }
    if (Types.isNull(from)) {
      return Evaluator.nulls(to, n);
    }
    if (in instanceof Values.Dict d) {
      return cast(d.decode(), to, safe, at);
    }
    Conversion c = new Conversion(from, to, safe, at, n, in.valid);
    if (in instanceof Values.Longs l && Types.isInt(from)) {
      if (Types.isInt(to)) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
          if (in.isValid(i)) {
            if (fitsInt(l.v[i], Types.isUnsignedInt(from), to)) {
              out[i] = l.v[i];
            } else {
              c.fail(i, Types.isUnsignedInt(from) ? Long.toUnsignedString(l.v[i]) : "" + l.v[i]);
            }
          }
        }
        return new Values.Longs(to, out, n, c.valid());
      }
      if (Types.isLongBacked(to)) {
        throw new IllegalStateException("unsupported cast " + from + " -> " + to);
      }
      // via a boxed scalar per row: ints to float/decimal/string/bool are rare in filters
    }
    if (in instanceof Values.Longs ls && Types.isTemporal(from)) {
      return temporal(ls, to, c);
    }
    if (in instanceof Values.Doubles d && Types.isFloat(to)) {
      double[] out = new double[n];
      boolean f32 = Types.isFloat32(to);
      for (int i = 0; i < n; i++) {
        out[i] = f32 ? (double) (float) d.v[i] : d.v[i];
      }
      return new Values.Doubles(to, out, n, in.valid);
    }
    if (in instanceof Values.Longs l && Types.isFloat(to)) {
      double[] out = new double[n];
      boolean f32 = Types.isFloat32(to);
      boolean unsigned = Types.isUnsignedInt(from);
      for (int i = 0; i < n; i++) {
        double x = unsigned ? unsignedToDouble(l.v[i]) : (double) l.v[i];
        out[i] = f32 ? (float) (unsigned ? unsignedToFloat(l.v[i]) : (float) l.v[i]) : x;
      }
      return new Values.Doubles(to, out, n, in.valid);
    }
    // The general path: one value at a time.
    Values.Builder b = Values.Builder.of(to, n);
    for (int i = 0; i < n; i++) {
      if (!in.isValid(i)) {
        b.appendNull();
        continue;
      }
      Scalar s = Evaluator.scalarAt(in, i);
      Scalar r = convert(s, to, at);
      if (r == null) {
        if (!safe) {
          throw ExpressionException.evaluation(at, "cannot cast " + describeValue(s) + " to "
              + Types.describe(to) + " (use TRY_CAST to get NULL instead)");
        }
        b.appendNull();
      } else {
        b.append(r);
      }
    }
    return b.build();
  }

  private static String describeValue(Scalar s) {
    Object v = s.value();
    if (v instanceof String str) {
      return "string '" + str + "'";
    }
    if (Types.isUnsignedInt(s.type())) {
      return Types.describe(s.type()) + " " + Long.toUnsignedString(s.asLong());
    }
    return Types.describe(s.type()) + " " + v;
  }

  /** Tracks failed rows of one conversion. */
  private static final class Conversion {
    final ArrowType from;
    final ArrowType to;
    final boolean safe;
    final Position at;
    final int n;
    long[] valid;

    Conversion(ArrowType from, ArrowType to, boolean safe, Position at, int n, long[] valid) {
      this.from = from;
      this.to = to;
      this.safe = safe;
      this.at = at;
      this.n = n;
      this.valid = valid;
    }

    void fail(int i, String value) {
      if (!safe) {
        throw ExpressionException.evaluation(at, "cannot cast " + Types.describe(from) + " "
            + value + " to " + Types.describe(to) + ": out of range (use TRY_CAST to get NULL"
            + " instead)");
      }
      valid = Values.setBitOff(valid == null ? null : valid.clone(), n, i);
    }

    long[] valid() {
      return valid;
    }
  }

  private static Values temporal(Values.Longs in, ArrowType to, Conversion c) {
    int n = in.length;
    long[] out = new long[n];
    ArrowType from = in.type;
    for (int i = 0; i < n && !Types.isString(to); i++) {
      if (!in.isValid(i)) {
        continue;
      }
      Long r = temporal(in.v[i], from, to);
      if (r == null) {
        c.fail(i, String.valueOf(in.v[i]));
      } else {
        out[i] = r;
      }
    }
    if (Types.isString(to)) {
      // dates as ISO text
      Values.Builder b = Values.Builder.of(to, n);
      for (int i = 0; i < n; i++) {
        if (!in.isValid(i)) {
          b.appendNull();
        } else {
          long days = Types.isDate(from) && ((ArrowType.Date) from).getUnit() == DateUnit.DAY
              ? in.v[i] : Math.floorDiv(in.v[i], MS_PER_DAY);
          b.append(new Scalar(to, LocalDate.ofEpochDay(days).toString()));
        }
      }
      return b.build();
    }
    return new Values.Longs(to, out, n, c.valid());
  }

  /** A date or timestamp value in {@code from} as {@code to}, or null if it overflows. */
  static Long temporal(long v, ArrowType from, ArrowType to) {
    try {
      if (from instanceof ArrowType.Date fd) {
        long days = fd.getUnit() == DateUnit.DAY ? v : v / MS_PER_DAY;
        long ms = fd.getUnit() == DateUnit.DAY ? Math.multiplyExact(v, MS_PER_DAY) : v;
        if (to instanceof ArrowType.Date td) {
          return td.getUnit() == DateUnit.DAY ? days : ms;
        }
        if (to instanceof ArrowType.Timestamp tt) {
          // midnight UTC, whatever the zone (arrow-rs does not shift dates)
          long secondsMs = fd.getUnit() == DateUnit.DAY ? Math.multiplyExact(v, MS_PER_DAY) : v;
          return scale(secondsMs, 1_000L, Types.perSecond(tt.getUnit()));
        }
        return null;
      }
      ArrowType.Timestamp ft = (ArrowType.Timestamp) from;
      long per = Types.perSecond(ft.getUnit());
      if (to instanceof ArrowType.Timestamp tt) {
        long value = v;
        if (ft.getTimezone() == null && tt.getTimezone() != null) {
          value = localToUtc(v, per, ZoneId.of(tt.getTimezone()));
        }
        return scale(value, per, Types.perSecond(tt.getUnit()));
      }
      if (to instanceof ArrowType.Date td) {
        long local = v;
        if (ft.getTimezone() != null) {
          local = utcToLocal(v, per, ZoneId.of(ft.getTimezone()));
        }
        long days = Math.floorDiv(local, per * SECONDS_PER_DAY);
        return td.getUnit() == DateUnit.DAY ? days : days * MS_PER_DAY;
      }
      return null;
    } catch (ArithmeticException e) {
      return null;
    }
  }

  /** {@code v} in units of {@code 1/fromPer} s as units of {@code 1/toPer} s (truncating). */
  static long scale(long v, long fromPer, long toPer) {
    if (fromPer == toPer) {
      return v;
    }
    if (fromPer < toPer) {
      return Math.multiplyExact(v, toPer / fromPer);
    }
    return v / (fromPer / toPer);
  }

  /** A wall-clock time in {@code zone} (units of 1/per s) as UTC (arrow-rs: naive to zoned). */
  static long localToUtc(long v, long per, ZoneId zone) {
    long seconds = Math.floorDiv(v, per);
    long frac = Math.floorMod(v, per);
    LocalDateTime local = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    long utc = local.atZone(zone).toEpochSecond();
    return Math.addExact(Math.multiplyExact(utc, per), frac);
  }

  static long utcToLocal(long v, long per, ZoneId zone) {
    long seconds = Math.floorDiv(v, per);
    long frac = Math.floorMod(v, per);
    int offset = zone.getRules().getOffset(java.time.Instant.ofEpochSecond(seconds))
        .getTotalSeconds();
    return Math.addExact(Math.multiplyExact(seconds + offset, per), frac);
  }

  static boolean fitsInt(long v, boolean fromUnsigned, ArrowType to) {
    ArrowType.Int t = (ArrowType.Int) to;
    int w = t.getBitWidth();
    if (fromUnsigned && v < 0) {
      // above 2^63
      return !t.getIsSigned() && w == 64;
    }
    if (t.getIsSigned()) {
      return w == 64 || (v >= -(1L << (w - 1)) && v < (1L << (w - 1)));
    }
    return v >= 0 && (w == 64 || v < (1L << w));
  }

  static double unsignedToDouble(long v) {
    return v >= 0 ? (double) v : new BigInteger(Long.toUnsignedString(v)).doubleValue();
  }

  static float unsignedToFloat(long v) {
    return v >= 0 ? (float) v : new BigInteger(Long.toUnsignedString(v)).floatValue();
  }

  /** One value converted, or null if it does not convert. */
  static Scalar convert(Scalar s, ArrowType to, Position at) {
    ArrowType from = s.type();
    if (s.isNull()) {
      return Scalar.nullOf(to);
    }
    if (from.equals(to)) {
      return s;
    }
    Object v = s.value();
    if (Types.isBool(from)) {
      if (Types.isString(to)) {
        return new Scalar(to, s.asBoolean() ? "true" : "false");
      }
      return convert(Scalar.ofLong(Types.INT64, s.asBoolean() ? 1 : 0), to, at);
    }
    if (Types.isInt(from)) {
      boolean unsigned = Types.isUnsignedInt(from);
      long x = s.asLong();
      BigInteger big = unsigned ? new BigInteger(Long.toUnsignedString(x)) : BigInteger.valueOf(x);
      if (Types.isInt(to)) {
        return fitsInt(x, unsigned, to) ? Scalar.ofLong(to, x) : null;
      }
      if (Types.isFloat(to)) {
        return new Scalar(to, Types.isFloat32(to) ? (double) big.floatValue() : big.doubleValue());
      }
      if (to instanceof ArrowType.Decimal d) {
        return decimal(new BigDecimal(big), d);
      }
      if (Types.isString(to)) {
        return new Scalar(to, big.toString());
      }
      if (Types.isBool(to)) {
        return new Scalar(to, x != 0);
      }
      return null;
    }
    if (Types.isFloat(from)) {
      double x = s.asDouble();
      if (Types.isFloat(to)) {
        return new Scalar(to, Types.isFloat32(to) ? (double) (float) x : x);
      }
      if (Types.isInt(to)) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
          return null;
        }
        BigInteger t = new BigDecimal(x).toBigInteger();
        if (t.bitLength() > 64 || (t.signum() >= 0 && t.bitLength() == 64 && Types.isSignedInt(to))) {
          return null;
        }
        if (t.signum() < 0 && t.bitLength() >= 64) {
          return null;
        }
        long l = t.longValue();
        boolean asUnsigned = t.signum() >= 0 && t.bitLength() == 64;
        return fitsInt(l, asUnsigned, to) ? Scalar.ofLong(to, l) : null;
      }
      if (to instanceof ArrowType.Decimal d) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
          return null;
        }
        double scaled = x * Math.pow(10, d.getScale());
        double rounded = Math.signum(scaled) * Math.floor(Math.abs(scaled) + 0.5);
        return decimal(new BigDecimal(rounded).movePointLeft(d.getScale()), d);
      }
      if (Types.isBool(to)) {
        return new Scalar(to, x != 0);
      }
      return null;
    }
    if (Types.isDecimal(from)) {
      BigDecimal x = s.asDecimal();
      if (to instanceof ArrowType.Decimal d) {
        return decimal(x, d);
      }
      if (Types.isFloat(to)) {
        return new Scalar(to, Types.isFloat32(to) ? (double) x.floatValue() : x.doubleValue());
      }
      if (Types.isInt(to)) {
        BigInteger t = x.toBigInteger();
        if (t.bitLength() > 64) {
          return null;
        }
        boolean asUnsigned = t.signum() >= 0 && t.bitLength() == 64;
        if (t.bitLength() == 64 && !asUnsigned) {
          return null;
        }
        return fitsInt(t.longValue(), asUnsigned, to) ? Scalar.ofLong(to, t.longValue()) : null;
      }
      if (Types.isString(to)) {
        return new Scalar(to, x.toPlainString());
      }
      return null;
    }
    if (Types.isString(from)) {
      String str = (String) v;
      if (Types.isString(to)) {
        return new Scalar(to, str);
      }
      if (Types.isBinary(to)) {
        return new Scalar(to, str.getBytes(StandardCharsets.UTF_8));
      }
      if (Types.isInt(to)) {
        try {
          BigInteger t = new BigInteger(str);
          if (t.bitLength() > 64 || (t.signum() < 0 && t.bitLength() == 64)) {
            return null;
          }
          boolean asUnsigned = t.signum() >= 0 && t.bitLength() == 64;
          return fitsInt(t.longValue(), asUnsigned, to) ? Scalar.ofLong(to, t.longValue()) : null;
        } catch (NumberFormatException e) {
          return null;
        }
      }
      if (Types.isFloat(to)) {
        if (!FLOAT.matcher(str).matches()) {
          return null;
        }
        String lower = str.toLowerCase(java.util.Locale.ROOT);
        double x;
        if (lower.endsWith("inf") || lower.endsWith("infinity")) {
          x = lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        } else if (lower.endsWith("nan")) {
          x = Double.NaN;
        } else {
          x = Double.parseDouble(str);
        }
        return new Scalar(to, Types.isFloat32(to) ? (double) (float) x : x);
      }
      if (to instanceof ArrowType.Decimal d) {
        try {
          return decimal(new BigDecimal(str.strip()), d);
        } catch (NumberFormatException e) {
          return null;
        }
      }
      if (to instanceof ArrowType.Date d) {
        Matcher m = DATE.matcher(str.strip());
        if (!m.matches()) {
          return null;
        }
        try {
          long days = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3))).toEpochDay();
          return Scalar.ofLong(to, d.getUnit() == DateUnit.DAY ? days : days * MS_PER_DAY);
        } catch (java.time.DateTimeException e) {
          return null;
        }
      }
      if (to instanceof ArrowType.Timestamp t) {
        Long value = parseTimestamp(str.strip(), t);
        return value == null ? null : Scalar.ofLong(to, value);
      }
      return null;
    }
    if (Types.isBinary(from) && Types.isBinary(to)) {
      return new Scalar(to, v);
    }
    if (Types.isTemporal(from)) {
      if (Types.isString(to) && Types.isDate(from)) {
        long days = ((ArrowType.Date) from).getUnit() == DateUnit.DAY
            ? s.asLong() : Math.floorDiv(s.asLong(), MS_PER_DAY);
        return new Scalar(to, LocalDate.ofEpochDay(days).toString());
      }
      Long r = temporal(s.asLong(), from, to);
      return r == null ? null : Scalar.ofLong(to, r);
    }
    return null;
  }

  /**
   * arrow-rs' timestamp text: {@code YYYY-MM-DD}, optionally {@code [T ]HH:MM[:SS[.fraction]]}
   * and a zone suffix ({@code Z}, {@code +02:00}). Without a suffix the text is wall-clock time
   * in the target's zone (UTC for a naive target); with one it is that instant.
   */
  static Long parseTimestamp(String text, ArrowType.Timestamp target) {
    Matcher m = TIMESTAMP.matcher(text);
    if (!m.matches()) {
      return null;
    }
    try {
      LocalDateTime local =
          LocalDateTime.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)),
              m.group(4) == null ? 0 : Integer.parseInt(m.group(4)),
              m.group(5) == null ? 0 : Integer.parseInt(m.group(5)),
              m.group(6) == null ? 0 : Integer.parseInt(m.group(6)));
      long nanos = 0;
      if (m.group(7) != null) {
        String f = (m.group(7) + "000000000").substring(0, 9);
        nanos = Long.parseLong(f);
      }
      long seconds;
      String zone = m.group(8);
      if (zone != null) {
        ZoneOffset off = zone.equalsIgnoreCase("Z") ? ZoneOffset.UTC : ZoneOffset.of(
            zone.length() == 3 ? zone + ":00" : zone.length() == 5
                ? zone.substring(0, 3) + ":" + zone.substring(3) : zone);
        seconds = local.toEpochSecond(off);
      } else if (target.getTimezone() != null) {
        seconds = local.atZone(ZoneId.of(target.getTimezone())).toEpochSecond();
      } else {
        seconds = local.toEpochSecond(ZoneOffset.UTC);
      }
      long per = Types.perSecond(target.getUnit());
      return Math.addExact(Math.multiplyExact(seconds, per), nanos / (1_000_000_000L / per));
    } catch (java.time.DateTimeException | ArithmeticException e) {
      return null;
    }
  }

  /** {@code x} at decimal type {@code d}'s scale (half away from zero), or null if too wide. */
  static Scalar decimal(BigDecimal x, ArrowType.Decimal d) {
    BigDecimal scaled = x.setScale(d.getScale(), RoundingMode.HALF_UP);
    if (scaled.precision() - scaled.scale() > d.getPrecision() - d.getScale()
        && scaled.signum() != 0) {
      return null;
    }
    return new Scalar(d, scaled);
  }
}
