package dev.lancet.file.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Columns chosen so that lance-core 7.0.0 writes every 2.1 layout and compression it has: each
 * a field and the profile of its values.
 */
final class EncodingCorpus {
  record Column(Field field, RandomData.Profile profile) {}

  private EncodingCorpus() {}

  static Field leaf(String name, ArrowType t, boolean nullable) {
    return new Field(name, new FieldType(nullable, t, null), List.of());
  }

  static Field leaf(String name, ArrowType t, boolean nullable, Map<String, String> md) {
    return new Field(name, new FieldType(nullable, t, null, md), List.of());
  }

  static Field fsl(String name, int d, ArrowType item, boolean nullable) {
    return new Field(name, new FieldType(nullable, new ArrowType.FixedSizeList(d), null),
        List.of(leaf("item", item, true)));
  }

  static Field struct(String name, boolean nullable, Map<String, String> md, Field... kids) {
    return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null, md),
        List.of(kids));
  }

  static Field list(String name, Field item, boolean nullable) {
    return new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null), List.of(item));
  }

  static Field largeList(String name, Field item, boolean nullable) {
    return new Field(name, new FieldType(nullable, ArrowType.LargeList.INSTANCE, null),
        List.of(item));
  }

  static final ArrowType F16 = new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
  static final ArrowType F32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  static final ArrowType I32 = new ArrowType.Int(32, true);
  static final ArrowType I64 = new ArrowType.Int(64, true);

  static RandomData.Profile p(RandomData.Shape s, double nulls) {
    return new RandomData.Profile(s, nulls, 4, 24);
  }

  static List<Column> all() {
    List<Column> out = new ArrayList<>();
    RandomData.Shape R = RandomData.Shape.RANDOM;
    out.add(new Column(fsl("vec128", 128, F32, false), p(R, 0)));
    out.add(new Column(fsl("vec8n", 8, F32, true), p(R, 0.2)));
    out.add(new Column(fsl("h16", 16, F16, true), p(R, 0)));
    out.add(new Column(fsl("d32", 32, F64, false), p(R, 0)));
    out.add(new Column(fsl("i8x64", 64, new ArrowType.Int(8, true), false), p(R, 0)));
    out.add(new Column(fsl("bin32", 32, new ArrowType.Int(8, false), false), p(R, 0)));
    out.add(new Column(struct("st", true, null, leaf("a", I32, true),
        leaf("b", ArrowType.Utf8.INSTANCE, true)), p(R, 0.2)));
    out.add(new Column(list("li", leaf("item", I32, true), true), p(R, 0.2)));
    out.add(new Column(largeList("lls", leaf("item", ArrowType.Utf8.INSTANCE, true), true),
        p(R, 0.1)));
    out.add(new Column(list("lst", struct("item", true, null, leaf("a", I64, true),
        leaf("b", ArrowType.Utf8.INSTANCE, true)), true), p(R, 0.1)));
    out.add(new Column(leaf("dict", ArrowType.Utf8.INSTANCE, true),
        p(RandomData.Shape.FEW_DISTINCT, 0.1)));
    out.add(new Column(leaf("dictint", I64, true), p(RandomData.Shape.FEW_DISTINCT, 0)));
    out.add(new Column(leaf("runs", I64, false), p(RandomData.Shape.RUNS, 0)));
    out.add(new Column(leaf("const", I32, false), p(RandomData.Shape.CONSTANT, 0)));
    out.add(new Column(leaf("conststr", ArrowType.Utf8.INSTANCE, false),
        p(RandomData.Shape.CONSTANT, 0)));
    out.add(new Column(leaf("big", ArrowType.Utf8.INSTANCE, true),
        new RandomData.Profile(RandomData.Shape.LARGE, 0.1, 0, 40_000)));
    out.add(new Column(leaf("bigbin", ArrowType.Binary.INSTANCE, false),
        new RandomData.Profile(RandomData.Shape.LARGE, 0, 0, 3000)));
    // Nullable but without nulls: lance-core 7.0.0 aborts the JVM (a Rust assertion in
    // arrow-array) reading a batch of only null large strings, so the oracle cannot be asked.
    out.add(new Column(leaf("ls", ArrowType.LargeUtf8.INSTANCE, true), p(R, 0)));
    out.add(new Column(leaf("lb", ArrowType.LargeBinary.INSTANCE, true), p(R, 0.1)));
    out.add(new Column(leaf("f32", F32, true), p(R, 0.1)));
    out.add(new Column(leaf("f64", F64, false), p(R, 0)));
    out.add(new Column(leaf("zstd", I64, true, Map.of("lance-encoding:compression", "zstd")),
        p(R, 0.1)));
    out.add(new Column(leaf("lz4s", ArrowType.Utf8.INSTANCE, true,
        Map.of("lance-encoding:compression", "lz4")), p(R, 0.1)));
    out.add(new Column(leaf("zstds", ArrowType.Utf8.INSTANCE, false,
        Map.of("lance-encoding:compression", "zstd")), p(R, 0)));
    out.add(new Column(leaf("blob", ArrowType.LargeBinary.INSTANCE, true,
        Map.of("lance-encoding:blob", "true")), new RandomData.Profile(R, 0.1, 0, 5000)));
    out.add(new Column(leaf("fsb", new ArrowType.FixedSizeBinary(5), true), p(R, 0.1)));
    out.add(new Column(leaf("dec", new ArrowType.Decimal(20, 2, 128), true), p(R, 0.1)));
    out.add(new Column(leaf("half", F16, true), p(R, 0.1)));
    out.add(new Column(struct("deep", true, null, struct("in", true, null,
        list("l", leaf("item", I32, true), true))), p(R, 0.2)));
    out.add(new Column(leaf("bss", F32, false, Map.of("lance-encoding:bss", "on")), p(R, 0)));
    out.add(new Column(leaf("allnull", I32, true), p(R, 1.0)));
    // Last: lance-core 7.0.0's reader counts a packed struct's children as columns when it
    // projects by name, so it cannot read the columns after one (it asks for a column past the
    // last).
    out.add(new Column(struct("packed", false, Map.of("packed", "true"), leaf("x", I32, false),
        leaf("y", F64, false)), p(R, 0)));
    return out;
  }
}
