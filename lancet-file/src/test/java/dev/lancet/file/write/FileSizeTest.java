package dev.lancet.file.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.schema.LanceSchemas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File sizes of the Java writer against lance-core 7.0.0's on the same batches: the benchmark's
 * table (id, name, score, embedding[128]) and a low-cardinality table. Issue 26 bounds the ratio
 * at 1.15; both files are also read back by lance-core.
 */
class FileSizeTest {
  @TempDir Path dir;

  static final int ROWS = 100_000;

  static Schema benchmarkSchema() {
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("score", FieldType.nullable(
            new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("embedding", FieldType.nullable(new ArrowType.FixedSizeList(128)),
            List.of(new Field("item", FieldType.notNullable(
                new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
  }

  /** The statements harness's rows: id, "name-<id>", a random score, a random vector. */
  static void fillBenchmark(VectorSchemaRoot root, long first, int rows, Random rnd) {
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
    Float4Vector items = (Float4Vector) emb.getDataVector();
    items.setInitialCapacity(rows * 128);
    items.allocateNew();
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, first + i);
      name.setSafe(i, ("name-" + (first + i)).getBytes(StandardCharsets.UTF_8));
      score.setSafe(i, rnd.nextDouble());
      emb.setNotNull(i);
      for (int d = 0; d < 128; d++) {
        items.set(i * 128 + d, rnd.nextFloat());
      }
    }
    items.setValueCount(rows * 128);
    root.setRowCount(rows);
  }

  static Schema lowCardinalitySchema() {
    return new Schema(List.of(
        new Field("country", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("status", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("category", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("rating", FieldType.nullable(new ArrowType.Int(32, true)), null)));
  }

  static void fillLowCardinality(VectorSchemaRoot root, int rows, Random rnd) {
    root.allocateNew();
    String[] status = {"active", "suspended", "closed"};
    for (int i = 0; i < rows; i++) {
      ((VarCharVector) root.getVector("country")).setSafe(i,
          ("country-" + rnd.nextInt(50)).getBytes(StandardCharsets.UTF_8));
      ((VarCharVector) root.getVector("status")).setSafe(i,
          status[rnd.nextInt(3)].getBytes(StandardCharsets.UTF_8));
      if (i % 20 != 0) {
        ((VarCharVector) root.getVector("category")).setSafe(i,
            ("a rather long category label number " + rnd.nextInt(12))
                .getBytes(StandardCharsets.UTF_8));
      }
      ((IntVector) root.getVector("rating")).setSafe(i, 1 + rnd.nextInt(5));
    }
    root.setRowCount(rows);
  }

  @Test
  void theBenchmarkTableIsWithinTheBound() throws Exception {
    check("benchmark", benchmarkSchema(), root -> fillBenchmark(root, 0, ROWS, new Random(1)),
        WriterOptions.defaults());
  }

  @Test
  void theBenchmarkTableWithFsstIsWithinTheBound() throws Exception {
    check("benchmark-fsst", benchmarkSchema(),
        root -> fillBenchmark(root, 0, ROWS, new Random(1)), WriterOptions.defaults().withFsst(true));
  }

  @Test
  void aLowCardinalityTableIsWithinTheBound() throws Exception {
    check("low-cardinality", lowCardinalitySchema(),
        root -> fillLowCardinality(root, ROWS, new Random(2)), WriterOptions.defaults());
  }

  private void check(String what, Schema schema, java.util.function.Consumer<VectorSchemaRoot> fill,
      WriterOptions options) throws Exception {
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      fill.accept(root);
      Path java = dir.resolve(what + "-java.lance");
      Path core = dir.resolve(what + "-core.lance");
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(java),
          LanceSchemas.toLance(schema, 0, Optional.empty()), options)) {
        w.write(root);
        w.finish();
      }
      try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(core.toString(),
          alloc, null, Optional.empty(), Map.of())) {
        w.write(root);
      }
      double ratio = (double) Files.size(java) / Files.size(core);
      System.out.printf("%s: Java %d bytes, lance-core %d bytes, ratio %.3f%n", what,
          Files.size(java), Files.size(core), ratio);
      System.out.println("Java:\n" + FileLayouts.read(java).describe());
      System.out.println("lance-core:\n" + FileLayouts.read(core).describe());
      assertThat(ratio).as(what + " size ratio").isLessThanOrEqualTo(1.15);
      WriterDifferentialTest.compareWithLanceCore(java, root, alloc);
    }
  }
}
