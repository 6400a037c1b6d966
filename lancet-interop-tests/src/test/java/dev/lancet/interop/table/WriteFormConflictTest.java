package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceDataFiles;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conflicts the composite form's assertions exist for, under both write forms
 * (docs/decisions/0022): an update's moved rows against a concurrent rewrite of a column of their
 * fragment (the lost update that {@code RelocateRows} / {@code AssertCellsUnchanged} guard, which
 * a legacy Update's whole-fragment claim guards), in both orders, and two upserts inserting the
 * same new key (the {@code AssertUniqueKeys} that a legacy Update carries as
 * {@code inserted_rows}). The race is made deterministic: the other writer commits while the
 * statement is reading the table (its progress callback), after it planned nothing yet but read
 * its version. Each outcome is checked against the rows lance-core scans.
 */
class WriteFormConflictTest {
  static final int DIM = 4;
  @TempDir Path tmp;

  private Path table(WriteForm form) throws Exception {
    Path dir = tmp.resolve(form.configValue());
    try (BufferAllocator alloc = new RootAllocator();
        var data = new GeneratedRows(alloc, 0, 1000, 128, DIM);
        LanceTable t = LanceTable.create(dir.toString(), data, CreateOptions.builder()
            .storageVersion("2.1").maxRowsPerFile(200).build())) {
      t.newTransaction().setConfig(WriteForm.CONFIG_KEY, form.configValue()).commit();
    }
    return dir;
  }

  /**
   * A composite rewrite of column {@code name} in fragment 0 (every row's name becomes "r<id>"),
   * as a Lancet writer on a composite table writes it: the pair under test is composite against
   * either form of the update.
   */
  private static TransactionBuilder rewriteNames(Table kernel, Path dir) {
    var read = kernel.latest();
    int nameField = read.manifest().schema().topLevel().stream()
        .filter(f -> f.name().equals("name")).findFirst().map(Field::id).orElseThrow();
    var fragment = read.manifest().fragment(0).orElseThrow();
    DataFile file;
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
            org.apache.arrow.vector.types.pojo.Field.nullable("name", ArrowType.Utf8.INSTANCE))),
            alloc)) {
      VarCharVector v = (VarCharVector) root.getVector("name");
      int rows = (int) fragment.physicalRows();
      v.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        v.setSafe(i, ("r" + i).getBytes(StandardCharsets.UTF_8)); // fragment 0 holds ids 0..199
      }
      root.setRowCount(rows);
      file = LanceDataFiles.write(dir, root);
    }
    return kernel.newTransaction().writeForm(WriteForm.COMPOSITE).step("rewrite column name of fragment 0",
        s -> s.tombstone(Ref.committed(0), Ref.committed(nameField))
            .addDataFile(Ref.committed(0), file, Ref.committed(nameField)));
  }

  /** id -> name, as lance-core scans the latest version. */
  private static Map<Object, Object> names(Path dir) {
    Map<Object, Object> out = new java.util.TreeMap<>();
    StatementsInteropTest.byId(dir, false).forEach((id, row) -> out.put(id, row.get("name")));
    return out;
  }

  /** Asserts version {@code version} of {@code dir} was written as an Update in {@code form}. */
  private static void assertWrittenIn(Path dir, long version, WriteForm form) {
    try (Table kernel = Table.open(dir.toString())) {
      assertThat(kernel.version(version).transaction()
          .map(TransactionProtos.Transaction::getOperationCase).map(Enum::name).orElse("none"))
          .as("version %s", version)
          .isEqualTo(form == WriteForm.COMPOSITE ? "COMPOSITE_OPERATION" : "UPDATE");
    }
  }

  @ParameterizedTest
  @EnumSource(WriteForm.class)
  void anUpdateAfterAConcurrentColumnRewriteIsPlannedAgain(WriteForm form) throws Exception {
    Path dir = table(form);
    AtomicBoolean once = new AtomicBoolean();
    StatementResult r;
    try (LanceTable t = LanceTable.open(dir.toString()); Table other = Table.open(dir.toString())) {
      r = t.newUpdate().where("id < 10").set("score", "score + 1").onProgress(rows -> {
        if (once.compareAndSet(false, true)) {
          rewriteNames(other, dir).commit();
        }
      }).commit();
    }
    assertThat(once).isTrue();
    assertThat(r.plans()).as("the rewrite collided with the moved rows: planned again").isEqualTo(2);
    assertWrittenIn(dir, r.version().getAsLong(), form);
    Map<Object, Object> names = names(dir);
    for (long id = 0; id < 200; id++) {
      assertThat(names.get(id)).as("name of %s (no lost update)", id).isEqualTo("r" + id);
    }
    assertThat(names).hasSize(1000);
  }

  @ParameterizedTest
  @EnumSource(WriteForm.class)
  void aColumnRewriteAfterAConcurrentUpdateCollides(WriteForm form) throws Exception {
    Path dir = table(form);
    try (Table kernel = Table.open(dir.toString()); LanceTable t = LanceTable.open(dir.toString())) {
      TransactionBuilder rewrite = rewriteNames(kernel, dir);
      StatementResult r = t.update("id < 10", Map.of("score", "score + 1"));
      assertWrittenIn(dir, r.version().getAsLong(), form);
      assertThatThrownBy(rewrite::commit).as("the moved rows would lose the rewrite")
          .isInstanceOf(ConflictingCommitException.class);
    }
    Map<Object, Object> names = names(dir);
    assertThat(names).hasSize(1000);
    assertThat(names.get(0L)).isNotEqualTo("r0");
  }

  @ParameterizedTest
  @EnumSource(WriteForm.class)
  void twoUpsertsOfOneNewKeyNeverDuplicateIt(WriteForm form) throws Exception {
    Path dir = table(form);
    AtomicBoolean once = new AtomicBoolean();
    StatementResult r;
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable t = LanceTable.open(dir.toString());
        LanceTable other = LanceTable.open(dir.toString());
        var mine = new GeneratedRows(alloc, 1000, 5, 64, DIM)) {
      r = t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().from(mine)
          .onProgress(rows -> {
            if (once.compareAndSet(false, true)) {
              try (var theirs = new GeneratedRows(alloc, 1003, 5, 64, DIM)) {
                StatementResult o = other.mergeInsert("id").whenMatchedUpdateAll()
                    .whenNotMatchedInsertAll().from(theirs).commit();
                assertWrittenIn(dir, o.version().getAsLong(), form);
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            }
          }).commit();
    }
    assertThat(once).isTrue();
    assertThat(r.plans()).as("keys 1003 and 1004 collided: planned again").isEqualTo(2);
    assertThat(r.rowsInserted()).isEqualTo(3);
    assertThat(r.rowsUpdated()).isEqualTo(2);
    // byId fails on a duplicate id; every key once.
    List<Object> ids = new ArrayList<>(StatementsInteropTest.byId(dir, false).keySet());
    assertThat(ids).hasSize(1008);
  }
}
