package dev.lancet.interop.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow column shapes the schema-mapping interop test hands to lance-core and to Lancet: every
 * leaf type Lance stores, nested structs, lists, large types, fixed-size lists (an embedding),
 * dates, timestamps with zones, decimals, metadata and an unenforced primary key. Each shape is
 * one column after a non-null {@code id int64}.
 */
final class ArrowShapes {
  /** A named column shape and the file versions lance-core 7.0.0 can store it in. */
  record Shape(String name, Field column, List<String> versions) {}

  static final List<String> BOTH = List.of("2.0", "2.1");

  private ArrowShapes() {}

  static Field nullable(String n, ArrowType t, Field... children) {
    return new Field(n, FieldType.nullable(t), List.of(children));
  }

  static Field id() {
    return new Field("id", new FieldType(false, new ArrowType.Int(64, true), null,
        Map.of("lance-schema:unenforced-primary-key", "true", "note", "the key")), List.of());
  }

  static Schema schemaOf(Field column) {
    return new Schema(List.of(id(), column), Map.of("schema.note", "interop"));
  }

  static List<Shape> all() {
    List<Shape> out = new ArrayList<>();
    add(out, "i8", new ArrowType.Int(8, true));
    add(out, "u8", new ArrowType.Int(8, false));
    add(out, "i16", new ArrowType.Int(16, true));
    add(out, "u16", new ArrowType.Int(16, false));
    add(out, "i32", new ArrowType.Int(32, true));
    add(out, "u32", new ArrowType.Int(32, false));
    add(out, "u64", new ArrowType.Int(64, false));
    add(out, "bool", ArrowType.Bool.INSTANCE);
    add(out, "f16", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF));
    add(out, "f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    add(out, "f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    add(out, "utf8", ArrowType.Utf8.INSTANCE);
    add(out, "large_utf8", ArrowType.LargeUtf8.INSTANCE);
    add(out, "binary", ArrowType.Binary.INSTANCE);
    add(out, "large_binary", ArrowType.LargeBinary.INSTANCE);
    add(out, "date32", new ArrowType.Date(DateUnit.DAY));
    add(out, "date64", new ArrowType.Date(DateUnit.MILLISECOND));
    add(out, "time32", new ArrowType.Time(TimeUnit.MILLISECOND, 32));
    add(out, "time64", new ArrowType.Time(TimeUnit.NANOSECOND, 64));
    add(out, "ts_utc", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
    add(out, "ts_region", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "America/New_York"));
    add(out, "ts_offset", new ArrowType.Timestamp(TimeUnit.SECOND, "+0530"));
    add(out, "ts_naive", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
    add(out, "duration", new ArrowType.Duration(TimeUnit.MICROSECOND));
    add(out, "decimal128", new ArrowType.Decimal(18, 4, 128));
    add(out, "decimal256", new ArrowType.Decimal(50, 10, 256));
    add(out, "fixed_binary", new ArrowType.FixedSizeBinary(16));
    out.add(new Shape("metadata", new Field("tagged", new FieldType(true, ArrowType.Utf8.INSTANCE,
        null, Map.of("k", "v", "unicode", "ü")), List.of()), BOTH));
    out.add(new Shape("struct", nullable("s", ArrowType.Struct.INSTANCE,
        nullable("a", new ArrowType.Int(32, true)),
        nullable("inner", ArrowType.Struct.INSTANCE,
            nullable("c", ArrowType.Utf8.INSTANCE),
            nullable("dl", ArrowType.List.INSTANCE, nullable("item", new ArrowType.Int(32, true))))),
        BOTH));
    // A packed struct is one column for the whole struct in 2.1 (issue 25's defect: the slots
    // were counted per child). 2.1 only: lance-core 7.0.0's 2.0 writer panics on one.
    out.add(new Shape("packed_struct", new Field("p", new FieldType(true,
        ArrowType.Struct.INSTANCE, null, Map.of("packed", "true")), List.of(
            nullable("a", new ArrowType.Int(32, true)),
            nullable("b", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))),
        List.of("2.1")));
    out.add(new Shape("packed_struct_in_struct", nullable("s2", ArrowType.Struct.INSTANCE,
        nullable("x", ArrowType.Utf8.INSTANCE),
        new Field("q", new FieldType(true, ArrowType.Struct.INSTANCE, null,
            Map.of("lance-encoding:packed", "TRUE")), List.of(
                nullable("c", new ArrowType.Int(64, true)),
                nullable("d", new ArrowType.Int(16, true)))),
        nullable("y", new ArrowType.Int(8, true))), List.of("2.1")));
    out.add(new Shape("list", nullable("l", ArrowType.List.INSTANCE,
        nullable("item", new ArrowType.Int(32, true))), BOTH));
    out.add(new Shape("large_list", nullable("ll", ArrowType.LargeList.INSTANCE,
        nullable("element", ArrowType.Utf8.INSTANCE)), BOTH));
    out.add(new Shape("list_of_struct", nullable("ls", ArrowType.List.INSTANCE,
        nullable("item", ArrowType.Struct.INSTANCE,
            nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            nullable("y", ArrowType.Utf8.INSTANCE))), BOTH));
    out.add(new Shape("embedding", nullable("embedding", new ArrowType.FixedSizeList(768),
        nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))), BOTH));
    out.add(new Shape("nested_fixed_size_list", nullable("grid", new ArrowType.FixedSizeList(3),
        nullable("item", new ArrowType.FixedSizeList(2),
            nullable("item", new ArrowType.Int(16, true)))), BOTH));
    out.add(new Shape("fixed_size_list_of_struct", nullable("pairs", new ArrowType.FixedSizeList(2),
        nullable("item", ArrowType.Struct.INSTANCE, nullable("p", new ArrowType.Int(16, true)))),
        List.of("2.0")));
    out.add(new Shape("not_null_struct", new Field("point", FieldType.notNullable(ArrowType.Struct.INSTANCE),
        List.of(new Field("x", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), List.of()),
            nullable("label", ArrowType.Utf8.INSTANCE))), BOTH));
    return out;
  }

  private static void add(List<Shape> out, String name, ArrowType type) {
    out.add(new Shape(name, nullable(name, type), BOTH));
  }
}
