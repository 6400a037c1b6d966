package dev.lancet.file.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.schema.LanceSchemas;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.fragment.DataFile;
import org.lance.index.DistanceType;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * Tables whose data files are all written by the Java writer, opened by lance-core 7.0.0's
 * {@link Dataset}, against a copy whose data files lance-core's own file writer wrote from the
 * same batches (committed the same way): scans, filters, a delete, a merge insert, compaction,
 * a B-tree index and an IVF_FLAT vector index answer the same on both.
 */
class DatasetOnJavaFilesTest {
  @TempDir Path dir;

  static final int ROWS_PER_FILE = 1500;
  static final int FILES = 2;
  static final int DIM = 64;

  static Schema schema() {
    FieldType f32 = FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("score", FieldType.nullable(
            new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("category", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("embedding", FieldType.nullable(new ArrowType.FixedSizeList(DIM)),
            List.of(new Field("item", f32, null))),
        new Field("info", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
            new Field("a", FieldType.nullable(new ArrowType.Int(32, true)), null),
            new Field("b", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)))));
  }

  static void fill(VectorSchemaRoot root, int first, int rows, Random rnd) {
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    VarCharVector cat = (VarCharVector) root.getVector("category");
    FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
    Float4Vector items = (Float4Vector) emb.getDataVector();
    StructVector info = (StructVector) root.getVector("info");
    IntVector a = (IntVector) info.getChild("a");
    VarCharVector b = (VarCharVector) info.getChild("b");
    for (int i = 0; i < rows; i++) {
      long k = first + i;
      id.setSafe(i, k);
      if (k % 13 != 5) {
        name.setSafe(i, ("name-" + k).getBytes(StandardCharsets.UTF_8));
      }
      if (k % 17 != 3) {
        score.setSafe(i, rnd.nextDouble());
      }
      cat.setSafe(i, ("category-" + (k % 5)).getBytes(StandardCharsets.UTF_8));
      emb.setNotNull(i);
      for (int d = 0; d < DIM; d++) {
        items.setSafe(i * DIM + d, rnd.nextFloat());
      }
      if (k % 11 == 7) {
        info.setNull(i);
      } else {
        info.setIndexDefined(i);
        if (k % 3 != 0) {
          a.setSafe(i, (int) k * 7);
        }
        b.setSafe(i, ("b" + k % 4).getBytes(StandardCharsets.UTF_8));
      }
    }
    items.setValueCount(rows * DIM);
    root.setRowCount(rows);
  }

  /** Writes the table at {@code table} with data files from the Java writer or lance-core's. */
  Dataset create(Path table, boolean java, BufferAllocator alloc) throws Exception {
    Schema arrow = schema();
    dev.lancet.format.model.Schema lance = LanceSchemas.toLance(arrow, 0, Optional.empty());
    Random rnd = new Random(42);
    List<FragmentMetadata> fragments = new ArrayList<>();
    for (int f = 0; f < FILES; f++) {
      String name = (java ? "java-" : "core-") + f + ".lance";
      Path file = table.resolve("data").resolve(name);
      Files.createDirectories(file.getParent());
      int[] fields;
      long size;
      try (VectorSchemaRoot root = VectorSchemaRoot.create(arrow, alloc)) {
        fill(root, f * ROWS_PER_FILE, ROWS_PER_FILE, rnd);
        if (java) {
          try (LanceFileWriter w = LanceFileWriter.open(LocalFileOutput.create(file), lance,
              WriterOptions.defaults())) {
            w.write(root);
            WrittenLanceFile written = w.finish();
            fields = written.fieldIds().stream().mapToInt(Integer::intValue).toArray();
            size = written.sizeBytes();
          }
        } else {
          try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(
              file.toString(), alloc, null, Optional.empty(), Map.of())) {
            w.write(root);
          }
          fields = dev.lancet.file.schema.ColumnLayout.slotFieldIds(lance.fields(), 2, 1)
              .stream().mapToInt(Integer::intValue).toArray();
          size = Files.size(file);
        }
      }
      int[] columns = new int[fields.length];
      for (int i = 0; i < columns.length; i++) {
        columns[i] = i;
      }
      fragments.add(new FragmentMetadata(f, List.of(new DataFile(name, fields, columns, 2, 1,
          size, null)), (long) ROWS_PER_FILE, null, null));
    }
    new FragmentOperation.Overwrite(fragments, arrow).commit(alloc, table.toString(),
        Optional.empty(), Map.of()).close();
    return open(table, alloc);
  }

  static Dataset open(Path table, BufferAllocator alloc) {
    return Dataset.open().allocator(alloc).uri(table.toString()).build();
  }

  static Map<Long, String> rows(Dataset ds, ScanOptions options) throws Exception {
    Map<Long, String> out = new TreeMap<>();
    try (LanceScanner s = ds.newScan(options); ArrowReader r = s.scanBatches()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int i = 0; i < b.getRowCount(); i++) {
          StringBuilder sb = new StringBuilder();
          for (FieldVector v : b.getFieldVectors()) {
            if (!v.getName().equals("_distance")) {
              sb.append(v.getName()).append('=').append(RandomBatches.value(v, i)).append(' ');
            }
          }
          out.put((Long) b.getVector("id").getObject(i), sb.toString());
        }
      }
    }
    return out;
  }

  static ScanOptions all() {
    return new ScanOptions.Builder().build();
  }

  static ScanOptions where(String filter) {
    return new ScanOptions.Builder().filter(filter).build();
  }

  /**
   * Merges rows 100..299 (new values; matched rows updated) and 50 new ids (inserted) into
   * {@code ds} by id, the same rows for both tables.
   */
  static void mergeInsert(Dataset ds, BufferAllocator alloc) throws Exception {
    java.io.ByteArrayOutputStream ipc = new java.io.ByteArrayOutputStream();
    try (VectorSchemaRoot upd = VectorSchemaRoot.create(schema(), alloc)) {
      fill(upd, 100, 200, new Random(9));
      try (var w = new org.apache.arrow.vector.ipc.ArrowStreamWriter(upd, null, ipc)) {
        w.start();
        w.writeBatch();
        fill(upd, FILES * ROWS_PER_FILE, 50, new Random(10));
        w.writeBatch();
        w.end();
      }
    }
    try (var reader = new org.apache.arrow.vector.ipc.ArrowStreamReader(
            new java.io.ByteArrayInputStream(ipc.toByteArray()), alloc);
        org.apache.arrow.c.ArrowArrayStream stream =
            org.apache.arrow.c.ArrowArrayStream.allocateNew(alloc)) {
      org.apache.arrow.c.Data.exportArrayStream(alloc, reader, stream);
      var result = ds.mergeInsert(new org.lance.merge.MergeInsertParams(List.of("id"))
          .withMatchedUpdateAll().withNotMatched(
              org.lance.merge.MergeInsertParams.WhenNotMatched.InsertAll), stream);
      // 50 new ids, plus the 60 of 100..299 the delete removed (id % 10 = 0, category-1).
      assertThat(result.stats().numInsertedRows()).isEqualTo(110);
      assertThat(result.stats().numUpdatedRows()).isEqualTo(140);
      result.dataset().close();
    }
  }

  @Test
  void lanceCoreAnswersTheSameOnJavaWrittenFiles() throws Exception {
    try (BufferAllocator alloc = new RootAllocator();
        Dataset mine = create(dir.resolve("mine"), true, alloc);
        Dataset theirs = create(dir.resolve("theirs"), false, alloc)) {
      assertThat(mine.countRows()).isEqualTo((long) FILES * ROWS_PER_FILE);
      Map<Long, String> expected = rows(theirs, all());
      assertThat(expected).hasSize(FILES * ROWS_PER_FILE);
      assertThat(rows(mine, all())).isEqualTo(expected);
      for (String filter : List.of("score > 0.5", "category = 'category-3'", "name IS NULL",
          "info.a > 100 AND info.b = 'b1'", "info IS NULL")) {
        assertThat(rows(mine, where(filter))).as(filter).isEqualTo(rows(theirs, where(filter)))
            .isNotEmpty();
      }
      mine.delete("id % 10 = 0 OR category = 'category-1'");
      theirs.delete("id % 10 = 0 OR category = 'category-1'");
      try (Dataset m = open(dir.resolve("mine"), alloc);
          Dataset t = open(dir.resolve("theirs"), alloc)) {
        assertThat(m.countRows()).isEqualTo(t.countRows()).isLessThan((long) FILES * ROWS_PER_FILE);
        assertThat(rows(m, all())).isEqualTo(rows(t, all()));
        for (Dataset ds : List.of(m, t)) {
          mergeInsert(ds, alloc);
        }
      }
      try (Dataset m = open(dir.resolve("mine"), alloc);
          Dataset t = open(dir.resolve("theirs"), alloc)) {
        Map<Long, String> merged = rows(t, all());
        assertThat(merged).containsKey(FILES * ROWS_PER_FILE + 10L);
        assertThat(rows(m, all())).isEqualTo(merged);
        m.compact();
        t.compact();
      }
      try (Dataset m = open(dir.resolve("mine"), alloc);
          Dataset t = open(dir.resolve("theirs"), alloc)) {
        assertThat(rows(m, all())).isEqualTo(rows(t, all()));
        for (Dataset ds : List.of(m, t)) {
          ds.createIndex(IndexOptions.builder(List.of("id"), IndexType.BTREE, IndexParams.builder()
              .setScalarIndexParams(ScalarIndexParams.create("btree")).build())
              .withIndexName("id_idx").replace(true).build());
          ds.createIndex(IndexOptions.builder(List.of("embedding"), IndexType.IVF_FLAT,
              IndexParams.builder().setVectorIndexParams(
                  VectorIndexParams.ivfFlat(4, DistanceType.L2)).build())
              .withIndexName("emb_idx").replace(true).build());
        }
      }
      try (Dataset m = open(dir.resolve("mine"), alloc);
          Dataset t = open(dir.resolve("theirs"), alloc)) {
        assertThat(rows(m, where("id = 1234 OR id < 40"))).isEqualTo(rows(t, where("id = 1234 OR id < 40")))
            .isNotEmpty();
        float[] key = new float[DIM];
        Random rnd = new Random(7);
        for (int d = 0; d < DIM; d++) {
          key[d] = rnd.nextFloat();
        }
        ScanOptions knn = new ScanOptions.Builder().nearest(new Query.Builder()
            .setColumn("embedding").setKey(key).setK(10).setNprobes(4)
            .setDistanceType(DistanceType.L2).build()).build();
        // All 4 partitions probed: the IVF_FLAT search is exact on both, whatever k-means drew.
        Map<Long, String> found = rows(t, knn);
        assertThat(found).hasSize(10);
        assertThat(rows(m, knn)).isEqualTo(found);
      }
    }
  }
}
