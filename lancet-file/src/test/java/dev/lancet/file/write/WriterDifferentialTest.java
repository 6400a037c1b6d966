package dev.lancet.file.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.format.model.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

/**
 * Random schemas and data written by the Java writer, in random batches (slices of one root)
 * and page sizes, read back by lance-core 7.0.0's {@link LanceFileReader} and compared value by
 * value with what was written; the files' schema and row count must be lance-core's too. The
 * layouts the writer chose across the run are collected and each must have been met.
 */
class WriterDifferentialTest {
  @TempDir Path dir;

  static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

  @AfterAll
  static void everyLayoutWasMet() {
    assertThat(LANCET_READ).as("columns Lancet's reader decoded").isNotEmpty();
    assertThat(SEEN).contains("constant_layout", "mini_block flat", "mini_block fixed_size_list",
        "mini_block inline_bitpacking", "mini_block variable", "mini_block dictionary",
        "full_zip fixed_size_list", "full_zip variable", "def levels", "two nullable layers",
        "rep levels", "mini_block rep levels", "full_zip rep levels", "constant rep levels",
        "mini_block null items", "full_zip null items", "mini_block fsst");
  }

  /** Seeds 0..59 (-Dlancet.writer.seeds=N for more). */
  static java.util.stream.IntStream seeds() {
    return java.util.stream.IntStream.range(0, Integer.getInteger("lancet.writer.seeds", 60));
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void randomFilesReadBackByLanceCore(int seed) throws Exception {
    long s = 0x5eedL * 1000 + seed;
    Random rnd = new Random(s);
    int[] sizes = {0, 1, 100, 1023, 1025, 3000, 9000};
    int rows = sizes[rnd.nextInt(sizes.length)];
    int nFields = 1 + rnd.nextInt(6);
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < nFields; i++) {
      fields.add(RandomBatches.field("f" + i, rnd, 2));
    }
    org.apache.arrow.vector.types.pojo.Schema arrow =
        new org.apache.arrow.vector.types.pojo.Schema(fields);
    System.out.println("seed " + s + ": " + rows + " rows of " + arrow);
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(arrow, alloc)) {
      for (FieldVector v : root.getFieldVectors()) {
        RandomBatches.fill(v, rows, rnd);
      }
      root.setRowCount(rows);
      Schema lance = LanceSchemas.toLance(arrow, 0, Optional.empty());
      long pageBytes = rnd.nextBoolean() ? WriterOptions.DEFAULT_PAGE_BYTES : 1 + rnd.nextInt(20_000);
      Path file = dir.resolve("f" + seed + ".lance");
      WrittenLanceFile written;
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
          WriterOptions.defaults().withPageBytes(pageBytes).withFsst(rnd.nextBoolean()))) {
        int at = 0;
        while (at < rows || at == 0) {
          int len = Math.min(rows - at, rnd.nextInt(4) == 0 ? rows : 1 + rnd.nextInt(2000));
          try (VectorSchemaRoot slice = root.slice(at, len)) {
            w.write(slice);
          }
          at += len;
          if (rows == 0) {
            break;
          }
        }
        written = w.finish();
      }
      assertThat(written.rows()).isEqualTo(rows);
      assertThat(written.sizeBytes()).isEqualTo(java.nio.file.Files.size(file));
      record(FileLayouts.read(file));
      compareWithLanceCore(file, root, alloc);
      compareWithLancetReader(file, root, alloc);
    }
  }

  /**
   * Lancet's own reader on the same file, for the columns it decodes (top-level leaves of the
   * shapes decision 0025 covers; the rest of the file is lance-core's to check above).
   */
  static void compareWithLancetReader(Path file, VectorSchemaRoot expected, BufferAllocator alloc)
      throws Exception {
    dev.lancet.file.read.LanceFile mine;
    try {
      mine = dev.lancet.file.read.LanceFile.open(file);
    } catch (dev.lancet.file.UnsupportedFileException e) {
      return; // nested fields: not the Java reader's yet
    }
    int rows = expected.getRowCount();
    try (dev.lancet.file.read.LanceFile f = mine) {
      assertThat(f.numRows()).isEqualTo(rows);
      List<dev.lancet.file.RowRange> all = List.of(new dev.lancet.file.RowRange(0, rows));
      for (Field field : expected.getSchema().getFields()) {
        String c = field.getName();
        if (rows == 0 || f.unsupported(List.of(c), all).isPresent()) {
          continue;
        }
        LANCET_READ.add(c);
        try (ArrowReader r = f.read(List.of(c), all, 777, alloc)) {
          int at = 0;
          while (r.loadNextBatch()) {
            VectorSchemaRoot got = r.getVectorSchemaRoot();
            for (int i = 0; i < got.getRowCount(); i++) {
              Object want = RandomBatches.value(expected.getVector(c), at + i);
              Object have = RandomBatches.value(got.getVector(0), i);
              if (!java.util.Objects.equals(want, have)) {
                throw new AssertionError(file + " column " + c + " row " + (at + i)
                    + ": wrote " + want + ", Lancet's reader read " + have);
              }
            }
            at += got.getRowCount();
          }
          assertThat(at).isEqualTo(rows);
        }
      }
    }
  }

  /** Columns Lancet's reader read back across the run. */
  static final Set<String> LANCET_READ = ConcurrentHashMap.newKeySet();

  /** Lists of values too large for mini-blocks: full-zip pages with repetition levels. */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 3})
  void listsOfLargeValuesReadBackByLanceCore(int seed) throws Exception {
    Random rnd = new Random(77 + seed);
    Field longStrings = new Field("item", org.apache.arrow.vector.types.pojo.FieldType.nullable(
        org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE), null);
    Field vectors = new Field("item", org.apache.arrow.vector.types.pojo.FieldType.nullable(
        new org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList(128)), List.of(
            new Field("item", org.apache.arrow.vector.types.pojo.FieldType.notNullable(
                new org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint(
                    org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE)), null)));
    org.apache.arrow.vector.types.pojo.Schema arrow = new org.apache.arrow.vector.types.pojo.Schema(
        List.of(new Field("ls", org.apache.arrow.vector.types.pojo.FieldType.nullable(
            org.apache.arrow.vector.types.pojo.ArrowType.List.INSTANCE), List.of(longStrings)),
            new Field("lv", org.apache.arrow.vector.types.pojo.FieldType.nullable(
                org.apache.arrow.vector.types.pojo.ArrowType.List.INSTANCE), List.of(vectors))));
    int rows = 1 + rnd.nextInt(700);
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(arrow, alloc)) {
      for (FieldVector v : root.getFieldVectors()) {
        var list = (org.apache.arrow.vector.complex.ListVector) v;
        int[] lens = new int[rows];
        int total = 0;
        for (int i = 0; i < rows; i++) {
          lens[i] = rnd.nextInt(4);
          total += lens[i];
        }
        RandomBatches.fill(list.getDataVector(), total, rnd, RandomBatches.Shape.LONG, 0.2);
        for (int i = 0; i < rows; i++) {
          if (i % 9 == 4) {
            list.setNull(i);
            continue;
          }
          list.startNewValue(i);
          list.endValue(i, lens[i]);
        }
        list.setValueCount(rows);
      }
      root.setRowCount(rows);
      Schema lance = LanceSchemas.toLance(arrow, 0, Optional.empty());
      Path file = dir.resolve("large" + seed + ".lance");
      try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
          WriterOptions.defaults().withPageBytes(seed % 2 == 0 ? 1 << 20 : 50_000))) {
        w.write(root);
        w.finish();
      }
      record(FileLayouts.read(file));
      assertThat(FileLayouts.read(file).describe()).contains("bits_rep: 1");
      compareWithLanceCore(file, root, alloc);
    }
  }

  private static void record(FileLayouts.Layout layout) {
    for (var c : layout.columns()) {
      for (var p : c.getPagesList()) {
        String t = FileLayouts.layoutText(p);
        String kind = t.startsWith("mini_block") ? "mini_block" : t.startsWith("full_zip")
            ? "full_zip" : "constant_layout";
        if (t.contains("rep_compression") || t.contains("bits_rep")
            || (kind.equals("constant_layout") && t.contains("LIST"))) {
          SEEN.add("rep levels");
          SEEN.add((kind.equals("constant_layout") ? "constant" : kind) + " rep levels");
        }
        if (kind.equals("constant_layout")) {
          SEEN.add(kind);
          continue;
        }
        if (t.contains("fsst {")) {
          SEEN.add(kind + " fsst");
        }
        if (t.contains("has_validity: true")) {
          SEEN.add(kind + " null items");
        }
        if (t.contains("dictionary {")) {
          SEEN.add(kind + " dictionary");
        } else if (t.contains("fixed_size_list")) {
          SEEN.add(kind + " fixed_size_list");
        } else if (t.contains("inline_bitpacking")) {
          SEEN.add(kind + " inline_bitpacking");
        } else if (t.contains("variable")) {
          SEEN.add(kind + " variable");
        } else {
          SEEN.add(kind + " flat");
        }
        if (t.contains("def_compression") || t.contains("bits_def")) {
          SEEN.add("def levels");
        }
        if (t.split("REPDEF_NULLABLE_ITEM", -1).length > 2) {
          SEEN.add("two nullable layers");
        }
      }
    }
  }

  static void compareWithLanceCore(Path file, VectorSchemaRoot expected, BufferAllocator alloc)
      throws Exception {
    try (LanceFileReader core = LanceFileReader.open(file.toString(), alloc)) {
      assertThat(core.numRows()).isEqualTo(expected.getRowCount());
      assertThat(core.schema().getFields()).hasSize(expected.getSchema().getFields().size());
      List<String> cols = new ArrayList<>();
      expected.getSchema().getFields().forEach(f -> cols.add(f.getName()));
      int rows = expected.getRowCount();
      if (rows == 0) {
        return;
      }
      try (ArrowReader r = core.readAll(cols, List.of(Range.of(0, rows)), 1000)) {
        int at = 0;
        while (r.loadNextBatch()) {
          VectorSchemaRoot got = r.getVectorSchemaRoot();
          for (int c = 0; c < cols.size(); c++) {
            FieldVector g = got.getVector(c);
            FieldVector e = expected.getVector(cols.get(c));
            for (int i = 0; i < got.getRowCount(); i++) {
              Object want = RandomBatches.value(e, at + i);
              Object have = RandomBatches.value(g, i);
              if (!java.util.Objects.equals(want, have)) {
                throw new AssertionError(file + " column " + cols.get(c) + " row " + (at + i)
                    + ": wrote " + want + ", lance-core read " + have);
              }
            }
          }
          at += got.getRowCount();
        }
        assertThat(at).isEqualTo(rows);
      }
    }
  }
}
