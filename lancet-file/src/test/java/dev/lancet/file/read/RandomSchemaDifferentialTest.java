package dev.lancet.file.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random schemas (every Arrow type Lance stores, structs nested to depth 3, vectors of several
 * widths and dimensions, lists, a packed struct), random data of random shapes (few distinct
 * values, runs, constants, large values, nulls), written by lance-core 7.0.0 and read by both
 * readers with random projections, row ranges and batch sizes, compared value by value. Seeds
 * are printed; {@code -Dlancet.schemas=N} runs N schemas (16 by default).
 */
class RandomSchemaDifferentialTest {
  @TempDir Path dir;

  private static final List<ArrowType> LEAVES = List.of(
      new ArrowType.Int(8, true), new ArrowType.Int(8, false), new ArrowType.Int(16, true),
      new ArrowType.Int(16, false), new ArrowType.Int(32, true), new ArrowType.Int(32, false),
      new ArrowType.Int(64, true), new ArrowType.Int(64, false),
      new ArrowType.FloatingPoint(FloatingPointPrecision.HALF),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), ArrowType.Bool.INSTANCE,
      ArrowType.Utf8.INSTANCE, ArrowType.Binary.INSTANCE, ArrowType.LargeUtf8.INSTANCE,
      ArrowType.LargeBinary.INSTANCE, new ArrowType.Date(DateUnit.DAY),
      new ArrowType.Date(DateUnit.MILLISECOND), new ArrowType.Timestamp(TimeUnit.MICROSECOND,
          "UTC"), new ArrowType.Time(TimeUnit.MILLISECOND, 32),
      new ArrowType.Duration(TimeUnit.NANOSECOND), new ArrowType.Decimal(20, 2, 128),
      new ArrowType.FixedSizeBinary(3), new ArrowType.FixedSizeBinary(17));
  private static final List<ArrowType> VECTOR_ITEMS = List.of(
      new ArrowType.FloatingPoint(FloatingPointPrecision.HALF),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), new ArrowType.Int(8, true),
      new ArrowType.Int(8, false));
  private static final int[] DIMENSIONS = {2, 3, 8, 32, 128, 256};

  @Test
  void randomSchemas() throws Exception {
    int n = Integer.getInteger("lancet.schemas", 16);
    for (int seed = 0; seed < n; seed++) {
      Random rnd = new Random(new java.util.SplittableRandom(seed).nextLong());
      List<Field> fields = new ArrayList<>();
      int count = 1 + rnd.nextInt(4);
      for (int i = 0; i < count; i++) {
        fields.add(field("f" + i, 0, rnd));
      }
      if (rnd.nextInt(4) == 0) {
        // Last: lance-core 7.0.0 cannot project the columns after a packed struct by name.
        fields.add(new Field("packed", new FieldType(false, ArrowType.Struct.INSTANCE, null,
            Map.of("packed", "true")), List.of(
                new Field("a", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                new Field("b", FieldType.notNullable(new ArrowType.FloatingPoint(
                    FloatingPointPrecision.DOUBLE)), null))));
      }
      int rows = new int[] {1, 17, 1000, 3000}[rnd.nextInt(4)];
      String what = "seed " + seed + ": " + rows + " rows of " + fields;
      System.out.println(what);
      try (BufferAllocator alloc = new RootAllocator()) {
        List<FieldVector> vectors = new ArrayList<>();
        for (Field f : fields) {
          FieldVector v = f.createVector(alloc);
          new RandomData(rnd, profile(f, rnd)).fill(v, rows);
          vectors.add(v);
        }
        Path file = dir.resolve("s" + seed + ".lance");
        try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
          root.setRowCount(rows);
          LanceCoreFiles.write(file, root);
        }
        DifferentialReads.compare(file, alloc, rnd, 4);
      } catch (Exception | AssertionError e) {
        throw new AssertionError(what + ": " + e, e);
      }
    }
  }

  private static RandomData.Profile profile(Field f, Random rnd) {
    RandomData.Shape shape = RandomData.Shape.values()[rnd.nextInt(RandomData.Shape.values().length)];
    double nulls = new double[] {0, 0, 0.1, 0.5, 1.0}[rnd.nextInt(5)];
    if (contains(f, ArrowType.ArrowTypeID.LargeUtf8)) {
      nulls = 0; // lance-core 7.0.0 aborts the JVM reading an all-null batch of large strings
    }
    if (nulls == 1.0 && contains(f, ArrowType.ArrowTypeID.FixedSizeList)) {
      // lance-core 7.0.0 cannot read a full-zip page of lists whose items are all null ("per-row
      // byte width must be greater than 0"); the Java reader can.
      nulls = 0.5;
    }
    int maxBytes = shape == RandomData.Shape.LARGE ? 2000 + rnd.nextInt(6000) : 1 + rnd.nextInt(40);
    return new RandomData.Profile(shape, nulls, 1 + rnd.nextInt(5), maxBytes);
  }

  private static boolean contains(Field f, ArrowType.ArrowTypeID type) {
    if (f.getType().getTypeID() == type) {
      return true;
    }
    return f.getChildren().stream().anyMatch(c -> contains(c, type));
  }

  private static Field field(String name, int depth, Random rnd) {
    boolean nullable = rnd.nextBoolean();
    int kind = depth >= 3 ? 0 : rnd.nextInt(10);
    if (kind <= 4) {
      return new Field(name, new FieldType(nullable, LEAVES.get(rnd.nextInt(LEAVES.size())),
          null), null);
    }
    if (kind <= 6) {
      int d = DIMENSIONS[rnd.nextInt(DIMENSIONS.length)];
      ArrowType item = VECTOR_ITEMS.get(rnd.nextInt(VECTOR_ITEMS.size()));
      return new Field(name, new FieldType(nullable, new ArrowType.FixedSizeList(d), null),
          List.of(new Field("item", new FieldType(rnd.nextBoolean(), item, null), null)));
    }
    if (kind <= 8) {
      List<Field> kids = new ArrayList<>();
      int k = 1 + rnd.nextInt(3);
      for (int i = 0; i < k; i++) {
        kids.add(field(name + "_" + i, depth + 1, rnd));
      }
      return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), kids);
    }
    ArrowType list = rnd.nextBoolean() ? ArrowType.List.INSTANCE : ArrowType.LargeList.INSTANCE;
    return new Field(name, new FieldType(nullable, list, null),
        List.of(field("item", depth + 1, rnd)));
  }
}
