package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import dev.lancet.table.TransactionResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.ipc.ScanOptions;
import org.lance.merge.MergeInsertParams;
import org.lance.merge.MergeInsertResult;

/**
 * delete, update, merge insert, compaction and a transaction against lance-core 7.0.0: each
 * statement runs on a copy of the same table as lance-core's own operation with the same effect
 * (lance-core's {@code Dataset.delete}, its merge insert; for an update, which lance-core 7.0.0's
 * Java API lacks, a merge insert of the updated rows), and the two results read the same through
 * lance-core, row by row; every result of Lancet's also scans identically through Lancet and
 * lance-core (all columns, {@code _rowid}, {@code _rowaddr}).
 */
class StatementsInteropTest {
  static final int DIM = 8;
  @TempDir Path tmp;

  private Path table(String name, boolean stable) throws IOException {
    Path dir = tmp.resolve(name);
    try (BufferAllocator alloc = new RootAllocator();
        var data = new GeneratedRows(alloc, 0, 1000, 128, DIM);
        LanceTable t = LanceTable.create(dir.toString(), data, CreateOptions.builder()
            .storageVersion("2.1").stableRowIds(stable).maxRowsPerFile(200).build())) {
      return dir;
    }
  }

  private Path copy(Path from, String name) throws IOException {
    Path to = tmp.resolve(name);
    copyTree(from, to);
    return to;
  }

  /** Copies the directory tree {@code from} to {@code to}. */
  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** id -> every other column, as lance-core scans the latest version. */
  static Map<Object, Map<String, Object>> byId(Path dir, boolean withRowId) {
    return LanceDatasets.withDataset(dir, Optional.empty(), ds -> {
      List<Map<String, Object>> rows = new ArrayList<>();
      LanceDatasets.scanBatches(ds, new ScanOptions.Builder().withRowId(withRowId).build(),
          root -> Rows.addAll(root, rows));
      Map<Object, Map<String, Object>> out = new TreeMap<>();
      for (Map<String, Object> r : rows) {
        assertThat(out.put(r.get("id"), r)).as("id %s twice", r.get("id")).isNull();
      }
      return out;
    });
  }

  private static void lance(Path dir, java.util.function.Consumer<Dataset> body) {
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open().allocator(alloc).uri(dir.toAbsolutePath().toString()).build()) {
      body.accept(ds);
    }
  }

  @Test
  void deleteLeavesWhatLanceCoresDeleteLeaves() throws IOException {
    Path ours = table("delete", false);
    Path theirs = copy(ours, "delete-lance");
    for (String pred : List.of("id % 10 = 3", "id < 200 OR name IS NULL",
        "score > 400 AND id % 2 = 0", "id > 5000")) {
      StatementResult r;
      try (LanceTable t = LanceTable.open(ours.toString())) {
        r = t.delete(pred);
      }
      lance(theirs, ds -> ds.delete(pred));
      assertThat(byId(ours, false)).as(pred).isEqualTo(byId(theirs, false));
      if (pred.equals("id > 5000")) {
        assertThat(r.committed()).isFalse();
      }
    }
    // Fragment 0 lost every row: removed, as lance-core removes it.
    assertThat(LanceDatasets.fragmentRowCounts(ours, LanceDatasets.latestVersion(ours)))
        .isEqualTo(LanceDatasets.fragmentRowCounts(theirs, LanceDatasets.latestVersion(theirs)));
    TableInteropTest.assertSameScan(ours, LanceDatasets.latestVersion(ours));
  }

  @Test
  void updateEqualsLanceCoresMergeInsertOfTheUpdatedRowsAndKeepsStableRowIds() throws IOException {
    Path ours = table("update", true);
    Path theirs = copy(ours, "update-lance");
    Map<Object, Map<String, Object>> before = byId(ours, true);
    StatementResult r;
    try (LanceTable t = LanceTable.open(ours.toString())) {
      r = t.newUpdate().where("id % 7 = 0").set("name", "'u'").set("score", "score * 3").commit();
    }
    assertThat(r.rowsUpdated()).isEqualTo(143);
    // lance-core: the same rows, changed in Java, merged in by id.
    lance(theirs, ds -> {
      try (BufferAllocator alloc = new RootAllocator();
          var scanner = ds.newScan(new ScanOptions.Builder().filter("id % 7 = 0").build());
          ArrowReader matched = scanner.scanBatches();
          ArrowReader changed = new Changed(alloc, matched);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
        Data.exportArrayStream(alloc, changed, stream);
        MergeInsertResult res = ds.mergeInsert(new MergeInsertParams(List.of("id"))
            .withMatchedUpdateAll().withNotMatched(MergeInsertParams.WhenNotMatched.DoNothing),
            stream);
        assertThat(res.stats().numUpdatedRows()).isEqualTo(143);
        res.dataset().close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Map<Object, Map<String, Object>> after = byId(ours, true);
    Map<Object, Map<String, Object>> lanceAfter = byId(theirs, false);
    assertThat(after).hasSameSizeAs(before);
    for (Map.Entry<Object, Map<String, Object>> e : after.entrySet()) {
      Map<String, Object> row = new java.util.LinkedHashMap<>(e.getValue());
      assertThat(row.remove("_rowid")).as("row id of id %s", e.getKey())
          .isEqualTo(before.get(e.getKey()).get("_rowid"));
      assertThat(row).isEqualTo(lanceAfter.get(e.getKey()));
      long id = (Long) e.getKey();
      if (id % 7 == 0) {
        assertThat(row.get("name")).isEqualTo("u");
        assertThat(row.get("score")).isEqualTo(id / 2.0 * 3);
      }
    }
    TableInteropTest.assertSameScan(ours, LanceDatasets.latestVersion(ours));
  }

  @Test
  void mergeInsertLeavesWhatLanceCoresMergeInsertLeavesWithTheSameCounts() throws IOException {
    Path ours = table("merge", true);
    Path theirs = copy(ours, "merge-lance");
    StatementResult r;
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable t = LanceTable.open(ours.toString());
        var source = new GeneratedRows(alloc, 900, 200, 64, DIM)) {
      r = t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedBySourceDelete("id < 50")
          .from(source).commit();
    }
    long[] stats = new long[3];
    lance(theirs, ds -> {
      try (BufferAllocator alloc = new RootAllocator();
          var source = new GeneratedRows(alloc, 900, 200, 64, DIM);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
        Data.exportArrayStream(alloc, source, stream);
        MergeInsertResult res = ds.mergeInsert(new MergeInsertParams(List.of("id"))
            .withMatchedUpdateAll().withNotMatched(MergeInsertParams.WhenNotMatched.InsertAll)
            .withNotMatchedBySourceDeleteIf("id < 50"), stream);
        stats[0] = res.stats().numInsertedRows();
        stats[1] = res.stats().numUpdatedRows();
        stats[2] = res.stats().numDeletedRows();
        res.dataset().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    assertThat(new long[] {r.rowsInserted(), r.rowsUpdated(), r.rowsDeleted()}).isEqualTo(stats);
    assertThat(byId(ours, false)).isEqualTo(byId(theirs, false));
    TableInteropTest.assertSameScan(ours, LanceDatasets.latestVersion(ours));
  }

  @Test
  void lanceCoreReadsACompactedTableAsBeforeWithTheSameRowIds() throws IOException {
    for (boolean stable : List.of(true, false)) {
      Path dir = tmp.resolve("compact-" + stable);
      try (BufferAllocator alloc = new RootAllocator();
          var data = new GeneratedRows(alloc, 0, 1000, 50, DIM);
          LanceTable t = LanceTable.create(dir.toString(), data, CreateOptions.builder()
              .stableRowIds(stable).maxRowsPerFile(50).build())) {
        t.delete("id % 3 = 0");
        Map<Object, Map<String, Object>> before = byId(dir, stable);
        CompactionResult r = t.compact().targetRowsPerFragment(300).commit();
        assertThat(r.fragmentsRemoved()).isEqualTo(20);
        assertThat(r.fragmentsAdded()).isEqualTo(3);
        assertThat(byId(dir, stable)).isEqualTo(before);
        assertThat(LanceDatasets.fragmentRowCounts(dir, LanceDatasets.latestVersion(dir)).values())
            .containsExactly(300L, 300L, 66L);
      }
      TableInteropTest.assertSameScan(dir, LanceDatasets.latestVersion(dir));
    }
  }

  @Test
  void lanceCoreReadsTheVersionOfATransaction() throws IOException {
    Path dir = table("txn", true);
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable t = LanceTable.open(dir.toString());
        var more = new GeneratedRows(alloc, 1000, 100, 50, DIM)) {
      TransactionResult r = t.newTransaction().append(more).delete("id % 2 = 1")
          .update("id >= 1000", Map.of("name", "'new'")).setConfig("k", "v").commit();
      assertThat(r.statements().get(1).rowsDeleted()).isEqualTo(550);
      assertThat(r.statements().get(2).rowsUpdated()).isEqualTo(50);
    }
    Map<Object, Map<String, Object>> rows = byId(dir, true);
    assertThat(rows).hasSize(550);
    assertThat(rows.values()).allSatisfy(row -> {
      long id = (Long) row.get("id");
      assertThat(id % 2).isZero();
      if (id >= 1000) {
        assertThat(row.get("name")).isEqualTo("new");
      }
    });
    assertThat(rows.values().stream().map(x -> x.get("_rowid")).distinct().count()).isEqualTo(550);
    TableInteropTest.assertSameScan(dir, LanceDatasets.latestVersion(dir));
  }

  /** The rows of a reader with {@code name = 'u'} and {@code score * 3}, copied. */
  static final class Changed extends ArrowReader {
    private final ArrowReader in;

    Changed(BufferAllocator alloc, ArrowReader in) {
      super(alloc);
      this.in = in;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (!in.loadNextBatch()) {
        return false;
      }
      VectorSchemaRoot src = in.getVectorSchemaRoot();
      VectorSchemaRoot dst = getVectorSchemaRoot();
      int n = src.getRowCount();
      dst.allocateNew();
      for (FieldVector v : dst.getFieldVectors()) {
        FieldVector s = src.getVector(v.getName());
        for (int i = 0; i < n; i++) {
          if (v.getName().equals("name")) {
            ((VarCharVector) v).setSafe(i, "u".getBytes(StandardCharsets.UTF_8));
          } else if (v.getName().equals("score")) {
            ((Float8Vector) v).setSafe(i, ((Float8Vector) s).get(i) * 3);
          } else {
            v.copyFromSafe(i, i, s);
          }
        }
        v.setValueCount(n);
      }
      dst.setRowCount(n);
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() throws IOException {
      return in.getVectorSchemaRoot().getSchema();
    }
  }
}
