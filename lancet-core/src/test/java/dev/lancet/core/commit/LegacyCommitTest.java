package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.Table;
import dev.lancet.core.TestDataFiles;
import dev.lancet.core.action.Ref;
import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.operation.Append;
import dev.lancet.core.operation.CreateIndex;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.operation.Update;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.LegacyTransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TransactionProtos;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Legacy operations committed by Lancet against concurrent writers: the legacy pairwise rules,
 * the row-level rebase of concurrent deletes (real deletion files on disk), and the cross-form
 * boundary with composite operations.
 */
class LegacyCommitTest {
  private static final Schema SCHEMA =
      new Schema(List.of(Field.builder(0, "id", "int64").nullable(false).build()), Map.of());

  @TempDir Path dir;
  LocalObjectStore store;
  Table table;

  @BeforeEach
  void createTable() throws Exception {
    Manifest v1 = Manifest.builder()
        .version(1)
        .schema(SCHEMA)
        .fragments(List.of(fragment(0, 100), fragment(1, 100)))
        .maxFragmentId(OptionalLong.of(1))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    store = new LocalObjectStore(dir);
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    // The data files the tests commit (a commit checks that new files exist with their sizes).
    for (String name : List.of("data/0.lance", "data/1.lance", "data/0-id.lance")) {
      TestDataFiles.placed(store, new DataFile(name, List.of(0), List.of(0), 2, 1, 100));
    }
    TestDataFiles.placed(store, new DataFile("c.lance", List.of(0), List.of(0), 2, 1, 10));
    table = Table.open(dir.toString(), store);
  }

  private static Fragment fragment(long id, long rows) {
    return Fragment.of(id, rows, List.of(new DataFile("data/" + id + ".lance", List.of(0), List.of(0), 2, 1, 100)));
  }

  /** A legacy Delete of {@code offsets} in fragment {@code id} of version 1, with its deletion file written. */
  private LegacyTransactionBuilder deleteRows(long id, int... offsets) throws Exception {
    DeletionFile file = FragmentCodec.fromProto(
        new StoreDeletionVectors(store).write(id, 1, DeletionVector.of(offsets)));
    Fragment updated = fragment(id, 100).toBuilder().deletionFile(Optional.of(file)).build();
    return table.newLegacyTransaction(new Delete(List.of(updated), List.of(), "id in (...)")).readVersion(1);
  }

  private DeletionVector deletedRows(Snapshot s, long fragmentId) throws Exception {
    Fragment f = s.manifest().fragments().stream().filter(x -> x.id() == fragmentId).findFirst().orElseThrow();
    return new StoreDeletionVectors(store).read(fragmentId, FragmentCodec.toProto(f.deletionFile().orElseThrow()));
  }

  @Test
  void aLegacyAppendCommitsInlineAndInItsTransactionFile() throws Exception {
    CommitResult r = table.newLegacyTransaction(new Append(List.of(fragment(0, 10)))).commit();

    Snapshot v2 = table.latest();
    assertThat(r.version()).isEqualTo(2);
    assertThat(v2.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L);
    TransactionProtos.Transaction stored = v2.transaction().orElseThrow();
    assertThat(stored.hasAppend()).isTrue();
    assertThat(stored.getUuid()).isEqualTo(r.transactionUuid());
  }

  @Test
  void concurrentDeletesOfDisjointRowsBothLandWithMergedDeletionVectors() throws Exception {
    LegacyTransactionBuilder first = deleteRows(0, 1, 2, 3);
    LegacyTransactionBuilder second = deleteRows(0, 50, 51);
    first.commit();

    CommitResult r = second.commit();

    Snapshot latest = table.latest();
    assertThat(r.version()).isEqualTo(3);
    assertThat(deletedRows(latest, 0).toArray()).containsExactly(1, 2, 3, 50, 51);
    Fragment f0 = latest.manifest().fragments().get(0);
    assertThat(f0.deletionFile().orElseThrow().numDeletedRows()).isEqualTo(5);
    // The rebased transaction is what was stored: it names the merged file.
    TransactionProtos.Transaction stored = latest.transaction().orElseThrow();
    assertThat(stored.getDelete().getUpdatedFragments(0).getDeletionFile().getNumDeletedRows()).isEqualTo(5);
  }

  @Test
  void concurrentDeletesOfTheSameRowIsARetryableConflictAndNothingIsWritten() throws Exception {
    LegacyTransactionBuilder first = deleteRows(0, 1, 2, 3);
    LegacyTransactionBuilder second = deleteRows(0, 3, 4);
    first.commit();

    assertThatThrownBy(second::commit)
        .isInstanceOf(ConflictingCommitException.class)
        .hasMessageContaining("fragment 0")
        .satisfies(e -> {
          // Charged to the winner whose deletion the rows meet.
          assertThat(((ConflictingCommitException) e).version()).isEqualTo(2);
          assertThat(((ConflictingCommitException) e).winnerOperation()).isEqualTo("Delete");
        });
    assertThat(table.latest().version()).isEqualTo(2);
    assertThat(deletedRows(table.latest(), 0).toArray()).containsExactly(1, 2, 3);
  }

  @Test
  void deletesOfDifferentFragmentsBothLandUntouched() throws Exception {
    LegacyTransactionBuilder first = deleteRows(0, 1);
    LegacyTransactionBuilder second = deleteRows(1, 1);
    first.commit();
    second.commit();

    Snapshot latest = table.latest();
    assertThat(deletedRows(latest, 0).toArray()).containsExactly(1);
    assertThat(deletedRows(latest, 1).toArray()).containsExactly(1);
  }

  @Test
  void anAppendAfterAConcurrentOverwriteIsIncompatible() {
    LegacyTransactionBuilder append = table.newLegacyTransaction(new Append(List.of(fragment(0, 10)))).readVersion(1);
    table.newLegacyTransaction(new Overwrite(List.of(fragment(0, 5)), SCHEMA, Map.of(), List.of())).commit();

    assertThatThrownBy(append::commit)
        .isInstanceOf(IncompatibleTransactionException.class)
        .satisfies(e -> {
          IncompatibleTransactionException i = (IncompatibleTransactionException) e;
          assertThat(i.winnerVersion()).isEqualTo(2);
          assertThat(i.winnerOperation()).isEqualTo("Overwrite");
        });
  }

  @Test
  void aCompositeCommitRebasesOverALegacyAppendAndALegacyAppendOverAComposite() {
    var composite = table.newTransaction().readVersion(1).step("append", s -> s.addFragment(0, 5)
        .addDataFile(Ref.local(0), new DataFile("c.lance", List.of(0), List.of(0), 2, 1, 10), Ref.committed(0)));
    var legacy = table.newLegacyTransaction(new Append(List.of(fragment(0, 10)))).readVersion(1);
    legacy.commit();
    CommitResult c = composite.commit();
    var legacyAgain = table.newLegacyTransaction(new Append(List.of(fragment(0, 7)))).readVersion(2);

    CommitResult l = legacyAgain.commit();

    assertThat(c.version()).isEqualTo(3);
    assertThat(l.version()).isEqualTo(4);
    assertThat(l.manifest().fragments()).hasSize(5);
  }

  @Test
  void aNewIndexDropsFragmentsWhoseIndexedColumnAConcurrentUpdateRewrote() {
    IndexSegment index = new IndexSegment(UUID.randomUUID(), List.of(0), "id_idx", 1,
        IndexSegment.fragmentBitmapOf(List.of(0L, 1L)), Optional.empty(), OptionalInt.of(0),
        OptionalLong.empty(), OptionalInt.empty(), List.of(), List.of(), UnknownFieldSet.getDefaultInstance());
    var createIndex = table.newLegacyTransaction(new CreateIndex(List.of(index), List.of())).readVersion(1);
    Fragment rewritten = Fragment.of(0, 100, List.of(
        new DataFile("data/0.lance", List.of(-2), List.of(0), 2, 1, 100),
        new DataFile("data/0-id.lance", List.of(0), List.of(0), 2, 1, 100)));
    table.newLegacyTransaction(new Update(List.of(), List.of(rewritten), List.of(), List.of(0), List.of(),
        List.of(), Update.UpdateMode.REWRITE_COLUMNS, Optional.empty(),
        Map.of(0L, IndexSegment.fragmentBitmapOf(List.of(4L))))).commit();

    CommitResult r = createIndex.commit();

    IndexSegment published = r.indices().stream().filter(i -> i.name().equals("id_idx")).findFirst().orElseThrow();
    assertThat(published.coveredFragments().orElseThrow().toArray()).containsExactly(1);
    // What was stored says the same as what was applied.
    TransactionProtos.Transaction stored = table.latest().transaction().orElseThrow();
    assertThat(stored.getCreateIndex().getNewIndices(0).getFragmentBitmap())
        .isEqualTo(IndexSegment.fragmentBitmapOf(List.of(1L)));
  }

  @Test
  void aCompositeCommitAgainstAConcurrentLegacyOverwriteFailsClosed() {
    var composite = table.newTransaction().readVersion(1).step("config", s -> s.setConfig("k", "v"));
    table.newLegacyTransaction(new Overwrite(List.of(fragment(0, 5)), SCHEMA, Map.of(), List.of())).commit();

    assertThatThrownBy(composite::commit)
        .isInstanceOf(ConflictingCommitException.class)
        .satisfies(e -> assertThat(((ConflictingCommitException) e).winnerOperation()).isEqualTo("Overwrite"));
    assertThat(table.latest().version()).isEqualTo(2);
  }

  /**
   * Decision 0005 says the MemWAL index obligations never conflict, and upstream merges them
   * (finish_create_index): a CreateIndex that installs the MemWAL index, racing an
   * UpdateMemWalState that recorded compaction progress, lands with the progress of both (per
   * shard the higher generation) and one MemWAL index. Seen before the fix: a retryable
   * conflict ("which Lancet does not do yet").
   */
  @Test
  void aMemWalIndexBuildAbsorbsConcurrentCompactionProgress() throws Exception {
    UUID shardA = new UUID(0xA, 1);
    UUID shardB = new UUID(0xB, 1);
    UUID shardC = new UUID(0xC, 1);
    IndexSegment installed = dev.lancet.core.action.IndexApplyFixtures.memWalIndex(new UUID(1, 1), Map.of(shardA, 1L));
    table.newLegacyTransaction(new CreateIndex(List.of(installed), List.of())).readVersion(1).commit();

    // Both read version 2: a compactor records progress, a rebuild of the MemWAL index is planned.
    table.newLegacyTransaction(new dev.lancet.core.operation.UpdateMemWalState(List.of(
        new dev.lancet.core.action.CompactedSsTable(shardA, 5), new dev.lancet.core.action.CompactedSsTable(shardB, 2))))
        .readVersion(2).commit();
    IndexSegment rebuilt = dev.lancet.core.action.IndexApplyFixtures.memWalIndex(new UUID(2, 2),
        new java.util.LinkedHashMap<>(Map.of(shardA, 3L, shardC, 4L)));
    CommitResult result = table.newLegacyTransaction(new CreateIndex(List.of(rebuilt), List.of(installed)))
        .readVersion(2).commit();

    assertThat(result.version()).isEqualTo(4);
    Snapshot v4 = Snapshot.latest(store, dir.toString());
    assertThat(v4.indices()).extracting(IndexSegment::name).containsExactly("__lance_mem_wal");
    assertThat(v4.indices().get(0).uuid()).isEqualTo(rebuilt.uuid());
    assertThat(dev.lancet.core.action.IndexApplyFixtures.progress(v4.indices()))
        .containsExactlyInAnyOrderEntriesOf(Map.of(shardA, 5L, shardB, 2L, shardC, 4L));
    assertThat(v4.indices().get(0).datasetVersion()).isEqualTo(3);
    // The rebased transaction on record carries the merged index, as it was applied.
    TransactionProtos.Transaction recorded = v4.transaction().orElseThrow();
    assertThat(recorded.getCreateIndex().getNewIndices(0).getIndexDetails())
        .isEqualTo(v4.indices().get(0).indexDetails().orElseThrow());
  }

  @Test
  void aMemWalIndexBuildOverTwoConcurrentProgressRecordsKeepsTheHighestGenerations() throws Exception {
    UUID shardA = new UUID(0xA, 1);
    IndexSegment installed = dev.lancet.core.action.IndexApplyFixtures.memWalIndex(new UUID(1, 1), Map.of(shardA, 1L));
    table.newLegacyTransaction(new CreateIndex(List.of(installed), List.of())).readVersion(1).commit();
    for (long gen : new long[] {4, 9}) {
      table.newLegacyTransaction(new dev.lancet.core.operation.UpdateMemWalState(List.of(
          new dev.lancet.core.action.CompactedSsTable(shardA, gen)))).commit();
    }
    IndexSegment rebuilt = dev.lancet.core.action.IndexApplyFixtures.memWalIndex(new UUID(2, 2), Map.of(shardA, 2L));
    table.newLegacyTransaction(new CreateIndex(List.of(rebuilt), List.of(installed))).readVersion(2).commit();
    Snapshot latest = Snapshot.latest(store, dir.toString());
    assertThat(latest.indices()).hasSize(1);
    assertThat(dev.lancet.core.action.IndexApplyFixtures.progress(latest.indices())).containsEntry(shardA, 9L);
  }
}
