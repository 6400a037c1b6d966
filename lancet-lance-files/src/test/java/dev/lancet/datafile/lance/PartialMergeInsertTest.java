package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge insert whose source has only some of the table's columns (lance-core's partial
 * upsert): matched rows take the given columns and keep the others and their row ids, inserted
 * rows get null in the others. Checked against a model over random tables and sources.
 */
class PartialMergeInsertTest {
  @TempDir Path tmp;

  private static final Schema TABLE = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE),
      Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
  private static final Schema SOURCE = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  /** A row of the model: name and score (null kept as null). */
  record Row(String name, Double score) {}

  private static VectorSchemaRoot tableRows(BufferAllocator a, long[] ids, Random rnd) {
    VectorSchemaRoot r = VectorSchemaRoot.create(TABLE, a);
    for (int i = 0; i < ids.length; i++) {
      ((BigIntVector) r.getVector("id")).setSafe(i, ids[i]);
      ((VarCharVector) r.getVector("name")).setSafe(i,
          ("n" + ids[i]).getBytes(StandardCharsets.UTF_8));
      ((Float8Vector) r.getVector("score")).setSafe(i, rnd.nextInt(1000));
    }
    r.setRowCount(ids.length);
    return r;
  }

  private static VectorSchemaRoot sourceRows(BufferAllocator a, long[] ids, double[] scores) {
    VectorSchemaRoot r = VectorSchemaRoot.create(SOURCE, a);
    for (int i = 0; i < ids.length; i++) {
      ((BigIntVector) r.getVector("id")).setSafe(i, ids[i]);
      ((Float8Vector) r.getVector("score")).setSafe(i, scores[i]);
    }
    r.setRowCount(ids.length);
    return r;
  }

  private static TreeMap<Long, Row> read(LanceTable t, Map<Long, Long> rowIds) throws Exception {
    TreeMap<Long, Row> out = new TreeMap<>();
    try (ArrowReader r = t.newScan().withRowId().open()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        for (int i = 0; i < b.getRowCount(); i++) {
          long id = ((BigIntVector) b.getVector("id")).get(i);
          VarCharVector name = (VarCharVector) b.getVector("name");
          Float8Vector score = (Float8Vector) b.getVector("score");
          out.put(id, new Row(name.isNull(i) ? null : new String(name.get(i), StandardCharsets.UTF_8),
              score.isNull(i) ? null : score.get(i)));
          rowIds.put(id, ((org.apache.arrow.vector.UInt8Vector) b.getVector("_rowid")).get(i));
        }
      }
    }
    return out;
  }

  @Test
  void matchedRowsKeepTheirOtherColumnsAndInsertedRowsGetNull() throws Exception {
    for (long seed = 1; seed <= 6; seed++) {
      System.out.println("PartialMergeInsertTest seed " + seed);
      Random rnd = new Random(seed);
      boolean stable = seed % 2 == 0;
      String uri = tmp.resolve("t" + seed).toString();
      try (BufferAllocator alloc = new RootAllocator()) {
        long[] ids = rnd.longs(200, 0, 400).distinct().toArray();
        try (VectorSchemaRoot rows = tableRows(alloc, ids, rnd);
            LanceTable t = LanceTable.create(uri, rows, CreateOptions.builder()
                .stableRowIds(stable).maxRowsPerFile(60).build())) {
          Map<Long, Long> idsBefore = new java.util.HashMap<>();
          TreeMap<Long, Row> model = read(t, idsBefore);
          long[] src = rnd.longs(80, 0, 500).distinct().toArray();
          double[] scores = rnd.doubles(src.length).map(d -> Math.floor(d * 100)).toArray();
          StatementResult r;
          try (VectorSchemaRoot s = sourceRows(alloc, src, scores)) {
            r = t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().from(s)
                .commit();
          }
          long updated = 0;
          for (int i = 0; i < src.length; i++) {
            Row old = model.get(src[i]);
            if (old != null) {
              updated++;
            }
            model.put(src[i], new Row(old == null ? null : old.name(), scores[i]));
          }
          assertThat(r.rowsUpdated()).isEqualTo(updated);
          assertThat(r.rowsInserted()).isEqualTo(src.length - updated);
          Map<Long, Long> idsAfter = new java.util.HashMap<>();
          assertThat(read(t, idsAfter)).as("seed %d", seed).isEqualTo(model);
          if (stable) {
            for (long id : src) {
              if (idsBefore.containsKey(id)) {
                assertThat(idsAfter.get(id)).as("row id of key %d", id)
                    .isEqualTo(idsBefore.get(id));
              }
            }
          }
        }
      }
    }
  }

  @Test
  void aMissingColumnThatIsNotNullableAllowsUpdatesButNoInserts() throws Exception {
    String uri = tmp.resolve("nn").toString();
    Schema table = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.notNullable("name", ArrowType.Utf8.INSTANCE),
        Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot rows = VectorSchemaRoot.create(table, alloc)) {
      ((BigIntVector) rows.getVector("id")).setSafe(0, 1);
      ((VarCharVector) rows.getVector("name")).setSafe(0, "a".getBytes(StandardCharsets.UTF_8));
      rows.setRowCount(1);
      try (LanceTable t = LanceTable.create(uri, rows, CreateOptions.defaults());
          VectorSchemaRoot s = sourceRows(alloc, new long[] {1, 2}, new double[] {5, 6})) {
        assertThatThrownBy(() -> t.mergeInsert("id").whenMatchedUpdateAll()
            .whenNotMatchedInsertAll().from(s).commit())
            .isInstanceOf(InvalidInputException.class).hasMessageContaining("'name'")
            .hasMessageContaining("whenNotMatchedSkip");
        assertThat(t.version()).isEqualTo(1);
        StatementResult r = t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedSkip()
            .from(s).commit();
        assertThat(r.rowsUpdated()).isEqualTo(1);
        Map<Long, Long> ignored = new java.util.HashMap<>();
        assertThat(read(t, ignored)).isEqualTo(new TreeMap<>(Map.of(1L, new Row("a", 5.0))));
      }
    }
  }

  @Test
  void aSourceWithoutTheKeyOrWithAnUnknownColumnIsRefused() throws Exception {
    String uri = tmp.resolve("bad").toString();
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot rows = tableRows(alloc, new long[] {1}, new Random(1));
        LanceTable t = LanceTable.create(uri, rows, CreateOptions.defaults())) {
      Schema noKey = new Schema(List.of(SOURCE.getFields().get(1)));
      try (VectorSchemaRoot s = VectorSchemaRoot.create(noKey, alloc)) {
        s.setRowCount(0);
        assertThatThrownBy(() -> t.mergeInsert("id").whenMatchedUpdateAll().from(s).commit())
            .isInstanceOf(InvalidInputException.class).hasMessageContaining("no key column 'id'");
      }
      Schema extra = new Schema(new ArrayList<>(Arrays.asList(SOURCE.getFields().get(0),
          Field.nullable("bogus", new ArrowType.Int(32, true)))));
      try (VectorSchemaRoot s = VectorSchemaRoot.create(extra, alloc)) {
        s.setRowCount(0);
        assertThatThrownBy(() -> t.mergeInsert("id").whenMatchedUpdateAll().from(s).commit())
            .isInstanceOf(InvalidInputException.class).hasMessageContaining("bogus");
      }
    }
  }
}
