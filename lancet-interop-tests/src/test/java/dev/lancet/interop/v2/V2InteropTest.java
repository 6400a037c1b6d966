package dev.lancet.interop.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.StepBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.interop.lance.LanceOracle.RowIdentity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.WriteParams;
import org.lance.operation.Append;
import org.lance.operation.UpdateConfig;
import org.lance.operation.UpdateMap;

/**
 * Transaction V2 composite operations committed by Lancet on tables the real Lance library
 * ({@code org.lance:lance-core} 7.0.0) created: lance-core opens every version Lancet
 * publishes, reads the data Lancet's actions attached, keeps appending on top, and a lance-core
 * writer whose handle predates a composite commit fails closed (decision 0001).
 *
 * <p>Every data file a test attaches is written by lance-core's own {@code LanceFileWriter} in
 * the table's data storage version; every deletion file by Lancet's {@link DeletionFileFormat}.
 * Expected values are either recomputed from {@code id} or taken from lance-core performing the
 * same change on a second copy of the fixture.
 */
class V2InteropTest {
  /** Value of the added {@code score} column for row {@code id}. */
  private static long score(long id) {
    return id * 3;
  }

  @TempDir Path tmp;

  // -------------------------------------------------------------------------------------------
  // 1. AddField + AddDataFile per fragment: a new column with data
  // -------------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off", "stable-row-ids-on", "schema-evolution",
      "storage-2.0", "deletions"})
  void addColumnWithDataIsReadByLanceCore(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    List<LanceOracle.Row> rowsBefore = LanceOracle.rows(dir, before.version());
    List<RowIdentity> identities = LanceOracle.rowIdentities(dir, before.version());
    List<String> columnsBefore = LanceOracle.columnNames(dir, before.version());
    String fileVersion = before.dataStorageVersion();

    int expectedFieldId = maxFieldIdSeenByLance(before) + 1;
    Map<Long, Long> idByAddress = new HashMap<>();
    for (RowIdentity r : identities) {
      idByAddress.put(r.rowAddress(), r.id());
    }

    CommitResult result;
    try (Table table = Table.open(dir.toString());
        BufferAllocator alloc = new RootAllocator()) {
      Manifest read = table.latest().manifest();
      assertThat(read.version()).isEqualTo(before.version());
      List<DataFile> scoreFiles = new ArrayList<>();
      List<Long> fragmentIds = new ArrayList<>();
      for (Fragment f : read.fragments()) {
        assertThat(f.physicalRows()).isEqualTo(before.fragment((int) f.id()).physicalRows());
        int rows = Math.toIntExact(f.physicalRows());
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
            org.apache.arrow.vector.types.pojo.Field.nullable("score", new ArrowType.Int(32, true)))),
            alloc)) {
          IntVector v = (IntVector) root.getVector("score");
          v.allocateNew(rows);
          for (int offset = 0; offset < rows; offset++) {
            Long id = idByAddress.get((f.id() << 32) | offset);
            if (id == null) {
              v.setNull(offset); // a deleted row: its value is never read
            } else {
              v.set(offset, Math.toIntExact(score(id)));
            }
          }
          v.setValueCount(rows);
          root.setRowCount(rows);
          scoreFiles.add(writeDataFile(dir, root, fileVersion, List.of(0)));
          fragmentIds.add(f.id());
        }
      }
      Field score = Field.builder(0, "score", "int32").nullable(true).build();
      result = table.newTransaction()
          .step("add column score = id * 3", s -> {
            s.addField(0, score);
            for (int i = 0; i < fragmentIds.size(); i++) {
              s.addDataFile(Ref.committed(fragmentIds.get(i)), scoreFiles.get(i), Ref.local(0));
            }
          })
          .commit();
    }

    long v = result.version();
    assertThat(v).isEqualTo(before.version() + 1);
    assertThat(LanceOracle.latestVersion(dir)).isEqualTo(v);
    Field minted = lancetField(result.manifest(), "score");
    assertThat(minted.id()).isEqualTo(expectedFieldId);

    LanceOracle.TableSnapshot after = LanceOracle.snapshot(dir, v);
    assertThat(after.rowCount()).isEqualTo(before.rowCount());
    LanceOracle.FieldView lanceScore = after.field("score");
    assertThat(lanceScore.id()).isEqualTo(minted.id());
    assertThat(lanceScore.logicalType()).isEqualTo("int32");
    assertThat(lanceScore.parentId()).isEqualTo(-1);
    for (LanceOracle.FragmentView fv : after.fragments()) {
      LanceOracle.DataFileView added = fv.files().get(fv.files().size() - 1);
      assertThat(added.fields()).containsExactly(minted.id());
      assertThat(added.columnIndices()).containsExactly(0);
      assertThat(added.fileMajorVersion() + "." + added.fileMinorVersion()).isEqualTo(fileVersion);
    }

    List<String> columnsAfter = LanceOracle.columnNames(dir, v);
    List<String> expectedColumns = new ArrayList<>(columnsBefore);
    expectedColumns.add("score");
    assertThat(columnsAfter).isEqualTo(expectedColumns);
    int scoreIndex = columnsAfter.indexOf("score");
    List<LanceOracle.Row> rowsAfter = LanceOracle.rows(dir, v);
    assertThat(rowsAfter).hasSameSizeAs(rowsBefore);
    for (int i = 0; i < rowsAfter.size(); i++) {
      LanceOracle.Row r = rowsAfter.get(i);
      assertThat(r.values().get(scoreIndex)).as("score of id %d", r.id())
          .isEqualTo(String.valueOf(score(r.id())));
      List<String> rest = new ArrayList<>(r.values());
      rest.remove(scoreIndex);
      assertThat(rest).as("other columns of id %d", r.id()).isEqualTo(rowsBefore.get(i).values());
    }
    // Adding a column moves no row.
    assertThat(LanceOracle.rowIdentities(dir, v)).isEqualTo(identities);
    // A filter on the new column goes through lance-core's planner.
    long id = identities.get(identities.size() / 2).id();
    assertThat(LanceOracle.countRows(dir, v, "score = " + score(id))).isEqualTo(1);

    lanceAppendsOnTopAndLancetReadsIt(dir, v, after.rowCount());
  }

  // -------------------------------------------------------------------------------------------
  // 2. AddFragment + AddDataFile: an append
  // -------------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-on", "stable-row-ids-off", "storage-2.1", "storage-2.0",
      "manifest-v1"})
  void appendIsReadByLanceCoreExactlyAsItsOwnAppend(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp.resolve("lancet"));
    Path reference = SharedFixtures.copy(fixture, tmp.resolve("lance"));
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    Schema schema = arrowSchemaOf(dir);
    long start = 1_000_000;
    int n = 150;

    CommitResult result = lancetAppend(dir, schema, start, n);

    long v = result.version();
    assertThat(v).isEqualTo(before.version() + 1);
    assertThat(LanceOracle.latestVersion(dir)).isEqualTo(v);
    assertThat(LanceOracle.countRows(dir, v)).isEqualTo(before.rowCount() + n);

    // lance-core appending the same rows to a second copy is the expectation.
    long refVersion = LanceFixtures.append(reference, schema, start, n);
    assertThat(refVersion).isEqualTo(v);
    assertThat(LanceOracle.rows(dir, v)).isEqualTo(LanceOracle.rows(reference, refVersion));
    // Same fragment id, offsets and (with stable row ids) the same fresh row ids.
    assertThat(LanceOracle.rowIdentities(dir, v))
        .isEqualTo(LanceOracle.rowIdentities(reference, refVersion));
    assertThat(LanceOracle.countRows(dir, v, "id >= " + start)).isEqualTo(n);

    LanceOracle.TableSnapshot after = LanceOracle.snapshot(dir, v);
    LanceOracle.FragmentView added = after.fragments().get(after.fragments().size() - 1);
    assertThat(added.physicalRows()).isEqualTo(n);
    assertThat(added.liveRows()).isEqualTo(n);
    LanceOracle.FragmentView theirs = LanceOracle.snapshot(reference, refVersion).fragment(added.id());
    assertThat(added.files()).singleElement().satisfies(f -> {
      assertThat(f.fields()).isEqualTo(theirs.files().get(0).fields());
      assertThat(f.columnIndices()).isEqualTo(theirs.files().get(0).columnIndices());
    });
    if (before.stableRowIds()) {
      assertThat(added.rowIdMeta()).isPresent();
      assertThat(added.rowIdMeta()).isEqualTo(theirs.rowIdMeta());
      assertThat(added.createdAtVersionMeta()).isPresent()
          .isEqualTo(theirs.createdAtVersionMeta());
      assertThat(added.lastUpdatedAtVersionMeta()).isPresent()
          .isEqualTo(theirs.lastUpdatedAtVersionMeta());
    }

    lanceAppendsOnTopAndLancetReadsIt(dir, v, after.rowCount());
  }

  // -------------------------------------------------------------------------------------------
  // 3. SetDeletionFile: deleting rows, .arrow and .bin forms
  // -------------------------------------------------------------------------------------------

  @Test
  void deletionsUnionedWithExistingVectorsAreHonouredByLanceCore() throws Exception {
    Path dir = SharedFixtures.copy("deletions", tmp);
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    // The fixture's state: fragment 0 has a 10-row .arrow file, fragment 1 a 7,000-row .bin.
    assertThat(before.fragment(0).deletionFile().orElseThrow().type()).isEqualTo("ARROW_ARRAY");
    assertThat(before.fragment(0).numDeletedRows()).isEqualTo(LanceFixtures.DELETIONS_ARROW_ROWS);
    assertThat(before.fragment(1).deletionFile().orElseThrow().type()).isEqualTo("BITMAP");
    assertThat(before.fragment(1).numDeletedRows()).isEqualTo(LanceFixtures.DELETIONS_BITMAP_ROWS);
    List<RowIdentity> identities = LanceOracle.rowIdentities(dir, before.version());

    // Fragment 0: four live rows plus one that is already deleted (a no-op in the union).
    List<Integer> live0 = liveOffsets(identities, 0);
    int alreadyDeleted0 = IntStream.range(0, 100).filter(o -> !live0.contains(o)).findFirst()
        .orElseThrow();
    DeletionVector new0 = DeletionVector.of(live0.get(0), live0.get(1), live0.get(40),
        live0.get(live0.size() - 1), alreadyDeleted0);
    // Fragment 1: the first 250 of its 1,000 live rows.
    List<Integer> live1 = liveOffsets(identities, 1);
    DeletionVector new1 = DeletionVector.of(live1.subList(0, 250).stream()
        .mapToInt(Integer::intValue).toArray());

    Map<Long, DeletionVector> newly = new LinkedHashMap<>();
    newly.put(0L, new0);
    newly.put(1L, new1);
    Map<Long, DeletionFile.Kind> kinds = Map.of(0L, DeletionFile.Kind.ARROW_ARRAY,
        1L, DeletionFile.Kind.BITMAP);
    Map<Long, DeletionVector> existing = existingDeletionVectors(dir);
    assertThat(existing.get(0L).cardinality()).isEqualTo(LanceFixtures.DELETIONS_ARROW_ROWS);
    assertThat(existing.get(1L).cardinality()).isEqualTo(LanceFixtures.DELETIONS_BITMAP_ROWS);

    CommitResult result = commitDeletions(dir, newly, kinds);
    long newlyDeleted = 4 + 250;
    checkDeletions(dir, before, identities, result, newly, existing, kinds, newlyDeleted);
    LanceOracle.TableSnapshot after = LanceOracle.snapshot(dir, result.version());
    assertThat(after.fragment(0).numDeletedRows()).isEqualTo(LanceFixtures.DELETIONS_ARROW_ROWS + 4);
    assertThat(after.fragment(1).numDeletedRows())
        .isEqualTo(LanceFixtures.DELETIONS_BITMAP_ROWS + 250)
        .isGreaterThanOrEqualTo(LanceFixtures.BITMAP_DELETION_THRESHOLD);

    lanceAppendsOnTopAndLancetReadsIt(dir, result.version(), after.rowCount());
  }

  @ParameterizedTest
  @ValueSource(strings = {"manifest-v2", "stable-row-ids-on"})
  void fiveThousandDeletionsAsAFreshBitmapAreHonouredByLanceCore(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    // A 6,000-row fragment with no deletion file yet, appended by lance-core.
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 50_000, 6_000);
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    LanceOracle.FragmentView big = before.fragments().get(before.fragments().size() - 1);
    assertThat(big.physicalRows()).isEqualTo(6_000);
    assertThat(big.deletionFile()).isEmpty();
    List<RowIdentity> identities = LanceOracle.rowIdentities(dir, before.version());

    // Offsets below 5,200 that are not multiples of 7 (4,457) and 5,300..5,999 (700): 5,157.
    List<Integer> offsets = new ArrayList<>();
    for (int o = 0; o < 5_200; o++) {
      if (o % 7 != 0) {
        offsets.add(o);
      }
    }
    for (int o = 5_300; o < 6_000; o++) {
      offsets.add(o);
    }
    assertThat(offsets.size()).isGreaterThanOrEqualTo(LanceFixtures.BITMAP_DELETION_THRESHOLD);
    Map<Long, DeletionVector> newly = new LinkedHashMap<>();
    newly.put((long) big.id(), DeletionVector.of(offsets.stream().mapToInt(Integer::intValue).toArray()));
    // And a small .arrow one on fragment 0 (unioned with its existing file, if any).
    List<Integer> live0 = liveOffsets(identities, 0);
    newly.put(0L, DeletionVector.of(live0.get(2), live0.get(3), live0.get(5)));
    Map<Long, DeletionFile.Kind> kinds = Map.of((long) big.id(), DeletionFile.Kind.BITMAP,
        0L, DeletionFile.Kind.ARROW_ARRAY);
    Map<Long, DeletionVector> existing = existingDeletionVectors(dir);

    CommitResult result = commitDeletions(dir, newly, kinds);
    checkDeletions(dir, before, identities, result, newly, existing, kinds, offsets.size() + 3L);

    lanceAppendsOnTopAndLancetReadsIt(dir, result.version(),
        LanceOracle.countRows(dir, result.version()));
  }

  @ParameterizedTest
  @ValueSource(strings = {"deletions", "stable-row-ids-on"})
  void concurrentCompositeDeletesOfDisjointRowsOfOneFragmentMergeAndLanceCoreSeesBoth(String fixture)
      throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    List<RowIdentity> identities = LanceOracle.rowIdentities(dir, before.version());
    List<Integer> live0 = liveOffsets(identities, 0);
    DeletionVector ours = DeletionVector.of(live0.get(0), live0.get(2), live0.get(4));
    DeletionVector theirs = DeletionVector.of(live0.get(1), live0.get(3));
    Map<Long, DeletionFile.Kind> kinds = Map.of(0L, DeletionFile.Kind.BITMAP);
    Map<Long, DeletionVector> existing = existingDeletionVectors(dir);
    // Both planned on the same version; theirs lands first, ours is rebased row by row.
    dev.lancet.core.transaction.TransactionBuilder mine = plannedDeletions(dir, Map.of(0L, ours), kinds);
    plannedDeletions(dir, Map.of(0L, theirs), kinds).commit();

    CommitResult result = mine.commit();

    long v = result.version();
    assertThat(v).isEqualTo(before.version() + 2);
    assertThat(LanceOracle.countRows(dir, v)).isEqualTo(before.rowCount() - 5);
    Set<Integer> gone = new HashSet<>();
    ours.forEach(gone::add);
    theirs.forEach(gone::add);
    List<RowIdentity> expected = identities.stream()
        .filter(r -> !(r.fragmentId() == 0 && gone.contains(r.offset()))).toList();
    assertThat(LanceOracle.rowIdentities(dir, v)).isEqualTo(expected);
    LanceOracle.TableSnapshot after = LanceOracle.snapshot(dir, v);
    long existing0 = existing.getOrDefault(0L, DeletionVector.empty()).cardinality();
    assertThat(after.fragment(0).numDeletedRows()).isEqualTo(existing0 + 5);
    assertThat(existingDeletionVectors(dir).get(0L))
        .isEqualTo(existing.getOrDefault(0L, DeletionVector.empty()).union(ours).union(theirs));
    try (Table table = Table.open(dir.toString())) {
      assertThat(table.latest().transaction().orElseThrow().getReadVersion()).as("rebased")
          .isEqualTo(before.version());
    }
    // lance-core writes on top of the merged version.
    long appended = lanceAppend(dir, arrowSchemaOf(dir), 2_000_000, 10);
    assertThat(appended).isEqualTo(v + 1);
    assertThat(LanceOracle.countRows(dir, appended)).isEqualTo(after.rowCount() + 10);
  }

  // -------------------------------------------------------------------------------------------
  // 4. AlterField: rename
  // -------------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"scalar-index", "stable-row-ids-on", "manifest-v1"})
  void renamedColumnIsSeenByLanceCoreWithTheSameValues(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    List<LanceOracle.Row> rowsBefore = LanceOracle.rows(dir, before.version());
    int nameId = before.field("name").id();
    long namedFive = LanceOracle.countRows(dir, before.version(), "name = 'name-5'");
    assertThat(namedFive).isEqualTo(1);

    CommitResult result;
    try (Table table = Table.open(dir.toString())) {
      result = table.newTransaction()
          .step("rename name to label", s -> s.renameField(Ref.committed(nameId), "label"))
          .commit();
    }
    long v = result.version();
    assertThat(v).isEqualTo(before.version() + 1);
    assertThat(LanceOracle.latestVersion(dir)).isEqualTo(v);

    assertThat(LanceOracle.columnNames(dir, v)).containsExactly("id", "label");
    assertThat(LanceOracle.rows(dir, v)).isEqualTo(rowsBefore);
    LanceOracle.TableSnapshot after = LanceOracle.snapshot(dir, v);
    assertThat(after.field("label").id()).isEqualTo(nameId);
    assertThat(after.fields()).extracting(LanceOracle.FieldView::name).doesNotContain("name");
    assertThat(LanceOracle.countRows(dir, v, "label = 'name-5'")).isEqualTo(1);
    assertThat(after.indices()).extracting(LanceOracle.IndexView::name)
        .isEqualTo(before.indices().stream().map(LanceOracle.IndexView::name).toList());
    // Earlier versions keep the old name.
    assertThat(LanceOracle.columnNames(dir, before.version())).containsExactly("id", "name");

    lanceAppendsOnTopAndLancetReadsIt(dir, v, after.rowCount());
  }

  // -------------------------------------------------------------------------------------------
  // 6. A stale lance-core writer fails closed
  // -------------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"delete", "append", "update-config"})
  void staleLanceWriterCannotCommitOverACompositeCommit(String staleWrite) throws Exception {
    Path dir = SharedFixtures.copy("manifest-v2", tmp);
    String uri = dir.toAbsolutePath().toString();
    long v0 = LanceOracle.latestVersion(dir);
    long rows0 = LanceOracle.countRows(dir, v0);

    try (BufferAllocator alloc = new RootAllocator();
        Dataset stale = Dataset.open().allocator(alloc).uri(uri).build()) {
      assertThat(stale.version()).isEqualTo(v0);
      // Data for the stale append is written before the composite commit, as a slow writer would.
      List<FragmentMetadata> staleFragments = staleWrite.equals("append")
          ? lanceFragments(alloc, uri, LanceFixtures.SIMPLE_SCHEMA, 90_000, 10) : List.of();

      CommitResult composite = lancetAppend(dir, LanceFixtures.SIMPLE_SCHEMA, 70_000, 20,
          s -> s.setConfig("lancet.v2.composite", "yes"));
      long v1 = composite.version();
      assertThat(v1).isEqualTo(v0 + 1);
      int manifestsBefore = LanceFixtures.listNames(dir.resolve("_versions")).size();

      Runnable write = switch (staleWrite) {
        case "delete" -> () -> stale.delete("id = 5");
        case "append" -> () -> {
          try (var txn = stale.newTransactionBuilder()
              .operation(Append.builder().fragments(staleFragments).build()).build()) {
            txn.commit().close();
          }
        };
        case "update-config" -> () -> {
          // An upsert (replace = false); the deprecated Dataset.updateConfig(Map) replaces the
          // whole config in 7.0.0.
          UpdateConfig op = UpdateConfig.builder()
              .configUpdates(UpdateMap.builder().updates(Map.of("stale.key", "1")).replace(false)
                  .build())
              .build();
          try (var txn = stale.newTransactionBuilder().operation(op).build()) {
            txn.commit().close();
          }
        };
        default -> throw new IllegalArgumentException(staleWrite);
      };
      // lance-core loads the composite transaction to check its commit against it, cannot decode
      // it, and refuses to commit.
      assertThatThrownBy(write::run).as("a %s from a handle at version %d", staleWrite, v0)
          .isInstanceOf(RuntimeException.class)
          .hasMessageContaining("did not contain an operation");

      // Nothing was published by the stale writer.
      assertThat(LanceOracle.latestVersion(dir)).isEqualTo(v1);
      assertThat(LanceFixtures.listNames(dir.resolve("_versions"))).hasSize(manifestsBefore);
      LanceOracle.TableSnapshot now = LanceOracle.snapshot(dir);
      assertThat(now.version()).isEqualTo(v1);
      assertThat(now.rowCount()).isEqualTo(rows0 + 20);
      assertThat(now.config()).containsEntry("lancet.v2.composite", "yes")
          .doesNotContainKey("stale.key");
      assertThat(LanceOracle.countRows(dir, v1, "id = 5")).isEqualTo(1);
      assertThat(LanceOracle.countRows(dir, v1, "id >= 90000")).isZero();
      try (Table table = Table.open(dir.toString())) {
        assertThat(table.latest().version()).isEqualTo(v1);
        assertThat(table.latest().manifest().liveRows()).isEqualTo(rows0 + 20);
      }

      // The same write from the same handle, once it has caught up, commits: the refusal was
      // about the stale read version, not about the write itself.
      stale.checkoutLatest();
      assertThat(stale.version()).isEqualTo(v1);
      write.run();
      assertThat(LanceOracle.latestVersion(dir)).isEqualTo(v1 + 1);
      LanceOracle.TableSnapshot caughtUp = LanceOracle.snapshot(dir, v1 + 1);
      switch (staleWrite) {
        case "delete" -> {
          assertThat(LanceOracle.countRows(dir, v1 + 1, "id = 5")).isZero();
          assertThat(caughtUp.rowCount()).isEqualTo(rows0 + 19);
        }
        case "append" -> {
          assertThat(LanceOracle.countRows(dir, v1 + 1, "id >= 90000")).isEqualTo(10);
          assertThat(caughtUp.rowCount()).isEqualTo(rows0 + 30);
        }
        default -> {
          assertThat(caughtUp.config()).containsEntry("stale.key", "1")
              .containsEntry("lancet.v2.composite", "yes");
          assertThat(caughtUp.rowCount()).isEqualTo(rows0 + 20);
        }
      }
      try (Table table = Table.open(dir.toString())) {
        assertThat(table.latest().version()).isEqualTo(v1 + 1);
        assertThat(table.latest().manifest().liveRows()).isEqualTo(caughtUp.rowCount());
      }
    }
  }

  /**
   * The read-side cost of decision 0001, pinned so that it is noticed when it changes: lance-core
   * 7.0.0 opens, counts, scans and lists a composite version, but {@code
   * Dataset.readTransaction()} on it throws, because it cannot decode the composite operation in
   * the {@code .txn} file. Lancet itself reads that transaction back.
   */
  @Test
  void lanceCoreReadsACompositeVersionButCannotDecodeItsTransaction() {
    Path dir = SharedFixtures.copy("config", tmp);
    long v0 = LanceOracle.latestVersion(dir);
    // A version lance-core wrote decodes.
    assertThat(LanceOracle.snapshot(dir, v0).transaction()).isPresent();

    CommitResult result;
    try (Table table = Table.open(dir.toString())) {
      result = table.newTransaction()
          .step("set a key", s -> s.setConfig("lancet.v2.key", "value"))
          .commit();
      TransactionProtos.Transaction txn = table.version(result.version()).transaction()
          .orElseThrow();
      assertThat(txn.hasCompositeOperation()).isTrue();
      assertThat(txn.getCompositeOperation().getActionsCount()).isEqualTo(1);
    }
    long v1 = result.version();
    assertThat(LanceOracle.snapshot(dir, v1).config()).containsEntry("lancet.v2.key", "value");
    assertThat(LanceOracle.versions(dir)).extracting(LanceOracle.VersionView::version)
        .contains(v0, v1);
    assertThat(LanceOracle.rows(dir, v1)).isEqualTo(LanceOracle.rows(dir, v0));
    assertThatThrownBy(() -> LanceOracle.withDataset(dir, java.util.OptionalLong.of(v1),
            Dataset::readTransaction))
        .hasMessageContaining("did not contain an operation");
  }

  /**
   * Feature bit 128 is FLAG_COVERED_INDEX_METADATA (decision 0009): a covering index makes
   * {@code fields} mean keys followed by carried columns, which a build without the bit would
   * misread, so the bit fences such builds off. lance-core 7.0.0 predates it and refuses the
   * version that declares a covering index; Lancet sets the bit only while one exists, so the
   * next version without it opens again with every row.
   */
  @Test
  void aCoveringIndexFencesLanceCoreOffAndTheFenceLiftsWithIt() {
    Path dir = SharedFixtures.copy("stable-row-ids-off", tmp);
    LanceOracle.TableSnapshot before = LanceOracle.snapshot(dir);
    UUID segment = UUID.randomUUID();
    long covered;
    try (Table table = Table.open(dir.toString())) {
      Manifest read = table.latest().manifest();
      List<Field> top = read.schema().topLevel();
      assertThat(top.size()).as("fixture columns").isGreaterThanOrEqualTo(2);
      List<Ref> fragments = read.fragments().stream().map(f -> Ref.committed(f.id())).toList();
      covered = table.newTransaction().step("covering index", s -> s.action(new dev.lancet.core.action.AddIndexSegment(
          segment, "covering_idx", List.of(Ref.committed(top.get(0).id())), java.util.Optional.empty(),
          java.util.OptionalInt.of(0), java.util.Optional.of(fragments), List.of(), false, java.util.Optional.empty(),
          java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), List.of(Ref.committed(top.get(1).id())))))
          .commit().version();
      assertThat(table.version(covered).manifest().readerFeatureFlags() & 128).isEqualTo(128);
    }
    assertThatThrownBy(() -> LanceOracle.snapshot(dir, covered))
        .hasMessageContaining("cannot be read by this version of Lance");

    long lifted;
    try (Table table = Table.open(dir.toString())) {
      lifted = table.newTransaction().step("drop it", s -> s.action(
          new dev.lancet.core.action.RemoveIndexSegment(segment, "covering_idx", false))).commit().version();
    }
    assertThat(LanceOracle.latestVersion(dir)).isEqualTo(lifted);
    assertThat(LanceOracle.countRows(dir, lifted)).isEqualTo(before.rowCount());
  }

  // -------------------------------------------------------------------------------------------
  // 5. lance-core appends on top of a composite commit; Lancet reads the result
  // -------------------------------------------------------------------------------------------

  /**
   * lance-core appends 10 rows (through its own writer, with the table's current Arrow schema)
   * on top of {@code compositeVersion}; both libraries then see the new version.
   */
  private static void lanceAppendsOnTopAndLancetReadsIt(Path dir, long compositeVersion,
      long liveRows) throws Exception {
    // The composite version is what Lancet recorded: a .txn-only composite operation.
    try (Table table = Table.open(dir.toString())) {
      Snapshot composite = table.version(compositeVersion);
      TransactionProtos.Transaction txn = composite.transaction().orElseThrow();
      assertThat(txn.hasCompositeOperation()).isTrue();
      assertThat(txn.getReadVersion()).isEqualTo(compositeVersion - 1);
    }
    Schema schema = arrowSchemaOf(dir);
    List<String> columns = LanceOracle.columnNames(dir, compositeVersion);
    long start = 2_000_000;
    long appended = lanceAppend(dir, schema, start, 10);
    assertThat(appended).isEqualTo(compositeVersion + 1);
    assertThat(LanceOracle.countRows(dir, appended)).isEqualTo(liveRows + 10);
    assertThat(LanceOracle.columnNames(dir, appended)).isEqualTo(columns);
    assertThat(LanceOracle.countRows(dir, appended, "id >= " + start)).isEqualTo(10);

    try (Table table = Table.open(dir.toString())) {
      Snapshot latest = table.latest();
      assertThat(latest.version()).isEqualTo(appended);
      Manifest m = latest.manifest();
      assertThat(m.liveRows()).isEqualTo(liveRows + 10);
      assertThat(m.schema().topLevel()).extracting(Field::name).isEqualTo(columns);
      assertThat(latest.transaction().orElseThrow().hasAppend()).isTrue();
      Fragment added = m.fragments().get(m.fragments().size() - 1);
      assertThat(added.physicalRows()).isEqualTo(10);
      // lance-core wrote every current leaf field of the schema into its new fragment.
      Set<Integer> written = new HashSet<>();
      added.files().forEach(f -> written.addAll(f.fields()));
      for (Field f : m.schema().topLevel()) {
        if (!f.logicalType().equals("struct")) {
          assertThat(written).as("fields of lance-core's fragment").contains(f.id());
        }
      }
      // And Lancet can commit again on top of lance-core's version.
      CommitResult again = table.newTransaction()
          .step("mark", s -> s.setConfig("lancet.v2.after-lance-append", "1")).commit();
      assertThat(again.version()).isEqualTo(appended + 1);
    }
    assertThat(LanceOracle.snapshot(dir).config()).containsEntry("lancet.v2.after-lance-append", "1");
    assertThat(LanceOracle.countRows(dir, appended + 1)).isEqualTo(liveRows + 10);
  }

  // -------------------------------------------------------------------------------------------
  // Helpers
  // -------------------------------------------------------------------------------------------

  /** Lancet appends rows {@code start ..} of {@code schema} as one new fragment. */
  private static CommitResult lancetAppend(Path dir, Schema schema, long start, int n)
      throws Exception {
    return lancetAppend(dir, schema, start, n, s -> { });
  }

  private static CommitResult lancetAppend(Path dir, Schema schema, long start, int n,
      Consumer<StepBuilder> more) throws Exception {
    LanceOracle.TableSnapshot lance = LanceOracle.snapshot(dir);
    // The layout lance-core uses for a file holding every column: copy it from an existing file.
    LanceOracle.DataFileView layout = lance.fragments().get(0).files().get(0);
    DataFile file;
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = LanceFixtures.rows(alloc, schema, start, n)) {
      file = writeDataFile(dir, root, lance.dataStorageVersion(), layout.columnIndices());
    }
    Ref[] fields = layout.fields().stream().map(id -> Ref.committed(id)).toArray(Ref[]::new);
    try (Table table = Table.open(dir.toString())) {
      return table.newTransaction()
          .step("append " + n + " rows", s -> {
            s.addFragment(0, n).addDataFile(Ref.local(0), file, fields);
            more.accept(s);
          })
          .commit();
    }
  }

  /**
   * Writes {@code root} as a standalone data file under {@code data/} in the Lance file version
   * {@code fileVersion} ("2.0", "2.1") and returns the DataFile entry for it.
   */
  private static DataFile writeDataFile(Path dir, VectorSchemaRoot root, String fileVersion,
      List<Integer> columnIndices) {
    String name = "lancet-v2-" + UUID.randomUUID() + ".lance";
    long size = LanceFixtures.writeDataFile(dir.resolve("data").resolve(name), root, fileVersion);
    String[] mm = fileVersion.split("\\.");
    return new DataFile(name, List.of(), columnIndices, Integer.parseInt(mm[0]),
        Integer.parseInt(mm[1]), size);
  }

  /** Commits one SetDeletionFile per fragment: the union of its existing vector and {@code newly}. */
  private static CommitResult commitDeletions(Path dir, Map<Long, DeletionVector> newly,
      Map<Long, DeletionFile.Kind> kinds) throws IOException {
    return plannedDeletions(dir, newly, kinds).commit();
  }

  /**
   * A composite delete of {@code newly} (on top of each fragment's current deletions) planned
   * on the latest version, its deletion files written; commit it later to race another.
   */
  private static dev.lancet.core.transaction.TransactionBuilder plannedDeletions(Path dir,
      Map<Long, DeletionVector> newly, Map<Long, DeletionFile.Kind> kinds) throws IOException {
    Map<Long, DeletionVector> existing = existingDeletionVectors(dir);
    try (Table table = Table.open(dir.toString())) {
      long readVersion = table.latest().version();
      LocalObjectStore store = new LocalObjectStore(dir);
      Map<Long, DeletionFile> files = new LinkedHashMap<>();
      for (var e : newly.entrySet()) {
        long fragment = e.getKey();
        DeletionVector post = existing.getOrDefault(fragment, DeletionVector.empty())
            .union(e.getValue());
        DeletionFile.Kind kind = kinds.get(fragment);
        DeletionFile df = new DeletionFile(kind, readVersion, DeletionFileNames.newId(),
            post.cardinality());
        byte[] bytes = kind == DeletionFile.Kind.BITMAP
            ? DeletionFileFormat.writeBitmap(post) : DeletionFileFormat.writeArrow(post);
        store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment), bytes);
        files.put(fragment, df);
      }
      return new dev.lancet.core.transaction.TransactionBuilder(store, dir.toString(), readVersion)
          .step("delete rows", s -> files.forEach(s::setDeletionFile));
    }
  }

  /** Every fragment's current deletion vector, read with Lancet from the file its manifest names. */
  private static Map<Long, DeletionVector> existingDeletionVectors(Path dir) throws IOException {
    Map<Long, DeletionVector> out = new HashMap<>();
    try (Table table = Table.open(dir.toString())) {
      for (Fragment f : table.latest().manifest().fragments()) {
        if (f.deletionFile().isPresent()) {
          DeletionFile df = f.deletionFile().get();
          String path = DeletionFileNames.DIRECTORY + "/" + df.fileName(f.id());
          DeletionVector dv = DeletionFileFormat.read(table.store().get(path), df.kind(), path);
          assertThat(dv.cardinality()).as(path).isEqualTo(df.numDeletedRows());
          out.put(f.id(), dv);
        }
      }
    }
    return out;
  }

  /** lance-core sees exactly the newly deleted rows gone, and the deletion files as written. */
  private static void checkDeletions(Path dir, LanceOracle.TableSnapshot before,
      List<RowIdentity> identitiesBefore, CommitResult result, Map<Long, DeletionVector> newly,
      Map<Long, DeletionVector> existing, Map<Long, DeletionFile.Kind> kinds, long newlyDeleted) {
    long v = result.version();
    assertThat(v).isEqualTo(before.version() + 1);
    assertThat(LanceOracle.latestVersion(dir)).isEqualTo(v);
    assertThat(LanceOracle.countRows(dir, v)).isEqualTo(before.rowCount() - newlyDeleted);

    List<RowIdentity> expected = new ArrayList<>();
    Set<Long> deletedIds = new HashSet<>();
    for (RowIdentity r : identitiesBefore) {
      DeletionVector dv = newly.get((long) r.fragmentId());
      if (dv != null && dv.contains(r.offset())) {
        deletedIds.add(r.id());
      } else {
        expected.add(r);
      }
    }
    assertThat(deletedIds).hasSize(Math.toIntExact(newlyDeleted));
    List<RowIdentity> after = LanceOracle.rowIdentities(dir, v);
    assertThat(after).isEqualTo(expected);
    assertThat(LanceOracle.rows(dir, v)).extracting(LanceOracle.Row::id)
        .doesNotContainAnyElementsOf(deletedIds);
    long sample = deletedIds.iterator().next();
    assertThat(LanceOracle.countRows(dir, v, "id = " + sample)).isZero();
    // The version before still has them (time travel over Lancet's version).
    assertThat(LanceOracle.countRows(dir, before.version(), "id = " + sample)).isEqualTo(1);

    LanceOracle.TableSnapshot snap = LanceOracle.snapshot(dir, v);
    for (var e : newly.entrySet()) {
      int fragment = Math.toIntExact(e.getKey());
      long total = existing.getOrDefault(e.getKey(), DeletionVector.empty()).union(e.getValue())
          .cardinality();
      LanceOracle.FragmentView fv = snap.fragment(fragment);
      assertThat(fv.numDeletedRows()).isEqualTo(total);
      assertThat(fv.liveRows()).isEqualTo(fv.physicalRows() - total);
      LanceOracle.DeletionFileView df = fv.deletionFile().orElseThrow();
      assertThat(df.type()).isEqualTo(kinds.get(e.getKey()) == DeletionFile.Kind.BITMAP
          ? "BITMAP" : "ARROW_ARRAY");
      assertThat(df.readVersion()).isEqualTo(before.version());
      assertThat(Files.exists(dir.resolve(df.relativePath()))).as(df.relativePath()).isTrue();
    }
    assertThat(result.manifest().liveRows()).isEqualTo(before.rowCount() - newlyDeleted);
  }

  private static List<Integer> liveOffsets(List<RowIdentity> identities, int fragment) {
    return identities.stream().filter(r -> r.fragmentId() == fragment)
        .map(RowIdentity::offset).sorted().toList();
  }

  /** The largest field id lance-core's schema or any data file of {@code s} names. */
  private static int maxFieldIdSeenByLance(LanceOracle.TableSnapshot s) {
    int max = -1;
    for (LanceOracle.FieldView f : s.fields()) {
      max = Math.max(max, f.id());
    }
    for (LanceOracle.FragmentView fv : s.fragments()) {
      for (LanceOracle.DataFileView d : fv.files()) {
        for (int id : d.fields()) {
          max = Math.max(max, id);
        }
      }
    }
    return max;
  }

  private static Field lancetField(Manifest m, String name) {
    return m.schema().fields().stream().filter(f -> f.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("Lancet's schema has no field " + name));
  }

  /** The table's Arrow schema as lance-core reports it at the latest version. */
  private static Schema arrowSchemaOf(Path dir) {
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open().allocator(alloc).uri(dir.toAbsolutePath().toString()).build()) {
      return ds.getSchema();
    }
  }

  /** Data files for an append written by lance-core, not committed. */
  private static List<FragmentMetadata> lanceFragments(BufferAllocator alloc, String uri,
      Schema schema, long start, int n) {
    try (VectorSchemaRoot root = LanceFixtures.rows(alloc, schema, start, n)) {
      return org.lance.Fragment.create(uri, alloc, root, new WriteParams.Builder().build());
    }
  }

  /**
   * lance-core appends rows {@code start ..} of {@code schema}, whose columns may include, besides
   * the fixture columns, {@code score} (id * 3), {@code label} (the renamed {@code name}) and the
   * schema-evolution fixture's {@code double_id} and {@code note}.
   */
  @SuppressWarnings("deprecation")
  private static long lanceAppend(Path dir, Schema schema, long start, int n) {
    List<org.apache.arrow.vector.types.pojo.Field> fixtureColumns = new ArrayList<>();
    for (var f : schema.getFields()) {
      if (Set.of("id", "name", "props", "vec").contains(f.getName())) {
        fixtureColumns.add(f);
      }
    }
    byte[] ipc;
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot base = LanceFixtures.rows(alloc, new Schema(fixtureColumns), start, n)) {
      List<FieldVector> vectors = new ArrayList<>();
      List<FieldVector> extra = new ArrayList<>();
      for (var f : schema.getFields()) {
        switch (f.getName()) {
          case "id", "name", "props", "vec" -> vectors.add(base.getVector(f.getName()));
          case "label" -> {
            VarCharVector v = (VarCharVector) f.createVector(alloc);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
              String s = LanceFixtures.name(start + i);
              if (s == null) {
                v.setNull(i);
              } else {
                v.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
              }
            }
            v.setValueCount(n);
            vectors.add(v);
            extra.add(v);
          }
          case "score" -> {
            FieldVector v = f.createVector(alloc);
            if (v instanceof IntVector iv) {
              iv.allocateNew(n);
              for (int i = 0; i < n; i++) {
                iv.set(i, Math.toIntExact(score(start + i)));
              }
            } else {
              BigIntVector bv = (BigIntVector) v;
              bv.allocateNew(n);
              for (int i = 0; i < n; i++) {
                bv.set(i, score(start + i));
              }
            }
            v.setValueCount(n);
            vectors.add(v);
            extra.add(v);
          }
          case "double_id" -> { // schema-evolution: id * 2
            BigIntVector v = (BigIntVector) f.createVector(alloc);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
              v.set(i, (start + i) * 2);
            }
            v.setValueCount(n);
            vectors.add(v);
            extra.add(v);
          }
          case "note" -> { // schema-evolution: an all-null string column
            VarCharVector v = (VarCharVector) f.createVector(alloc);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
              v.setNull(i);
            }
            v.setValueCount(n);
            vectors.add(v);
            extra.add(v);
          }
          default -> throw new IllegalArgumentException("no values for column " + f.getName());
        }
      }
      VectorSchemaRoot root = new VectorSchemaRoot(vectors);
      root.setRowCount(n);
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, bos)) {
        w.start();
        w.writeBatch();
        w.end();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        extra.forEach(FieldVector::close);
      }
      ipc = bos.toByteArray();
    }
    try (BufferAllocator alloc = new RootAllocator();
        ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), alloc);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
      Data.exportArrayStream(alloc, reader, stream);
      WriteParams params = new WriteParams.Builder().withMode(WriteParams.WriteMode.APPEND).build();
      try (Dataset ds = Dataset.create(alloc, stream, dir.toAbsolutePath().toString(), params)) {
        return ds.version();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
