package dev.lancet.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * How Lance's Arrow types appear in Spark and back.
 *
 * <p>Lance to Spark: signed integers, floats, bool, strings, binaries, decimal128, dates,
 * timestamps, lists, structs and maps as the obvious Spark types; unsigned integers widen to the
 * next signed type ({@code uint64} to {@code decimal(20,0)}); {@code fixed_size_list<T>[n]} is
 * an {@code array<T>} whose Spark field metadata records {@code n} (so a write checks the length);
 * timestamps of any unit read as microseconds, zoned ones as {@code timestamp}, naive ones as
 * {@code timestamp_ntz}; {@code date64} as {@code date}. Half floats, times, durations, intervals,
 * unions, views and decimal256 are refused with the column's name.
 *
 * <p>Spark to Lance (a new table): the reverse of the obvious cases: {@code string} is
 * {@code utf8}, {@code timestamp} is {@code timestamp[us, UTC]}, {@code timestamp_ntz} is
 * {@code timestamp[us]}, {@code array} is a list unless its metadata names a fixed size.
 */
public final class SparkSchemas {
  /** Spark field metadata key: the element count of a {@code fixed_size_list}. */
  public static final String FIXED_SIZE = "lance:fixed_size_list";

  private SparkSchemas() {}

  public static StructType toSpark(Schema arrow) {
    List<StructField> out = new ArrayList<>();
    for (Field f : arrow.getFields()) {
      out.add(toSpark(f, f.getName()));
    }
    return new StructType(out.toArray(new StructField[0]));
  }

  public static StructField toSpark(Field f, String path) {
    Metadata md = Metadata.empty();
    if (f.getType() instanceof ArrowType.FixedSizeList fl) {
      md = new MetadataBuilder().putLong(FIXED_SIZE, fl.getListSize()).build();
    }
    return new StructField(f.getName(), typeOf(f, path), f.isNullable(), md);
  }

  private static DataType typeOf(Field f, String path) {
    ArrowType t = f.getType();
    if (f.getDictionary() != null) {
      throw unsupported(path, "dictionary-encoded " + t);
    }
    return switch (t.getTypeID()) {
      case Null -> DataTypes.NullType;
      case Bool -> DataTypes.BooleanType;
      case Int -> {
        ArrowType.Int i = (ArrowType.Int) t;
        if (i.getIsSigned()) {
          yield switch (i.getBitWidth()) {
            case 8 -> DataTypes.ByteType;
            case 16 -> DataTypes.ShortType;
            case 32 -> DataTypes.IntegerType;
            default -> DataTypes.LongType;
          };
        }
        yield switch (i.getBitWidth()) {
          case 8 -> DataTypes.ShortType;
          case 16 -> DataTypes.IntegerType;
          case 32 -> DataTypes.LongType;
          default -> new DecimalType(20, 0);
        };
      }
      case FloatingPoint -> {
        FloatingPointPrecision p = ((ArrowType.FloatingPoint) t).getPrecision();
        if (p == FloatingPointPrecision.HALF) {
          throw unsupported(path, "halffloat");
        }
        yield p == FloatingPointPrecision.SINGLE ? DataTypes.FloatType : DataTypes.DoubleType;
      }
      case Utf8, LargeUtf8 -> DataTypes.StringType;
      case Binary, LargeBinary, FixedSizeBinary -> DataTypes.BinaryType;
      case Decimal -> {
        ArrowType.Decimal d = (ArrowType.Decimal) t;
        if (d.getBitWidth() != 128 || d.getPrecision() > DecimalType.MAX_PRECISION()) {
          throw unsupported(path, "decimal" + d.getBitWidth() + "(" + d.getPrecision() + ")");
        }
        yield new DecimalType(d.getPrecision(), d.getScale());
      }
      case Date -> DataTypes.DateType;
      case Timestamp -> ((ArrowType.Timestamp) t).getTimezone() == null
          ? DataTypes.TimestampNTZType : DataTypes.TimestampType;
      case List, LargeList, FixedSizeList -> {
        Field child = f.getChildren().get(0);
        yield new ArrayType(typeOf(child, path + ".element"), child.isNullable());
      }
      case Struct -> {
        List<StructField> fields = new ArrayList<>();
        for (Field c : f.getChildren()) {
          fields.add(toSpark(c, path + "." + c.getName()));
        }
        yield new StructType(fields.toArray(new StructField[0]));
      }
      case Map -> {
        Field entries = f.getChildren().get(0);
        Field key = entries.getChildren().get(0);
        Field value = entries.getChildren().get(1);
        yield new MapType(typeOf(key, path + ".key"), typeOf(value, path + ".value"),
            value.isNullable());
      }
      default -> throw unsupported(path, t.toString());
    };
  }

  private static UnsupportedOperationException unsupported(String path, String type) {
    return new UnsupportedOperationException("column '" + path + "' has Lance type " + type
        + ", which the Spark connector cannot represent; select the other columns, or cast it "
        + "with the table API (alterColumns().cast)");
  }

  /** The Arrow schema of a new table for Spark rows of {@code spark}. */
  public static Schema toArrow(StructType spark) {
    List<Field> out = new ArrayList<>();
    for (StructField f : spark.fields()) {
      out.add(toArrow(f.name(), f.dataType(), f.nullable(), f.metadata()));
    }
    return new Schema(out);
  }

  private static Field toArrow(String name, DataType t, boolean nullable, Metadata md) {
    if (t instanceof ArrayType a) {
      Field element = toArrow("item", a.elementType(), a.containsNull(), Metadata.empty());
      ArrowType type = md.contains(FIXED_SIZE)
          ? new ArrowType.FixedSizeList(Math.toIntExact(md.getLong(FIXED_SIZE)))
          : ArrowType.List.INSTANCE;
      return new Field(name, new FieldType(nullable, type, null), List.of(element));
    }
    if (t instanceof StructType s) {
      List<Field> children = new ArrayList<>();
      for (StructField c : s.fields()) {
        children.add(toArrow(c.name(), c.dataType(), c.nullable(), c.metadata()));
      }
      return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children);
    }
    if (t instanceof MapType m) {
      Field key = toArrow("key", m.keyType(), false, Metadata.empty());
      Field value = toArrow("value", m.valueType(), m.valueContainsNull(), Metadata.empty());
      Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
          List.of(key, value));
      return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null),
          List.of(entries));
    }
    return new Field(name, new FieldType(nullable, leaf(name, t), null), List.of());
  }

  private static ArrowType leaf(String name, DataType t) {
    if (t == DataTypes.BooleanType) {
      return ArrowType.Bool.INSTANCE;
    } else if (t == DataTypes.ByteType) {
      return new ArrowType.Int(8, true);
    } else if (t == DataTypes.ShortType) {
      return new ArrowType.Int(16, true);
    } else if (t == DataTypes.IntegerType) {
      return new ArrowType.Int(32, true);
    } else if (t == DataTypes.LongType) {
      return new ArrowType.Int(64, true);
    } else if (t == DataTypes.FloatType) {
      return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    } else if (t == DataTypes.DoubleType) {
      return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    } else if (t instanceof org.apache.spark.sql.types.StringType) {
      return ArrowType.Utf8.INSTANCE;
    } else if (t == DataTypes.BinaryType) {
      return ArrowType.Binary.INSTANCE;
    } else if (t instanceof DecimalType d) {
      return new ArrowType.Decimal(d.precision(), d.scale(), 128);
    } else if (t == DataTypes.DateType) {
      return new ArrowType.Date(DateUnit.DAY);
    } else if (t == DataTypes.TimestampType) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
    } else if (t == DataTypes.TimestampNTZType) {
      return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    } else if (t == DataTypes.NullType) {
      return ArrowType.Null.INSTANCE;
    }
    throw new UnsupportedOperationException("column '" + name + "' has Spark type "
        + t.simpleString() + ", which a Lance table cannot store through the connector; cast it "
        + "to a supported type (numbers, strings, binary, decimal, date, timestamp, arrays, "
        + "structs, maps)");
  }
}
