package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.RowRange;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileWriter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files written by lance-core 7.0.0 with random columns of every supported type, read through
 * lance-core's reader and the Java reader: same schema, batch sizes, validity and values.
 */
class LanceFileDifferentialTest {
  @TempDir Path dir;

  @AfterAll
  static void everyCodingWasMet() {
    // The random files must have exercised every coding the Java reader decodes.
    java.util.Set<String> seen = DifferentialReads.SEEN;
    for (int bits : new int[] {8, 16, 32, 64}) {
      assertThat(seen).anyMatch(s -> s.startsWith("MiniBlock InlineBitpacked(" + bits + ")"));
      assertThat(seen).anyMatch(s -> s.startsWith("MiniBlock Flat(" + bits + ")"));
    }
    assertThat(seen).anyMatch(s -> s.startsWith("MiniBlock Flat(1)"));
    assertThat(seen).anyMatch(s -> s.endsWith("None[]"));
    assertThat(seen).anyMatch(s -> s.endsWith(" Raw[]"));
    assertThat(seen).anyMatch(s -> s.contains(" Bitpacked[width="));
    assertThat(seen).anyMatch(s -> s.endsWith(" InlineBitpacked[]"));
    assertThat(seen).contains("AllNull");
    System.out.println("codings met: " + new java.util.TreeSet<>(seen));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 2048, 4097, 20_000})
  void everyTypeAtRowCount(int rows) throws Exception {
    for (int seed = 0; seed < 4; seed++) {
      Random rnd = new Random(rows * 31L + seed);
      writeAndCompare(RandomColumns.TYPES, rows, rnd, "rows" + rows + "_" + seed);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void everyBitWidthOfOneWordSize(int bits) throws Exception {
    // One column per bit width 0..bits, narrow unsigned and signed: every packed width.
    for (int width = 0; width <= bits; width++) {
      Random rnd = new Random(bits * 1000L + width);
      try (BufferAllocator alloc = new RootAllocator()) {
        ArrowType t = new ArrowType.Int(bits, true);
        org.apache.arrow.vector.types.pojo.Field f = new org.apache.arrow.vector.types.pojo.Field(
            "w" + width, org.apache.arrow.vector.types.pojo.FieldType.nullable(t), null);
        var v = (org.apache.arrow.vector.BaseFixedWidthVector) f.createVector(alloc);
        int rows = 3000 + rnd.nextInt(3000);
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          long x = width == 0 ? 0 : rnd.nextLong() >>> (64 - width);
          if (i % 1000 == 7) {
            x = width == 0 ? 0 : -1L >>> (64 - width);
          }
          switch (bits) {
            case 8 -> v.getDataBuffer().setByte(i, (byte) x);
            case 16 -> v.getDataBuffer().setShort(2L * i, (short) x);
            case 32 -> v.getDataBuffer().setInt(4L * i, (int) x);
            default -> v.getDataBuffer().setLong(8L * i, x);
          }
          v.setIndexDefined(i);
        }
        v.setValueCount(rows);
        Path file = dir.resolve("w" + bits + "_" + width + ".lance");
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
          root.setRowCount(rows);
          LanceCoreFiles.write(file, root);
        }
        DifferentialReads.compare(file, alloc, rnd, 3);
      }
    }
  }

  @Test
  void severalPagesPerColumn() throws Exception {
    // lance-core 7.0.0 cuts a 2.1 page at about 8 MiB of a column's buffered data when it is
    // fed in batches: 24 batches of 100,000 rows give the int64 column 3 pages and the int32
    // column 2.
    Random rnd = new Random(7);
    Path file = dir.resolve("pages.lance");
    try (BufferAllocator alloc = new RootAllocator()) {
      List<ArrowType> types = List.of(new ArrowType.Int(64, true), new ArrowType.Int(32, true),
          new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE));
      try (LanceFileWriter w = LanceFileWriter.open(file.toString(), alloc, null,
          Optional.empty(), Map.of())) {
        for (int b = 0; b < 24; b++) {
          try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(
              column(alloc, "id", types.get(0), RandomColumns.Shape.FULL, false, 100_000, rnd),
              column(alloc, "x", types.get(1), RandomColumns.Shape.SOME_NULLS, true, 100_000, rnd),
              column(alloc, "score", types.get(2), RandomColumns.Shape.FULL, true, 100_000,
                  rnd)))) {
            root.setRowCount(100_000);
            w.write(root);
          }
        }
      }
      try (LanceFile f = LanceFile.open(file)) {
        assertThat(f.column(0).numPages()).isGreaterThan(1);
        assertThat(f.column(1).numPages()).isGreaterThan(1);
      }
      long n = 2_400_000;
      DifferentialReads.compare(file, alloc, rnd, 3, List.of(
          List.of(new RowRange(0, n)),
          List.of(new RowRange(1_099_000, 1_101_000), new RowRange(2_199_990, 2_200_010)),
          List.of(new RowRange(5, 6), new RowRange(1_100_000, 1_100_001),
              new RowRange(n - 1, n)),
          List.of(),
          List.of(new RowRange(5, 5), new RowRange(7, 9), new RowRange(9, 9))));
    }
  }

  @Test
  void fieldAndSchemaMetadataAsLanceCoreGivesThem() throws Exception {
    Random rnd = new Random(11);
    Path file = dir.resolve("metadata.lance");
    try (BufferAllocator alloc = new RootAllocator()) {
      Field a = new Field("a", new FieldType(true, new ArrowType.Int(32, true), null,
          Map.of("unit", "metres", "lance-encoding:compression", "none")), null);
      Field b = new Field("b", new FieldType(false, new ArrowType.Timestamp(
          org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "Asia/Tokyo"), null,
          Map.of("note", "x")), null);
      BaseFixedWidthVector va = (BaseFixedWidthVector) a.createVector(alloc);
      BaseFixedWidthVector vb = (BaseFixedWidthVector) b.createVector(alloc);
      RandomColumns.fill(va, 32, RandomColumns.Shape.SOME_NULLS, 2000, rnd);
      RandomColumns.fill(vb, 64, RandomColumns.Shape.NARROW, 2000, rnd);
      org.apache.arrow.vector.types.pojo.Schema schema = new org.apache.arrow.vector.types.pojo.Schema(
          List.of(a, b), Map.of("owner", "lancet", "k", "v"));
      try (VectorSchemaRoot root = new VectorSchemaRoot(schema, List.<FieldVector>of(va, vb),
          2000)) {
        LanceCoreFiles.write(file, root);
      }
      DifferentialReads.compare(file, alloc, rnd, 4);
    }
  }

  private static FieldVector column(BufferAllocator alloc, String name, ArrowType type,
      RandomColumns.Shape shape, boolean nullable, int rows, Random rnd) {
    BaseFixedWidthVector v = (BaseFixedWidthVector) new Field(name,
        new FieldType(nullable, type, null), null).createVector(alloc);
    RandomColumns.fill(v, RandomColumns.bits(type), shape, rows, rnd);
    return v;
  }

  private void writeAndCompare(List<ArrowType> types, int rows, Random rnd, String name)
      throws Exception {
    try (BufferAllocator alloc = new RootAllocator()) {
      Path file = dir.resolve(name + ".lance");
      try (VectorSchemaRoot root = RandomColumns.root(alloc, types, rows, rnd)) {
        LanceCoreFiles.write(file, root);
      }
      DifferentialReads.compare(file, alloc, rnd, 6);
    }
  }
}
