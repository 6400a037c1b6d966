package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.datafile.lance.ReplayReader;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.schema.ColumnAlteration;

/**
 * Schema evolution through the table API against lance-core 7.0.0: the same changes made by
 * lance-core and by Lancet on copies of one table give the same schema (ids, positions, types,
 * nullability), the same data-file layout, and the same rows through both readers.
 */
class SchemaEvolutionInteropTest {
  @TempDir Path tmp;

  /** A Lancet-written table of 3 fragments (2.1, 450 rows of GeneratedRows) and its copy. */
  private Path[] twins(String name, String storage, boolean stable) throws Exception {
    Path a = tmp.resolve(name + "-lance");
    try (BufferAllocator alloc = new RootAllocator();
        GeneratedRows rows = new GeneratedRows(alloc, 0, 450, 100, 8);
        LanceTable t = LanceTable.create(a.toString(), rows, CreateOptions.builder()
            .storageVersion(storage).stableRowIds(stable).maxRowsPerFile(150).build())) {
      assertThat(t.version()).isEqualTo(1);
    }
    Path b = tmp.resolve(name + "-lancet");
    copy(a, b);
    return new Path[] {a, b};
  }

  @Test
  void castsMatchLanceCoresAlterColumns() throws Exception {
    for (String storage : List.of("2.0", "2.1")) {
      Path[] t = twins("cast-" + storage, storage, false);
      LanceDatasets.withDataset(t[0], Optional.empty(), ds -> {
        ds.alterColumns(List.of(
            new ColumnAlteration.Builder("name").castTo(ArrowType.LargeUtf8.INSTANCE).build()));
        return null;
      });
      try (LanceTable table = LanceTable.open(t[1].toString())) {
        table.alterColumns().cast("name", ArrowType.LargeUtf8.INSTANCE).commit();
      }
      assertSameEvolution(t[0], t[1]);
    }
  }

  @Test
  void aRenameAndACastByTheNewNameInOneCallMatchLanceCoresOneAlteration() throws Exception {
    Path[] t = twins("rename-cast", "2.1", false);
    LanceDatasets.withDataset(t[0], Optional.empty(), ds -> {
      ds.alterColumns(List.of(new ColumnAlteration.Builder("name").rename("label")
          .castTo(ArrowType.LargeUtf8.INSTANCE).build()));
      return null;
    });
    try (LanceTable table = LanceTable.open(t[1].toString())) {
      table.alterColumns().rename("name", "label").cast("label", ArrowType.LargeUtf8.INSTANCE)
          .commit();
    }
    assertSameEvolution(t[0], t[1]);
  }

  /**
   * lance-core 7.0.0's Java {@code alterColumns} commits a version for a numeric cast but leaves
   * the type unchanged (decision 0011). Pinned so a newer lance-core that fixes it is noticed:
   * then {@link #castsMatchLanceCoresAlterColumns} should compare numeric casts too.
   */
  @Test
  void lanceCore700LeavesNumericCastsUndone() throws Exception {
    Path t = twins("cast-defect", "2.1", false)[0];
    long after = LanceDatasets.withDataset(t, Optional.empty(), ds -> {
      ds.alterColumns(List.of(new ColumnAlteration.Builder("score").castTo(
          new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)).build()));
      return ds.version();
    });
    assertThat(after).isEqualTo(2);
    Manifest m = Snapshot.latest(new LocalObjectStore(t), t.toString()).manifest();
    assertThat(m.schema().fields().get(2).logicalType()).isEqualTo("double");
  }

  /**
   * Numeric and vector casts, spelled as decision 0011 says (the newest upstream shape: a new id
   * at the same position, the old data tombstoned, one new file per fragment): the values are
   * the cast values and lance-core 7.0.0 scans the result identically.
   */
  @Test
  void numericAndVectorCastsKeepPositionsAndLanceCoreReadsThem() throws Exception {
    for (String storage : List.of("2.0", "2.1")) {
      Path dir = twins("cast-numeric-" + storage, storage, true)[1];
      org.apache.arrow.vector.types.pojo.Field half = new org.apache.arrow.vector.types.pojo.Field(
          "embedding", FieldType.nullable(new ArrowType.FixedSizeList(8)),
          List.of(org.apache.arrow.vector.types.pojo.Field.nullable("item",
              new ArrowType.FloatingPoint(FloatingPointPrecision.HALF))));
      try (LanceTable table = LanceTable.open(dir.toString())) {
        assertThatThrownBy(() -> table.alterColumns().cast("embedding", half.getType()).commit())
            .isInstanceOf(InvalidInputException.class).hasMessageContaining("item type");
        assertThatThrownBy(() -> table.alterColumns().cast("name", new ArrowType.Int(8, true))
            .commit()).isInstanceOf(InvalidInputException.class).hasMessageContaining("family");
        assertThatThrownBy(() -> table.alterColumns().cast("id", new ArrowType.Int(8, true))
            .commit()).isInstanceOf(InvalidInputException.class).hasMessageContaining("does not fit");
        assertThat(table.version()).isEqualTo(1);
        table.alterColumns()
            .cast("score", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))
            .cast("id", new ArrowType.Int(32, true))
            .cast("embedding", half)
            .commit();
      }
      Manifest m = Snapshot.latest(new LocalObjectStore(dir), dir.toString()).manifest();
      assertThat(strip(m.schema().fields())).containsExactly(
          "5/-1 id int32 null=false enc=1 md=[] pk=false",
          "1/-1 name string null=true enc=2 md=[] pk=false",
          "4/-1 score float null=true enc=1 md=[] pk=false",
          "6/-1 embedding fixed_size_list:halffloat:8 null=true enc=1 md=[] pk=false");
      for (Fragment f : m.fragments()) {
        assertThat(f.files()).hasSize(2);
        assertThat(f.files().get(0).fields()).containsExactly(-2, 1, -2, -2);
        assertThat(f.files().get(1).fields()).containsExactly(4, 5, 6);
      }
      List<Map<String, Object>> rows;
      try (LanceTable table = LanceTable.open(dir.toString())) {
        rows = Rows.of(table.newScan().open());
      }
      assertThat(rows).hasSize(450);
      for (Map<String, Object> r : rows) {
        int id = (Integer) r.get("id");
        assertThat(r.get("score")).isEqualTo(id / 2.0f);
      }
      TableInteropTest.assertSameScan(dir, 2);
    }
  }

  @Test
  void renameNullabilityAddAndDropMatchLanceCore() throws Exception {
    Path[] t = twins("evolve", "2.1", false);
    LanceDatasets.withDataset(t[0], Optional.empty(), ds -> {
      ds.alterColumns(List.of(new ColumnAlteration.Builder("name").rename("label").build(),
          new ColumnAlteration.Builder("score").nullable(false).build()));
      ds.addColumns(List.of(org.apache.arrow.vector.types.pojo.Field.nullable("note",
          ArrowType.Utf8.INSTANCE)));
      ds.dropColumns(List.of("embedding"));
      return null;
    });
    try (LanceTable table = LanceTable.open(t[1].toString())) {
      table.alterColumns().rename("name", "label").nullable("score", false).commit();
      table.addColumns().nulls(org.apache.arrow.vector.types.pojo.Field.nullable("note",
          ArrowType.Utf8.INSTANCE)).commit();
      table.dropColumns("embedding");
      assertThatThrownBy(() -> table.alterColumns().nullable("note", false).commit())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("450 null");
    }
    assertSameEvolution(t[0], t[1]);
  }

  @Test
  void sqlColumnsMatchLanceCoresSqlExpressions() throws Exception {
    for (boolean stable : List.of(false, true)) {
      Path[] t = twins("sql-" + stable, "2.1", stable);
      LanceDatasets.withDataset(t[0], Optional.empty(), ds -> {
        ds.addColumns(new org.lance.schema.SqlExpressions.Builder()
            .withExpression("pct", "score * 100")
            .withExpression("twice", "id * 2 + 1")
            .withExpression("shout", "upper(name)").build(), Optional.empty());
        return null;
      });
      try (LanceTable table = LanceTable.open(t[1].toString())) {
        table.addColumns().sql("pct", "score * 100").sql("twice", "id * 2 + 1")
            .sql("shout", "upper(name)").commit();
      }
      assertSameEvolution(t[0], t[1]);
    }
  }

  @Test
  void aBadSqlColumnNamesTheColumnAndCommitsNothing() throws Exception {
    Path dir = twins("sql-bad", "2.1", false)[1];
    try (LanceTable table = LanceTable.open(dir.toString())) {
      assertThatThrownBy(() -> table.addColumns().sql("x", "nope + 1").commit())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("sql(\"x\"")
          .hasMessageContaining("nope");
      assertThatThrownBy(() -> table.addColumns().sql("y", "NULL").commit())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("CAST");
      assertThat(table.version()).isEqualTo(1);
    }
  }

  @Test
  void computedAndAlignedColumnsReadBackInBothReaders() throws Exception {
    Path dir = twins("computed", "2.1", true)[1];
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable table = LanceTable.open(dir.toString())) {
      Schema doubled = new Schema(List.of(org.apache.arrow.vector.types.pojo.Field.nullable(
          "double_id", new ArrowType.Int(64, true))));
      table.addColumns().computed(doubled, List.of("id"), (in, a) -> {
        VectorSchemaRoot out = VectorSchemaRoot.create(doubled, a);
        BigIntVector id = (BigIntVector) in.getVector("id");
        BigIntVector d = (BigIntVector) out.getVector(0);
        d.allocateNew(in.getRowCount());
        for (int i = 0; i < in.getRowCount(); i++) {
          d.set(i, id.get(i) * 2);
        }
        out.setRowCount(in.getRowCount());
        return out;
      }).commit();
      // Aligned: one row per live row, in scan order (here: id + 1000).
      Schema plus = new Schema(List.of(org.apache.arrow.vector.types.pojo.Field.nullable(
          "id_plus", new ArrowType.Int(64, true))));
      List<VectorSchemaRoot> batches = new ArrayList<>();
      for (int start = 0; start < 450; start += 200) {
        VectorSchemaRoot r = VectorSchemaRoot.create(plus, alloc);
        int n = Math.min(200, 450 - start);
        BigIntVector v = (BigIntVector) r.getVector(0);
        v.allocateNew(n);
        for (int i = 0; i < n; i++) {
          v.set(i, start + i + 1000);
        }
        r.setRowCount(n);
        batches.add(r);
      }
      try (ReplayReader reader = new ReplayReader(alloc, plus, batches, true)) {
        table.addColumns().from(reader).commit();
      }
      assertThat(table.version()).isEqualTo(3);
    }
    for (long v = 1; v <= 3; v++) {
      TableInteropTest.assertSameScan(dir, v);
    }
    List<Map<String, Object>> rows;
    try (LanceTable table = LanceTable.open(dir.toString())) {
      rows = Rows.of(table.newScan().select("id", "double_id", "id_plus").open());
    }
    assertThat(rows).hasSize(450);
    for (Map<String, Object> r : rows) {
      long id = (Long) r.get("id");
      assertThat(r.get("double_id")).isEqualTo(id * 2);
      assertThat(r.get("id_plus")).isEqualTo(id + 1000);
    }
  }

  /** Same schema (every facet), same data-file slots per fragment, same rows in both readers. */
  static void assertSameEvolution(Path lance, Path lancet) throws java.io.IOException {
    Manifest a = Snapshot.latest(new LocalObjectStore(lance), lance.toString()).manifest();
    Manifest b = Snapshot.latest(new LocalObjectStore(lancet), lancet.toString()).manifest();
    assertThat(strip(b.schema().fields())).as("schema").isEqualTo(strip(a.schema().fields()));
    assertThat(b.fragments()).hasSameSizeAs(a.fragments());
    // lance-core 7.0.0 leaves a cast column's old id in its old file; the newest upstream (and
    // Lancet, decision 0011) tombstones it: ids no longer in the schema compare as tombstones.
    java.util.Set<Integer> live = new java.util.HashSet<>();
    a.schema().fields().forEach(f -> live.add(f.id()));
    for (int i = 0; i < a.fragments().size(); i++) {
      assertThat(slots(b.fragments().get(i), live)).as("data files of fragment %d", i)
          .isEqualTo(slots(a.fragments().get(i), live));
    }
    assertThat(Rows.of(open(lancet))).isEqualTo(Rows.of(open(lance)));
    TableInteropTest.assertSameScan(lance, a.version());
    TableInteropTest.assertSameScan(lancet, b.version());
  }

  private static org.apache.arrow.vector.ipc.ArrowReader open(Path dir) {
    LanceTable t = LanceTable.open(dir.toString());
    return new ClosingReader(t.newScan().open(), t);
  }

  private static List<String> strip(List<Field> fields) {
    List<String> out = new ArrayList<>();
    for (Field f : fields) {
      out.add(f.id() + "/" + f.parentId() + " " + f.name() + " " + f.logicalType() + " null="
          + f.nullable() + " enc=" + f.encodingValue() + " md=" + f.metadata().keySet()
          + " pk=" + f.unenforcedPrimaryKey());
    }
    return out;
  }

  private static List<List<Integer>> slots(Fragment f, java.util.Set<Integer> live) {
    List<List<Integer>> out = new ArrayList<>();
    for (DataFile df : f.files()) {
      out.add(df.fields().stream().map(id -> live.contains(id) ? id : -2).toList());
      out.add(df.columnIndices());
    }
    return out;
  }

  static void copy(Path from, Path to) throws java.io.IOException {
    try (var walk = java.nio.file.Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (java.nio.file.Files.isDirectory(p)) {
          java.nio.file.Files.createDirectories(dest);
        } else {
          java.nio.file.Files.copy(p, dest);
        }
      }
    }
  }

}
