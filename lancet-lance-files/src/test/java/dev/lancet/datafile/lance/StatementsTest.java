package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import dev.lancet.table.TransactionResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Filters, delete, update, merge insert, compaction and transactions over real Lance files. */
class StatementsTest {
  @TempDir Path tmp;
  BufferAllocator alloc;
  final List<ArrowReader> readers = new ArrayList<>();

  @BeforeEach
  void open() {
    alloc = new RootAllocator();
  }

  @AfterEach
  void close() throws IOException {
    for (ArrowReader r : readers) {
      r.close();
    }
    alloc.close();
  }

  ArrowReader rows(long start, long total, int batch) {
    ArrowReader r = new GeneratedRows(alloc, start, total, batch);
    readers.add(r);
    return r;
  }

  /** A table of ids 0..999 in 4 fragments of 250 rows. */
  LanceTable table(boolean stable) {
    return LanceTable.create(tmp.resolve("t").toString(), rows(0, 1000, 100),
        CreateOptions.builder().maxRowsPerFile(250).stableRowIds(stable).build());
  }

  /** id -> score of every live row. */
  static Map<Long, Double> scores(LanceTable t) throws IOException {
    Map<Long, Double> out = new TreeMap<>();
    try (ArrowReader r = t.newScan().select("id", "score").open()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        Float8Vector score = (Float8Vector) b.getVector("score");
        for (int i = 0; i < b.getRowCount(); i++) {
          assertThat(out.put(id.get(i), score.isNull(i) ? null : score.get(i)))
              .as("id %d twice", id.get(i)).isNull();
        }
      }
    }
    return out;
  }

  /** id -> stable row id. */
  static Map<Long, Long> rowIds(LanceTable t) throws IOException {
    Map<Long, Long> out = new TreeMap<>();
    try (ArrowReader r = t.newScan().select("id").withRowId().open()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) b.getVector("id");
        UInt8Vector rid = (UInt8Vector) b.getVector("_rowid");
        for (int i = 0; i < b.getRowCount(); i++) {
          out.put(id.get(i), rid.get(i));
        }
      }
    }
    return out;
  }

  static List<Long> ids(ArrowReader r) throws IOException {
    return LanceTableTest.ids(r);
  }

  @Test
  void aFilteredScanReadsTheFilterColumnsAndCountsOffsetAndLimitAfterFiltering() throws IOException {
    try (LanceTable t = table(false)) {
      List<Long> expected = new ArrayList<>();
      for (long i = 0; i < 1000; i++) {
        if (i % 3 == 0 && GeneratedRows.name(i) != null) {
          expected.add(i);
        }
      }
      // "name" is filtered on but not selected.
      assertThat(ids(t.newScan().select("id").filter("id % 3 = 0 AND name IS NOT NULL").open()))
          .isEqualTo(expected);
      assertThat(ids(t.newScan().select("id").filter("id % 3 = 0 AND name IS NOT NULL")
          .batchSize(64).offset(10).limit(25).open())).isEqualTo(expected.subList(10, 35));
      try (ArrowReader r = t.newScan().select("id").filter("id < 5").open()) {
        assertThat(r.getVectorSchemaRoot().getSchema().getFields()).extracting(Field::getName)
            .containsExactly("id");
      }
      assertThatThrownBy(() -> t.newScan().filter("nope > 1").open())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("nope");
    }
  }

  @Test
  void deleteMergesDeletionVectorsRemovesEmptiedFragmentsAndCommitsNothingWhenNothingMatches()
      throws IOException {
    try (LanceTable t = table(false)) {
      StatementResult first = t.delete("id % 10 = 0");
      assertThat(first.rowsDeleted()).isEqualTo(100);
      assertThat(first.version()).hasValue(2);
      StatementResult second = t.delete("id % 10 = 1 OR id < 250");
      // 0..249 lose every row (fragment 0 goes), others lose id % 10 = 1.
      assertThat(second.rowsDeleted()).isEqualTo(225 + 75);
      Map<Long, Double> left = scores(t);
      for (long i = 0; i < 1000; i++) {
        boolean gone = i % 10 == 0 || i % 10 == 1 || i < 250;
        assertThat(left.containsKey(i)).as("id %d", i).isEqualTo(!gone);
      }
      try (Table k = Table.open(t.uri())) {
        Snapshot s = k.latest();
        assertThat(s.manifest().fragments()).extracting(Fragment::id).containsExactly(1L, 2L, 3L);
        assertThat(s.manifest().fragments()).allSatisfy(f ->
            assertThat(f.numDeletedRows()).isEqualTo(50));
      }
      long before = t.version();
      StatementResult none = t.delete("id > 5000");
      assertThat(none.committed()).isFalse();
      assertThat(none.rowsDeleted()).isZero();
      assertThat(t.version()).isEqualTo(before);
    }
  }

  @Test
  void updateMovesRowsToNewFragmentsKeepingStableRowIdsAndCreatedAtWithANewLastUpdated()
      throws IOException {
    try (LanceTable t = table(true)) {
      Map<Long, Long> idsBefore = rowIds(t);
      StatementResult r = t.newUpdate().where("id >= 100 AND id < 400")
          .set("score", "score * 2 + 1").set("name", "'updated'").commit();
      assertThat(r.rowsUpdated()).isEqualTo(300);
      assertThat(r.version()).hasValue(2);
      Map<Long, Double> scores = scores(t);
      assertThat(scores).hasSize(1000);
      for (long i = 0; i < 1000; i++) {
        double s = i / 2.0;
        assertThat(scores.get(i)).as("id %d", i).isEqualTo(i >= 100 && i < 400 ? s * 2 + 1 : s);
      }
      assertThat(rowIds(t)).isEqualTo(idsBefore);
      assertThat(ids(t.newScan().select("id").filter("name = 'updated'").open()))
          .hasSize(300).allMatch(i -> i >= 100 && i < 400);
      try (Table k = Table.open(t.uri())) {
        Fragment moved = k.latest().manifest().fragments().stream()
            .filter(f -> f.id() == 4).findFirst().orElseThrow();
        assertThat(moved.physicalRows()).isEqualTo(300);
        RowVersionSequence updated = RowVersionSequence.decode(
            ((dev.lancet.format.model.StoredSequence.Inline) moved.lastUpdatedAtVersions()
                .orElseThrow()).bytes().toByteArray(), "t");
        RowVersionSequence created = RowVersionSequence.decode(
            ((dev.lancet.format.model.StoredSequence.Inline) moved.createdAtVersions()
                .orElseThrow()).bytes().toByteArray(), "t");
        assertThat(updated.versionAt(0)).isEqualTo(2);
        assertThat(created.versionAt(0)).isEqualTo(1);
      }
      assertThatThrownBy(() -> t.newUpdate().set("id", "'text'").commit())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("SET id");
      assertThat(t.newUpdate().where("id < 0").set("score", "0").commit().committed()).isFalse();
    }
  }

  @Test
  void mergeInsertUpsertsDeletesBySourceAndRefusesDuplicateSourceKeys() throws IOException {
    try (LanceTable t = table(true)) {
      Map<Long, Long> idsBefore = rowIds(t);
      // Source ids 900..1099: 100 matched, 100 new.
      StatementResult r = t.mergeInsert("id").whenMatchedUpdateAll()
          .whenNotMatchedBySourceDelete("id < 50").from(rows(900, 200, 64)).commit();
      assertThat(r.rowsUpdated()).isEqualTo(100);
      assertThat(r.rowsInserted()).isEqualTo(100);
      assertThat(r.rowsDeleted()).isEqualTo(50);
      Map<Long, Long> after = rowIds(t);
      assertThat(after.keySet()).hasSize(1050);
      for (long i = 900; i < 1000; i++) {
        assertThat(after.get(i)).as("updated id %d keeps its row id", i).isEqualTo(idsBefore.get(i));
      }
      assertThat(after.get(1000L)).isGreaterThanOrEqualTo(1000L);
      // A condition: only where the source's score is larger (never here: same values).
      StatementResult keep = t.mergeInsert("id").whenMatchedUpdateAll("source.score > target.score")
          .whenNotMatchedSkip().from(rows(900, 10, 64)).commit();
      assertThat(keep.rowsUpdated()).isZero();
      assertThat(keep.committed()).isFalse();
      StatementResult cond = t.mergeInsert("id").whenMatchedUpdateAll("source.score >= target.score")
          .whenNotMatchedSkip().from(rows(900, 10, 64)).commit();
      assertThat(cond.rowsUpdated()).isEqualTo(10);
      ConcatReader twice = new ConcatReader(alloc, List.of(rows(5, 2, 2), rows(6, 1, 1)));
      readers.add(twice);
      assertThatThrownBy(() -> t.mergeInsert("id").from(twice).commit())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("more than once");
    }
  }

  @Test
  void mergeInsertOnAStringKeyAndACompoundKeyMatchesByValueAndNeverMatchesANullKey()
      throws IOException {
    try (LanceTable t = table(false)) {
      // Source ids 900..1099 keyed by name: a null name (id % 7 == 3) matches nothing.
      long matched = 0;
      for (long id = 900; id < 1000; id++) {
        if (GeneratedRows.name(id) != null) {
          matched++;
        }
      }
      StatementResult r = t.mergeInsert("name").whenMatchedUpdateAll()
          .from(rows(900, 200, 64)).commit();
      assertThat(r.rowsUpdated()).isEqualTo(matched);
      assertThat(r.rowsInserted()).isEqualTo(200 - matched);
      assertThat(t.countRows()).isEqualTo(1000 + 200 - matched);
      // (id, name): ids 0..9 all match except the null-named id 3.
      StatementResult c = t.mergeInsert("id", "name").whenMatchedUpdateAll().whenNotMatchedSkip()
          .from(rows(0, 10, 4)).commit();
      assertThat(c.rowsUpdated()).isEqualTo(9);
      assertThat(c.rowsInserted()).isZero();
      ConcatReader twice = new ConcatReader(alloc, List.of(rows(5, 2, 2), rows(6, 1, 1)));
      readers.add(twice);
      assertThatThrownBy(() -> t.mergeInsert("id", "name").from(twice).commit())
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("more than once")
          .hasMessageContaining("n6");
    }
  }

  @Test
  void compactionRewritesSmallFragmentsKeepingRowIdsAndVersionsAsANoDataChangeRewrite()
      throws IOException {
    String uri = tmp.resolve("c").toString();
    try (LanceTable t = LanceTable.create(uri, rows(0, 1000, 100),
        CreateOptions.builder().maxRowsPerFile(100).stableRowIds(true).build())) {
      t.delete("id % 4 = 0");
      Map<Long, Double> before = scores(t);
      Map<Long, Long> idsBefore = rowIds(t);
      CompactionResult r = t.compact().targetRowsPerFragment(400).commit();
      assertThat(r.committed()).isTrue();
      assertThat(r.fragmentsRemoved()).isEqualTo(10);
      assertThat(r.fragmentsAdded()).isEqualTo(2);
      assertThat(r.rowsRewritten()).isEqualTo(750);
      assertThat(r.deletionsMaterialized()).isEqualTo(250);
      assertThat(scores(t)).isEqualTo(before);
      assertThat(rowIds(t)).isEqualTo(idsBefore);
      try (Table k = Table.open(uri)) {
        Snapshot s = k.latest();
        assertThat(s.manifest().fragments()).allSatisfy(f -> {
          assertThat(f.deletionFile()).isEmpty();
          assertThat(f.physicalRows()).isLessThanOrEqualTo(400);
        });
        // The default write form writes it as Lance's own compaction, a Rewrite (decision 0022;
        // its composite form, all data_change = false, is WriteFormParityTest's).
        var txn = s.transaction().orElseThrow();
        assertThat(txn.getOperationCase())
            .isEqualTo(dev.lancet.format.pb.TransactionProtos.Transaction.OperationCase.REWRITE);
        assertThat(txn.getRewrite().getGroupsList()).singleElement().satisfies(g -> {
          assertThat(g.getOldFragmentsCount()).isEqualTo(10);
          assertThat(g.getNewFragmentsCount()).isEqualTo(2);
        });
      }
      assertThat(t.compact().targetRowsPerFragment(400).commit().committed()).isFalse();
    }
  }

  @Test
  void aTransactionCommitsItsStatementsAsOneVersionAndLaterStatementsSeeEarlierOnes()
      throws IOException {
    try (LanceTable t = table(true)) {
      Map<String, String> set = new LinkedHashMap<>();
      set.put("score", "-1");
      TransactionResult r = t.newTransaction()
          .append(rows(1000, 200, 50))
          .delete("id >= 1150 OR id < 10")
          .update("id >= 1000 AND id < 1010", set)
          .setConfig("etl.last_load", "2026-12-01")
          .commit();
      assertThat(r.statements()).extracting(TransactionResult.StatementCounts::rowsDeleted)
          .containsExactly(0L, 60L, 0L, 0L);
      assertThat(r.statements().get(2).rowsUpdated()).isEqualTo(10);
      assertThat(r.reservationVersions()).hasSize(1);
      assertThat(r.version()).isEqualTo(r.reservationVersions().get(0) + 1);
      Map<Long, Double> scores = scores(t);
      assertThat(scores).hasSize(1000 - 10 + 150);
      for (long i = 1000; i < 1010; i++) {
        assertThat(scores.get(i)).isEqualTo(-1.0);
      }
      assertThat(scores).doesNotContainKeys(1150L, 1199L, 0L, 9L);
      try (Table k = Table.open(t.uri())) {
        assertThat(k.latest().manifest().config()).containsEntry("etl.last_load", "2026-12-01");
        assertThat(dev.lancet.core.action.ActionCodec.decode(k.latest().transaction().orElseThrow()
            .getCompositeOperation()).steps()).hasSize(4);
      }
      // Row ids unique across the moved and appended rows.
      assertThat(new java.util.HashSet<>(rowIds(t).values())).hasSize(scores.size());
    }
  }
}
