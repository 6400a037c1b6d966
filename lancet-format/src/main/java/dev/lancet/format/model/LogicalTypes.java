package dev.lancet.format.model;

import java.util.Set;

/**
 * Lance's grammar of {@code Field.logical_type}, the string form of an Arrow type. A field whose
 * type Lance cannot parse makes lance-core panic when it opens the table (seen with
 * {@code float64}), so a writer checks every new or changed field against it.
 *
 * <p>Source: upstream lance-format/lance {@code rust/lance-core/src/datatypes.rs} at 01afee43
 * ({@code impl TryFrom<&LogicalType> for DataType}, the newest of the stored versions: it also
 * reads fixed-offset time zones), and {@code rust/lance-core/src/datatypes/field.rs} at 32f617c3
 * ({@code Field::data_type}, which handles the nested types before that conversion), and
 * {@code rust/lance-core/src/datatypes/schema.rs} at 08ea21b2
 * ({@code validate_fixed_size_list_dimensions}: a fixed-size list's dimension is positive).
 * One narrowing for the reader that must open what Lancet writes: a time zone with a ':'
 * ({@code timestamp:us:+08:00}), which the newest grammar reads but lance-core 7.0.0 panics on
 * (probe in docs/decisions/0015-validate-before-publishing.md), is refused. A fixed-size binary
 * of size 0 is refused too: lance-core 7.0.0 divides by it when it scans.
 *
 * <pre>
 *   nested:  struct | list | list.struct | large_list | large_list.struct | map
 *          | fixed_size_list:struct:N
 *   leaf:    null | bool | int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64
 *          | halffloat | float | double | string | binary | large_string | large_binary
 *          | blob | json | date32:day | date64:ms | time32:(s|ms) | time64:(us|ns)
 *          | duration:(s|ms|us|ns) | timestamp:(s|ms|us|ns):TZ   (TZ "-" for none, no ':')
 *          | fixed_size_list:LEAF:N | fixed_size_list:lance.bfloat16:N | fixed_size_binary:N
 *          | dict:LEAF:LEAF:ORDERED | decimal:(128|256):PRECISION:SCALE
 * </pre>
 *
 * N is a positive 32-bit integer, PRECISION an unsigned byte, SCALE a signed byte.
 */
public final class LogicalTypes {
  /** How many children a field of a type has. */
  public enum Shape {
    /** No children. */
    LEAF,
    /** Any number of children, one per struct member. */
    STRUCT,
    /** Exactly one child: the item of a list, large list or fixed-size list of structs. */
    LIST,
    /** Exactly one child: the map's entries struct. */
    MAP
  }

  private static final Set<String> PRIMITIVES = Set.of("null", "bool", "int8", "uint8", "int16",
      "uint16", "int32", "uint32", "int64", "uint64", "halffloat", "float", "double", "string",
      "binary", "large_string", "large_binary", "blob", "json", "date32:day", "date64:ms",
      "time32:s", "time32:ms", "time64:us", "time64:ns", "duration:s", "duration:ms",
      "duration:us", "duration:ns");
  private static final Set<String> TIME_UNITS = Set.of("s", "ms", "us", "ns");
  private static final String FSL_STRUCT = "fixed_size_list:struct:";

  private LogicalTypes() {}

  /** The shape of a type; {@link Shape#LEAF} for anything that is not one of the nested types. */
  public static Shape shape(String type) {
    switch (type) {
      case "struct":
        return Shape.STRUCT;
      case "list":
      case "list.struct":
      case "large_list":
      case "large_list.struct":
        return Shape.LIST;
      case "map":
        return Shape.MAP;
      default:
        return type.startsWith(FSL_STRUCT) ? Shape.LIST : Shape.LEAF;
    }
  }

  /** Why Lance cannot read {@code type}, or null when it can. */
  public static String problem(String type) {
    if (type.isEmpty()) {
      return "the logical type is empty";
    }
    if (shape(type) != Shape.LEAF) {
      if (type.startsWith(FSL_STRUCT)) {
        return dimensionProblem(type.substring(FSL_STRUCT.length()));
      }
      return null;
    }
    return leafProblem(type);
  }

  private static String leafProblem(String type) {
    if (PRIMITIVES.contains(type)) {
      return null;
    }
    String[] parts = type.split(":", -1);
    switch (parts[0]) {
      case "fixed_size_list": {
        if (parts.length < 3) {
          return "fixed_size_list needs an item type and a dimension (fixed_size_list:float:128)";
        }
        String inner = type.substring("fixed_size_list:".length(), type.lastIndexOf(':'));
        String dim = dimensionProblem(parts[parts.length - 1]);
        if (dim != null) {
          return dim;
        }
        if (inner.equals("lance.bfloat16")) {
          return null;
        }
        String innerProblem = leafProblem(inner);
        return innerProblem == null ? null : "its item type '" + inner + "' is not one Lance reads ("
            + innerProblem + ")";
      }
      case "fixed_size_binary":
        if (parts.length != 2) {
          return "fixed_size_binary takes one size (fixed_size_binary:16)";
        }
        return positiveInt(parts[1], "the size");
      case "dict":
        if (parts.length != 4) {
          return "dict takes a value type, an index type and an ordered flag (dict:string:int32:false)";
        }
        for (String part : new String[] {parts[1], parts[2]}) {
          String p = leafProblem(part);
          if (p != null) {
            return "its type '" + part + "' is not one Lance reads (" + p + ")";
          }
        }
        return null;
      case "decimal": {
        if (parts.length != 4) {
          return "decimal takes a width, a precision and a scale (decimal:128:38:10)";
        }
        if (!parts[1].equals("128") && !parts[1].equals("256")) {
          return "a decimal is 128 or 256 bits wide, not " + parts[1];
        }
        Long precision = parse(parts[2]);
        if (precision == null || precision < 0 || precision > 255) {
          return "the precision '" + parts[2] + "' is not an unsigned 8-bit number";
        }
        Long scale = parse(parts[3]);
        if (scale == null || scale < -128 || scale > 127) {
          return "the scale '" + parts[3] + "' is not a signed 8-bit number";
        }
        return null;
      }
      case "timestamp":
        if (parts.length < 3) {
          return "timestamp takes a unit and a time zone, '-' for none (timestamp:us:-)";
        }
        if (!TIME_UNITS.contains(parts[1])) {
          return "the time unit '" + parts[1] + "' is not one of s, ms, us, ns";
        }
        if (parts.length > 3) {
          // The newest upstream reads a zone with ':' ("+08:00"); lance-core 7.0.0 panics on it.
          return "the time zone '" + type.substring("timestamp:".length() + parts[1].length() + 1)
              + "' has a ':', which lance-core 7.0.0 cannot read; write the offset without it (+0800)";
        }
        return null;
      default:
        return "it is not a type in Lance's grammar (types are spelled as Lance spells them: "
            + "int64, double, string, timestamp:us:-, fixed_size_list:float:128, ...)";
    }
  }

  private static String dimensionProblem(String text) {
    return positiveInt(text, "the dimension");
  }

  private static String positiveInt(String text, String what) {
    Long v = parse(text);
    if (v == null || v > Integer.MAX_VALUE) {
      return what + " '" + text + "' is not a 32-bit number";
    }
    if (v <= 0) {
      return what + " must be positive, not " + v;
    }
    return null;
  }

  /** A decimal integer with an optional sign (as Rust's {@code str::parse} reads one), or null. */
  private static Long parse(String text) {
    if (text.isEmpty() || text.length() > 19) {
      return null;
    }
    int start = (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
    if (start == text.length()) {
      return null;
    }
    for (int i = start; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return null;
      }
    }
    return Long.parseLong(text);
  }
}
