package dev.lancet.file.schema;

import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Lance's logical type strings for Arrow leaf types, both ways, spelled as lance-core writes
 * them ({@code rust/lance-core/src/datatypes.rs}, {@code TryFrom<&DataType> for LogicalType},
 * lance-format/lance at 01afee43; checked against lance-core 7.0.0's manifests by the interop
 * suite). Nested types (struct, lists) are handled by {@link LanceSchemas}, which knows their
 * children.
 */
public final class LogicalTypes {
  private LogicalTypes() {}

  /**
   * The logical type of a leaf Arrow type, or empty for a type Lance stores with children
   * (struct, list, large list, map) or does not store at all.
   */
  public static Optional<String> ofLeaf(ArrowType type) {
    return Optional.ofNullable(type.accept(new ArrowType.ArrowTypeVisitor<String>() {
      @Override public String visit(ArrowType.Null t) { return "null"; }
      @Override public String visit(ArrowType.Struct t) { return null; }
      @Override public String visit(ArrowType.List t) { return null; }
      @Override public String visit(ArrowType.LargeList t) { return null; }
      @Override public String visit(ArrowType.FixedSizeList t) { return null; }
      @Override public String visit(ArrowType.Union t) { return null; }
      @Override public String visit(ArrowType.Map t) { return null; }
      @Override public String visit(ArrowType.Int t) {
        return (t.getIsSigned() ? "int" : "uint") + t.getBitWidth();
      }
      @Override public String visit(ArrowType.FloatingPoint t) {
        return switch (t.getPrecision()) {
          case HALF -> "halffloat";
          case SINGLE -> "float";
          case DOUBLE -> "double";
        };
      }
      @Override public String visit(ArrowType.Utf8 t) { return "string"; }
      @Override public String visit(ArrowType.Utf8View t) { return null; }
      @Override public String visit(ArrowType.LargeUtf8 t) { return "large_string"; }
      @Override public String visit(ArrowType.Binary t) { return "binary"; }
      @Override public String visit(ArrowType.BinaryView t) { return null; }
      @Override public String visit(ArrowType.LargeBinary t) { return "large_binary"; }
      @Override public String visit(ArrowType.FixedSizeBinary t) {
        return "fixed_size_binary:" + t.getByteWidth();
      }
      @Override public String visit(ArrowType.Bool t) { return "bool"; }
      @Override public String visit(ArrowType.Decimal t) {
        return "decimal:" + t.getBitWidth() + ":" + t.getPrecision() + ":" + t.getScale();
      }
      @Override public String visit(ArrowType.Date t) {
        return t.getUnit() == DateUnit.DAY ? "date32:day" : "date64:ms";
      }
      @Override public String visit(ArrowType.Time t) {
        return "time" + t.getBitWidth() + ":" + unit(t.getUnit());
      }
      @Override public String visit(ArrowType.Timestamp t) {
        return "timestamp:" + unit(t.getUnit()) + ":"
            + (t.getTimezone() == null ? "-" : t.getTimezone());
      }
      @Override public String visit(ArrowType.Interval t) { return null; }
      @Override public String visit(ArrowType.Duration t) { return "duration:" + unit(t.getUnit()); }
      @Override public String visit(ArrowType.ListView t) { return null; }
      @Override public String visit(ArrowType.LargeListView t) { return null; }
      @Override public String visit(ArrowType.RunEndEncoded t) { return null; }
      @Override public String visit(ArrowType.ExtensionType t) { return null; }
    }));
  }

  /** The Arrow type of a leaf logical type ({@code "int64"}, {@code "timestamp:us:UTC"}, ...). */
  public static ArrowType leafType(String logical, String where) {
    switch (logical) {
      case "null": return ArrowType.Null.INSTANCE;
      case "bool": return ArrowType.Bool.INSTANCE;
      case "int8": return new ArrowType.Int(8, true);
      case "uint8": return new ArrowType.Int(8, false);
      case "int16": return new ArrowType.Int(16, true);
      case "uint16": return new ArrowType.Int(16, false);
      case "int32": return new ArrowType.Int(32, true);
      case "uint32": return new ArrowType.Int(32, false);
      case "int64": return new ArrowType.Int(64, true);
      case "uint64": return new ArrowType.Int(64, false);
      case "halffloat": return new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
      case "float": return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case "double": return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case "string": return ArrowType.Utf8.INSTANCE;
      case "binary": return ArrowType.Binary.INSTANCE;
      case "large_string": return ArrowType.LargeUtf8.INSTANCE;
      case "large_binary", "blob", "json": return ArrowType.LargeBinary.INSTANCE;
      case "date32:day": return new ArrowType.Date(DateUnit.DAY);
      case "date64:ms": return new ArrowType.Date(DateUnit.MILLISECOND);
      default: break;
    }
    String[] parts = logical.split(":", -1);
    try {
      switch (parts[0]) {
        case "time32", "time64":
          if (parts.length == 2) {
            return new ArrowType.Time(parseUnit(parts[1]), Integer.parseInt(parts[0].substring(4)));
          }
          break;
        case "duration":
          if (parts.length == 2) {
            return new ArrowType.Duration(parseUnit(parts[1]));
          }
          break;
        case "timestamp":
          if (parts.length >= 3) {
            // A fixed-offset zone ("+08:00") has a colon of its own: rejoin the tail.
            String tz = String.join(":", java.util.Arrays.copyOfRange(parts, 2, parts.length));
            return new ArrowType.Timestamp(parseUnit(parts[1]), tz.equals("-") ? null : tz);
          }
          break;
        case "decimal":
          if (parts.length == 4) {
            return new ArrowType.Decimal(Integer.parseInt(parts[2]), Integer.parseInt(parts[3]),
                Integer.parseInt(parts[1]));
          }
          break;
        case "fixed_size_binary":
          if (parts.length == 2) {
            return new ArrowType.FixedSizeBinary(Integer.parseInt(parts[1]));
          }
          break;
        default:
          break;
      }
    } catch (IllegalArgumentException e) {
      // fall through to the error below
    }
    throw new SchemaException(where + ": unsupported Lance logical type '" + logical + "'");
  }

  static String unit(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> "s";
      case MILLISECOND -> "ms";
      case MICROSECOND -> "us";
      case NANOSECOND -> "ns";
    };
  }

  private static TimeUnit parseUnit(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "s" -> TimeUnit.SECOND;
      case "ms" -> TimeUnit.MILLISECOND;
      case "us" -> TimeUnit.MICROSECOND;
      case "ns" -> TimeUnit.NANOSECOND;
      default -> throw new IllegalArgumentException("time unit " + s);
    };
  }
}
