package dev.lancet.table.expr;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Classification of the Arrow types expressions work on, and their names in messages. */
final class Types {

  static final ArrowType BOOL = ArrowType.Bool.INSTANCE;
  static final ArrowType INT8 = new ArrowType.Int(8, true);
  static final ArrowType INT16 = new ArrowType.Int(16, true);
  static final ArrowType INT32 = new ArrowType.Int(32, true);
  static final ArrowType INT64 = new ArrowType.Int(64, true);
  static final ArrowType UINT8 = new ArrowType.Int(8, false);
  static final ArrowType UINT16 = new ArrowType.Int(16, false);
  static final ArrowType UINT32 = new ArrowType.Int(32, false);
  static final ArrowType UINT64 = new ArrowType.Int(64, false);
  static final ArrowType FLOAT32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;
  static final ArrowType LARGE_UTF8 = ArrowType.LargeUtf8.INSTANCE;
  static final ArrowType BINARY = ArrowType.Binary.INSTANCE;
  static final ArrowType DATE32 = new ArrowType.Date(DateUnit.DAY);
  static final ArrowType DATE64 = new ArrowType.Date(DateUnit.MILLISECOND);
  static final ArrowType NULL = ArrowType.Null.INSTANCE;

  private Types() {}

  static boolean isNull(ArrowType t) {
    return t instanceof ArrowType.Null;
  }

  static boolean isInt(ArrowType t) {
    return t instanceof ArrowType.Int;
  }

  static boolean isSignedInt(ArrowType t) {
    return t instanceof ArrowType.Int i && i.getIsSigned();
  }

  static boolean isUnsignedInt(ArrowType t) {
    return t instanceof ArrowType.Int i && !i.getIsSigned();
  }

  static int bitWidth(ArrowType t) {
    return ((ArrowType.Int) t).getBitWidth();
  }

  static boolean isFloat(ArrowType t) {
    return t instanceof ArrowType.FloatingPoint f
        && f.getPrecision() != FloatingPointPrecision.HALF;
  }

  static boolean isFloat32(ArrowType t) {
    return t instanceof ArrowType.FloatingPoint f
        && f.getPrecision() == FloatingPointPrecision.SINGLE;
  }

  static boolean isDecimal(ArrowType t) {
    return t instanceof ArrowType.Decimal d && d.getBitWidth() == 128;
  }

  static boolean isNumeric(ArrowType t) {
    return isInt(t) || isFloat(t) || isDecimal(t);
  }

  static boolean isString(ArrowType t) {
    return t instanceof ArrowType.Utf8 || t instanceof ArrowType.LargeUtf8;
  }

  static boolean isBinary(ArrowType t) {
    return t instanceof ArrowType.Binary || t instanceof ArrowType.LargeBinary;
  }

  static boolean isBytes(ArrowType t) {
    return isString(t) || isBinary(t);
  }

  static boolean isBool(ArrowType t) {
    return t instanceof ArrowType.Bool;
  }

  static boolean isDate(ArrowType t) {
    return t instanceof ArrowType.Date;
  }

  static boolean isTimestamp(ArrowType t) {
    return t instanceof ArrowType.Timestamp;
  }

  static boolean isTemporal(ArrowType t) {
    return isDate(t) || isTimestamp(t);
  }

  /** Types whose values live in a {@code long} per row in the evaluator. */
  static boolean isLongBacked(ArrowType t) {
    return isInt(t) || isDate(t) || isTimestamp(t);
  }

  static ArrowType.Timestamp timestamp(TimeUnit unit, String zone) {
    return new ArrowType.Timestamp(unit, zone);
  }

  static ArrowType.Decimal decimal(int precision, int scale) {
    return new ArrowType.Decimal(precision, scale, 128);
  }

  /** Units per second of a timestamp unit. */
  static long perSecond(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> 1L;
      case MILLISECOND -> 1_000L;
      case MICROSECOND -> 1_000_000L;
      case NANOSECOND -> 1_000_000_000L;
    };
  }

  /** The type as people write it in messages: {@code int32}, {@code timestamp[us, UTC]}. */
  static String describe(ArrowType t) {
    if (t instanceof ArrowType.Int i) {
      return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
    }
    if (t instanceof ArrowType.FloatingPoint f) {
      return switch (f.getPrecision()) {
        case HALF -> "float16";
        case SINGLE -> "float32";
        case DOUBLE -> "float64";
      };
    }
    if (t instanceof ArrowType.Decimal d) {
      return "decimal" + d.getBitWidth() + "(" + d.getPrecision() + ", " + d.getScale() + ")";
    }
    if (t instanceof ArrowType.Timestamp ts) {
      String unit = switch (ts.getUnit()) {
        case SECOND -> "s";
        case MILLISECOND -> "ms";
        case MICROSECOND -> "us";
        case NANOSECOND -> "ns";
      };
      return "timestamp[" + unit + (ts.getTimezone() == null ? "" : ", " + ts.getTimezone()) + "]";
    }
    if (t instanceof ArrowType.Date d) {
      return d.getUnit() == DateUnit.DAY ? "date32" : "date64";
    }
    if (t instanceof ArrowType.Utf8) {
      return "utf8";
    }
    if (t instanceof ArrowType.LargeUtf8) {
      return "large_utf8";
    }
    if (t instanceof ArrowType.Binary) {
      return "binary";
    }
    if (t instanceof ArrowType.LargeBinary) {
      return "large_binary";
    }
    if (t instanceof ArrowType.Bool) {
      return "boolean";
    }
    if (t instanceof ArrowType.Null) {
      return "null";
    }
    if (t instanceof ArrowType.Struct) {
      return "struct";
    }
    if (t instanceof ArrowType.FixedSizeList l) {
      return "fixed_size_list[" + l.getListSize() + "]";
    }
    return t.toString().toLowerCase(java.util.Locale.ROOT);
  }
}
