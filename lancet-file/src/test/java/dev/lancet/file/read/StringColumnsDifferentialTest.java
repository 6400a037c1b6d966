package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * String and binary columns written by lance-core 7.0.0, read through lance-core's reader and
 * the Java reader: same schema, batches, validity and bytes. Values of many shapes, so that
 * lance-core picks plain Variable pages, FSST pages, dictionary pages and (for large values)
 * full-zip pages; the last two are left to lance-core, the first two must be decoded in Java.
 */
class StringColumnsDifferentialTest {
  @TempDir Path dir;

  private static final java.util.Set<String> SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** How a column's values are drawn. */
  enum Shape { WORDS, RANDOM_BYTES, EMPTY_AND_SHORT, SOME_NULLS, ALL_NULL, NUMBERED, LONG }

  @AfterAll
  static void bothVariableCodingsWereMet() {
    assertThat(SEEN).anyMatch(s -> s.startsWith("MiniBlock Variable(32)"));
    assertThat(SEEN).anyMatch(s -> s.startsWith("MiniBlock Fsst(Variable(32))") && s.endsWith("None[]"));
    assertThat(SEEN).anyMatch(s -> s.contains("Variable(") && !s.endsWith("None[]"));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 1023, 1025, 5000, 70_000})
  void everyShapeAtRowCount(int rows) throws Exception {
    for (int seed = 0; seed < 3; seed++) {
      Random rnd = new Random(rows * 17L + seed);
      List<Shape> shapes = new ArrayList<>(List.of(Shape.values()));
      java.util.Collections.shuffle(shapes, rnd);
      writeAndCompare(shapes, rows, rnd, "rows" + rows + "_" + seed);
    }
  }

  @Test
  void theBenchmarksNameColumnIsDecodedInJava() throws Exception {
    // "name-<id>" strings, as the statements harness writes: an FSST page in lance-core 7.0.0.
    try (BufferAllocator alloc = new RootAllocator()) {
      Path file = dir.resolve("names.lance");
      Field f = new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
      BaseVariableWidthVector v = (BaseVariableWidthVector) f.createVector(alloc);
      v.allocateNew();
      for (int i = 0; i < 100_000; i++) {
        v.setSafe(i, ("name-" + i).getBytes(StandardCharsets.UTF_8));
      }
      v.setValueCount(100_000);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(v))) {
        root.setRowCount(100_000);
        LanceCoreFiles.write(file, root);
      }
      try (LanceFile mine = LanceFile.open(file)) {
        assertThat(mine.column(0).unsupported()).isEmpty();
        assertThat(((MiniBlockPage) mine.column(0).decoders().get(0)).values().describe())
            .startsWith("Fsst(Variable(32))");
      }
      DifferentialReads.compare(file, alloc, new Random(5), 8);
    }
  }

  private void writeAndCompare(List<Shape> shapes, int rows, Random rnd, String name)
      throws Exception {
    try (BufferAllocator alloc = new RootAllocator()) {
      Path file = dir.resolve(name + ".lance");
      List<FieldVector> vectors = new ArrayList<>();
      for (int c = 0; c < shapes.size(); c++) {
        Shape shape = shapes.get(c);
        ArrowType type = rnd.nextBoolean() ? ArrowType.Utf8.INSTANCE : ArrowType.Binary.INSTANCE;
        boolean nullable = shape == Shape.SOME_NULLS || shape == Shape.ALL_NULL || rnd.nextBoolean();
        Field f = new Field("c" + c + "_" + shape.name().toLowerCase(),
            new FieldType(nullable, type, null), null);
        BaseVariableWidthVector v = (BaseVariableWidthVector) f.createVector(alloc);
        fill(v, shape, rows, rnd);
        vectors.add(v);
      }
      try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
        root.setRowCount(rows);
        LanceCoreFiles.write(file, root);
      }
      try (LanceFile mine = LanceFile.open(file)) {
        for (int i = 0; i < shapes.size(); i++) {
          for (PageDecoder d : mine.column(i).decoders()) {
            SEEN.add(DifferentialReads.describe(d));
          }
        }
      }
      DifferentialReads.compare(file, alloc, rnd, 6);
    }
  }

  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta",
      "eta", "theta", "iota", "kappa", "lambda", "mu"};

  private static void fill(BaseVariableWidthVector v, Shape shape, int rows, Random rnd) {
    v.allocateNew();
    double nullRate = rnd.nextDouble();
    for (int i = 0; i < rows; i++) {
      if (shape == Shape.ALL_NULL || shape == Shape.SOME_NULLS && rnd.nextDouble() < nullRate) {
        continue;
      }
      byte[] value = switch (shape) {
        case WORDS, SOME_NULLS -> {
          StringBuilder b = new StringBuilder();
          for (int k = rnd.nextInt(6); k >= 0; k--) {
            b.append(WORDS[rnd.nextInt(WORDS.length)]).append(rnd.nextInt(100)).append(' ');
          }
          yield b.toString().getBytes(StandardCharsets.UTF_8);
        }
        case RANDOM_BYTES -> {
          byte[] b = new byte[rnd.nextInt(40)];
          rnd.nextBytes(b);
          yield b;
        }
        case EMPTY_AND_SHORT -> new byte[rnd.nextInt(3)];
        case NUMBERED -> ("name-" + i).getBytes(StandardCharsets.UTF_8);
        case LONG -> {
          byte[] b = new byte[rnd.nextInt(6000)];
          for (int k = 0; k < b.length; k++) {
            b[k] = (byte) ('a' + rnd.nextInt(3));
          }
          yield b;
        }
        case ALL_NULL -> throw new AssertionError();
      };
      v.setSafe(i, value);
    }
    v.setValueCount(rows);
  }
}
