package dev.lancet.file.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches the writer must either write correctly or refuse whole, with an error naming the
 * column (and row), leaving the writer usable and the file readable by lance-core.
 */
class HostileBatchesTest {
  @TempDir Path dir;

  static org.apache.arrow.vector.types.pojo.Schema arrow(org.apache.arrow.vector.types.pojo.Field... f) {
    return new org.apache.arrow.vector.types.pojo.Schema(List.of(f));
  }

  static org.apache.arrow.vector.types.pojo.Field f(String name, boolean nullable, ArrowType t,
      org.apache.arrow.vector.types.pojo.Field... kids) {
    return new org.apache.arrow.vector.types.pojo.Field(name, new FieldType(nullable, t, null),
        kids.length == 0 ? null : List.of(kids));
  }

  @Test
  void aNullInANonNullableFieldIsRefusedWholeAndTheWriterGoesOn() throws Exception {
    var schema = arrow(f("id", false, new ArrowType.Int(64, true)),
        f("name", true, ArrowType.Utf8.INSTANCE));
    Schema lance = LanceSchemas.toLance(schema, 0, Optional.empty());
    Path file = dir.resolve("a.lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot good = VectorSchemaRoot.create(schema, alloc);
        VectorSchemaRoot bad = VectorSchemaRoot.create(schema, alloc);
        LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
            WriterOptions.defaults())) {
      fillIds(good, 0, 10);
      fillIds(bad, 10, 10);
      ((BigIntVector) bad.getVector("id")).setNull(4);
      w.write(good);
      assertThatThrownBy(() -> w.write(bad)).isInstanceOf(InvalidBatchException.class)
          .hasMessageContaining("column 'id'").hasMessageContaining("row 4")
          .hasMessageContaining("not nullable");
      w.write(good);
      assertThat(w.finish().rows()).isEqualTo(20);
      try (VectorSchemaRoot both = VectorSchemaRoot.create(schema, alloc)) {
        fillIds(both, 0, 20);
        for (int i = 0; i < 20; i++) {
          ((BigIntVector) both.getVector("id")).set(i, i % 10);
          ((VarCharVector) both.getVector("name")).setSafe(i, ("n" + i % 10).getBytes(StandardCharsets.UTF_8));
        }
        WriterDifferentialTest.compareWithLanceCore(file, both, alloc);
      }
    }
  }

  private static void fillIds(VectorSchemaRoot root, int first, int rows) {
    root.allocateNew();
    for (int i = 0; i < rows; i++) {
      ((BigIntVector) root.getVector("id")).setSafe(i, first + i);
      ((VarCharVector) root.getVector("name")).setSafe(i,
          ("n" + (first + i)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(rows);
  }

  @Test
  void aNonNullableChildOfANullStructMayBeNullInArrow() throws Exception {
    var schema = arrow(f("s", true, ArrowType.Struct.INSTANCE,
        f("x", false, new ArrowType.Int(32, true))));
    Schema lance = LanceSchemas.toLance(schema, 0, Optional.empty());
    Path file = dir.resolve("s.lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      root.allocateNew();
      var s = (org.apache.arrow.vector.complex.StructVector) root.getVector("s");
      IntVector x = (IntVector) s.getChild("x");
      for (int i = 0; i < 50; i++) {
        if (i % 4 == 0) {
          s.setNull(i); // x stays null underneath: allowed, the struct is null
        } else {
          s.setIndexDefined(i);
          x.setSafe(i, i);
        }
      }
      s.setValueCount(50);
      root.setRowCount(50);
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
          WriterOptions.defaults())) {
        w.write(root);
        w.finish();
      }
      WriterDifferentialTest.compareWithLanceCore(file, root, alloc);
      x.setNull(5); // under a valid struct: refused
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(dir.resolve("t.lance")),
          lance, WriterOptions.defaults())) {
        assertThatThrownBy(() -> w.write(root)).isInstanceOf(InvalidBatchException.class)
            .hasMessageContaining("column 's.x'").hasMessageContaining("row 5");
      }
      assertThat(dir.resolve("t.lance")).doesNotExist();
    }
  }

  @Test
  void zeroRowBatchesAndZeroRowFilesAreWritten() throws Exception {
    var schema = arrow(f("id", false, new ArrowType.Int(64, true)),
        f("name", true, ArrowType.Utf8.INSTANCE));
    Schema lance = LanceSchemas.toLance(schema, 0, Optional.empty());
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot empty = VectorSchemaRoot.create(schema, alloc);
        VectorSchemaRoot some = VectorSchemaRoot.create(schema, alloc)) {
      empty.allocateNew();
      empty.setRowCount(0);
      Path none = dir.resolve("none.lance");
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(none), lance,
          WriterOptions.defaults())) {
        w.write(empty);
        assertThat(w.finish().rows()).isZero();
      }
      WriterDifferentialTest.compareWithLanceCore(none, empty, alloc);
      fillIds(some, 0, 30);
      Path file = dir.resolve("some.lance");
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
          WriterOptions.defaults())) {
        w.write(empty);
        w.write(some);
        w.write(empty);
        w.finish();
      }
      WriterDifferentialTest.compareWithLanceCore(file, some, alloc);
    }
  }

  @Test
  void batchesThatDoNotMatchTheSchemaAreRefusedByColumn() throws Exception {
    var schema = arrow(f("id", false, new ArrowType.Int(64, true)),
        f("name", true, ArrowType.Utf8.INSTANCE));
    Schema lance = LanceSchemas.toLance(schema, 0, Optional.empty());
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot wrongType = VectorSchemaRoot.create(arrow(
            f("id", false, new ArrowType.Int(32, true)), f("name", true, ArrowType.Utf8.INSTANCE)),
            alloc);
        VectorSchemaRoot missing = VectorSchemaRoot.create(arrow(
            f("id", false, new ArrowType.Int(64, true))), alloc);
        LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(dir.resolve("x.lance")),
            lance, WriterOptions.defaults())) {
      wrongType.allocateNew();
      wrongType.setRowCount(0);
      missing.allocateNew();
      missing.setRowCount(0);
      assertThatThrownBy(() -> w.write(wrongType)).isInstanceOf(InvalidBatchException.class)
          .hasMessageContaining("column 'id' is Int(32, true) in the batch but Int(64, true)");
      assertThatThrownBy(() -> w.write(missing)).isInstanceOf(InvalidBatchException.class)
          .hasMessageContaining("no column 'name'");
    }
  }

  @Test
  void shapesTheWriterDoesNotWriteAreRefusedAtOpenNamingTheColumn() throws Exception {
    var packed = LanceSchemas.toLance(arrow(f("p", true, ArrowType.Struct.INSTANCE,
        f("x", true, new ArrowType.Int(32, true)))), 0, Optional.empty());
    List<Field> fields = new ArrayList<>(packed.fields());
    fields.set(0, fields.get(0).toBuilder()
        .metadata(Map.of("packed", ByteString.copyFromUtf8("true"))).build());
    Schema packedSchema = new Schema(fields, Map.of());
    Path file = dir.resolve("p.lance");
    assertThatThrownBy(() -> LanceFileWriter.open(LocalFileOutput.create(file), packedSchema,
        WriterOptions.defaults())).isInstanceOf(InvalidBatchException.class)
        .hasMessageContaining("column 'p' is a packed struct");
    var decimal = LanceSchemas.toLance(arrow(f("d", true, new ArrowType.Decimal(10, 2, 128))),
        0, Optional.empty());
    assertThatThrownBy(() -> LanceFileWriter.open(LocalFileOutput.create(dir.resolve("d.lance")),
        decimal, WriterOptions.defaults())).isInstanceOf(InvalidBatchException.class)
        .hasMessageContaining("column 'd' is Arrow type Decimal");
    assertThat(dir.resolve("d.lance")).doesNotExist();
  }

  @Test
  void nullItemsInsideVectorsAreWritten() throws Exception {
    var schema = arrow(f("v", true, new ArrowType.FixedSizeList(4),
        f("item", true, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
    Schema lance = LanceSchemas.toLance(schema, 0, Optional.empty());
    Path file = dir.resolve("v.lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      var items = (org.apache.arrow.vector.Float4Vector) v.getDataVector();
      for (int i = 0; i < 3; i++) {
        v.setNotNull(i);
        for (int k = 0; k < 4; k++) {
          if (!(i == 2 && k == 1)) {
            items.setSafe(i * 4 + k, k);
          }
        }
      }
      items.setValueCount(12);
      v.setValueCount(3);
      root.setRowCount(3);
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
          WriterOptions.defaults())) {
        w.write(root);
        w.finish();
      }
      assertThat(FileLayouts.read(file).describe()).contains("has_validity: true");
      WriterDifferentialTest.compareWithLanceCore(file, root, alloc);
    }
  }

  @Test
  void largeValuesGoToFullZipPagesAndReadBack() throws Exception {
    var schema = arrow(f("blob", true, ArrowType.Binary.INSTANCE));
    Schema lance = LanceSchemas.toLance(schema, 0, Optional.empty());
    Path file = dir.resolve("big.lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      root.allocateNew();
      var v = (org.apache.arrow.vector.VarBinaryVector) root.getVector("blob");
      Random rnd = new Random(3);
      for (int i = 0; i < 6; i++) {
        if (i == 2) {
          continue;
        }
        byte[] b = new byte[i == 4 ? 3 << 20 : 1 + rnd.nextInt(70_000)];
        rnd.nextBytes(b);
        v.setSafe(i, b);
      }
      v.setValueCount(6);
      root.setRowCount(6);
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
          WriterOptions.defaults().withPageBytes(1 << 20))) {
        w.write(root);
        w.finish();
      }
      assertThat(FileLayouts.read(file).describe()).contains("full_zip_layout");
      WriterDifferentialTest.compareWithLanceCore(file, root, alloc);
    }
  }

  /**
   * Streaming: over 300 batches the writer holds at most about a page per column (plus the
   * slice being appended), while the file grows; the file reads back whole.
   */
  @Test
  void bufferedBytesStayBoundedByAPagePerColumn() throws Exception {
    var schema = FileSizeTest.benchmarkSchema();
    Path file = dir.resolve("stream.lance");
    long pageBytes = 256 << 10;
    long max = 0;
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc);
        LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file),
            LanceSchemas.toLance(schema, 0, Optional.empty()),
            WriterOptions.defaults().withPageBytes(pageBytes))) {
      Random rnd = new Random(4);
      for (int b = 0; b < 300; b++) {
        FileSizeTest.fillBenchmark(root, b * 1000L, 1000, rnd);
        w.write(root);
        max = Math.max(max, w.bufferedBytes());
      }
      assertThat(w.bytesWritten()).isGreaterThan(150L << 20);
      // a page per column, each at most one 4,096-row slice (here a 1,000-row batch) over
      long bound = 4 * pageBytes + 1000L * (8 + 16 + 8 + 512 + 4 * 2);
      assertThat(max).isLessThanOrEqualTo(bound);
      assertThat(w.finish().rows()).isEqualTo(300_000);
    }
    assertThat(FileLayouts.read(file).columns().get(3).getPagesCount()).isGreaterThan(100);
  }

  @Test
  void anAbortedFileLeavesNothing() throws Exception {
    var schema = arrow(f("id", false, new ArrowType.Int(64, true)),
        f("name", true, ArrowType.Utf8.INSTANCE));
    Path file = dir.resolve("gone.lance");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc);
        LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file),
            LanceSchemas.toLance(schema, 0, Optional.empty()),
            WriterOptions.defaults().withPageBytes(100))) {
      fillIds(root, 0, 5000);
      w.write(root);
      assertThat(Files.size(file)).isPositive();
      w.abort();
    }
    assertThat(file).doesNotExist();
  }
}
