package dev.lancet.table;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The casts {@code alterColumns().cast} performs, within the type families lance-core allows
 * (upstream {@code is_upcast_downcast}: integers to integers, floats to floats, temporal to
 * temporal, strings and binaries between their normal and large forms, decimals to decimals,
 * fixed-size lists element-wise), each value checked: a value the target cannot hold (an
 * integer overflow, a decimal past its precision, a timestamp past the range of its new unit)
 * fails the cast, as lance-core's non-lossy ({@code safe: false}) casts do.
 */
final class Casts {
  private Casts() {}

  /** Whether lance-core would cast {@code from} to {@code to}, and Lancet implements it. */
  static boolean supported(ArrowType from, ArrowType to) {
    if (from.equals(to)) {
      return false;
    }
    return switch (from.getTypeID()) {
      case Int -> to instanceof ArrowType.Int;
      case FloatingPoint -> to instanceof ArrowType.FloatingPoint;
      case Utf8, LargeUtf8 -> to instanceof ArrowType.Utf8 || to instanceof ArrowType.LargeUtf8;
      case Binary, LargeBinary -> to instanceof ArrowType.Binary || to instanceof ArrowType.LargeBinary;
      case Decimal -> to instanceof ArrowType.Decimal;
      case Timestamp -> to instanceof ArrowType.Timestamp;
      case Date -> to instanceof ArrowType.Date;
      case Duration -> to instanceof ArrowType.Duration;
      default -> false;
    };
  }

  /** {@link #supported} for fields, fixed-size lists element-wise. */
  static boolean supported(Field from, Field to) {
    if (from.getType() instanceof ArrowType.FixedSizeList f
        && to.getType() instanceof ArrowType.FixedSizeList t) {
      Field fi = from.getChildren().get(0);
      Field ti = to.getChildren().get(0);
      return f.getListSize() == t.getListSize() && fi.getChildren().isEmpty()
          && ti.getChildren().isEmpty() && supported(fi.getType(), ti.getType());
    }
    return from.getChildren().isEmpty() && to.getChildren().isEmpty()
        && supported(from.getType(), to.getType());
  }

  /** A new vector of field {@code to} holding {@code from}'s values cast; the caller closes it. */
  static FieldVector cast(FieldVector from, Field to, BufferAllocator allocator, String column) {
    FieldVector out = to.createVector(allocator);
    try {
      int n = from.getValueCount();
      out.setInitialCapacity(n);
      out.allocateNew();
      castInto(from, out, n, column);
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  private static void castInto(FieldVector from, FieldVector to, int n, String column) {
    if (from instanceof FixedSizeListVector f && to instanceof FixedSizeListVector t) {
      int size = f.getListSize();
      for (int i = 0; i < n; i++) {
        if (f.isNull(i)) {
          t.setNull(i);
        } else {
          t.setNotNull(i);
        }
      }
      FieldVector data = t.getDataVector();
      data.setInitialCapacity(n * size);
      data.allocateNew();
      castInto(f.getDataVector(), data, n * size, column);
      data.setValueCount(n * size);
      return;
    }
    for (int i = 0; i < n; i++) {
      if (from.isNull(i)) {
        continue;
      }
      castValue(from, to, i, column);
    }
  }

  private static void castValue(FieldVector from, FieldVector to, int i, String column) {
    if (from instanceof BaseIntVector f && to instanceof BaseIntVector t) {
      ArrowType.Int ft = (ArrowType.Int) from.getField().getType();
      ArrowType.Int tt = (ArrowType.Int) to.getField().getType();
      long v = f.getValueAsLong(i);
      boolean hugeUnsigned = !ft.getIsSigned() && ft.getBitWidth() == 64 && v < 0;
      if (!fits(v, hugeUnsigned, tt)) {
        throw overflow(column, hugeUnsigned ? Long.toUnsignedString(v) : Long.toString(v), tt);
      }
      t.setWithPossibleTruncate(i, v);
    } else if (from instanceof FloatingPointVector f && to instanceof FloatingPointVector t) {
      // Float2Vector takes (and gives) only floats through the truncating accessors.
      double v = from instanceof org.apache.arrow.vector.Float2Vector h ? h.getValueAsFloat(i)
          : f.getValueAsDouble(i);
      if (to instanceof org.apache.arrow.vector.Float2Vector h) {
        h.setWithPossibleTruncate(i, (float) v);
      } else {
        t.setWithPossibleTruncate(i, v);
      }
    } else if (from instanceof VarCharVector f) {
      setBytes(to, i, f.get(i));
    } else if (from instanceof LargeVarCharVector f) {
      setBytes(to, i, f.get(i));
    } else if (from instanceof VarBinaryVector f) {
      setBytes(to, i, f.get(i));
    } else if (from instanceof LargeVarBinaryVector f) {
      setBytes(to, i, f.get(i));
    } else if (to instanceof DecimalVector || to instanceof Decimal256Vector) {
      BigDecimal v = from instanceof DecimalVector d ? d.getObject(i) : ((Decimal256Vector) from).getObject(i);
      ArrowType.Decimal tt = (ArrowType.Decimal) to.getField().getType();
      BigDecimal scaled = v.setScale(tt.getScale(), RoundingMode.HALF_UP);
      if (scaled.precision() > tt.getPrecision()) {
        throw overflow(column, v.toPlainString(), tt);
      }
      if (to instanceof DecimalVector d) {
        d.setSafe(i, scaled);
      } else {
        ((Decimal256Vector) to).setSafe(i, scaled);
      }
    } else if (from instanceof TimeStampVector f && to instanceof TimeStampVector t) {
      long v = rescale(f.get(i), unitOf(from), unitOf(to), column, to.getField().getType());
      t.setSafe(i, v);
    } else if (from instanceof DurationVector f && to instanceof DurationVector t) {
      long v = rescale(DurationVector.get(f.getDataBuffer(), i), unitOf(from), unitOf(to), column,
          to.getField().getType());
      t.setSafe(i, v);
    } else if (from instanceof DateDayVector f && to instanceof DateMilliVector t) {
      try {
        t.setSafe(i, Math.multiplyExact((long) f.get(i), 86_400_000L));
      } catch (ArithmeticException e) {
        throw overflow(column, Integer.toString(f.get(i)), to.getField().getType());
      }
    } else if (from instanceof DateMilliVector f && to instanceof DateDayVector t) {
      t.setSafe(i, Math.toIntExact(Math.floorDiv(f.get(i), 86_400_000L)));
    } else {
      throw new InvalidInputException("Lancet cannot cast column '" + column + "' from "
          + from.getField().getType() + " to " + to.getField().getType());
    }
  }

  private static void setBytes(FieldVector to, int i, byte[] b) {
    if (to instanceof VarCharVector t) {
      t.setSafe(i, b);
    } else if (to instanceof LargeVarCharVector t) {
      t.setSafe(i, b);
    } else if (to instanceof VarBinaryVector t) {
      t.setSafe(i, b);
    } else {
      ((LargeVarBinaryVector) to).setSafe(i, b);
    }
  }

  private static boolean fits(long v, boolean hugeUnsigned, ArrowType.Int t) {
    int bits = t.getBitWidth();
    if (hugeUnsigned) {
      return !t.getIsSigned() && bits == 64;
    }
    if (t.getIsSigned()) {
      return bits == 64 || (v >= -(1L << (bits - 1)) && v < (1L << (bits - 1)));
    }
    return v >= 0 && (bits == 64 || v < (1L << bits));
  }

  private static TimeUnit unitOf(FieldVector v) {
    ArrowType t = v.getField().getType();
    return t instanceof ArrowType.Timestamp ts ? ts.getUnit() : ((ArrowType.Duration) t).getUnit();
  }

  private static long rescale(long v, TimeUnit from, TimeUnit to, String column, ArrowType target) {
    long f = perSecond(from);
    long t = perSecond(to);
    try {
      return t >= f ? Math.multiplyExact(v, t / f) : v / (f / t);
    } catch (ArithmeticException e) {
      throw overflow(column, Long.toString(v), target);
    }
  }

  private static long perSecond(TimeUnit u) {
    return switch (u) {
      case SECOND -> 1L;
      case MILLISECOND -> 1_000L;
      case MICROSECOND -> 1_000_000L;
      case NANOSECOND -> 1_000_000_000L;
    };
  }

  private static InvalidInputException overflow(String column, String value, ArrowType target) {
    return new InvalidInputException("cannot cast column '" + column + "': the value " + value
        + " does not fit " + target + "; nothing was changed");
  }

}
