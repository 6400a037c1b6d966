package dev.lancet.core.commit;

import dev.lancet.core.TestDataFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RelocateRows;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.deletion.PortableRoaring;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Row-level rebase of V2 deletes (docs/decisions/0016) on a real table directory with real
 * deletion files ({@link TwoFieldTable}): composite deletes of disjoint rows of one fragment both
 * land with the union of their deletion vectors; the same row deleted twice is a typed conflict
 * naming the fragment and the rows, and publishes nothing; and the interactions with moves,
 * removals, compaction, column rewrites, overlays and legacy Deletes in both directions.
 */
class RowLevelDeleteRebaseTest {
  private static final long READ = TwoFieldTable.READ;

  @TempDir Path dir;
  TwoFieldTable t;
  LocalObjectStore store;
  DeletionFiles files;
  Table table;
  Snapshot v2;

  @BeforeEach
  void seed() throws Exception {
    t = new TwoFieldTable(dir);
    store = t.store;
    files = t.files;
    table = t.table;
    v2 = t.v2;
  }

  private CommitResult commit(Action... actions) {
    return t.commit(actions);
  }

  private TransactionBuilder planned(Action... actions) {
    return t.planned(actions);
  }

  private DeletionVector deleted(long fragment) throws Exception {
    return t.deleted(fragment);
  }

  private static DataFile file(String path) {
    return TwoFieldTable.file(path);
  }

  @Test
  void disjointDeletesOfOneFragmentBothLandWithTheUnionOfTheirRows() throws Exception {
    SetDeletionFile first = files.delete(v2, 0, 1, 2, 3);
    SetDeletionFile second = files.delete(v2, 0, 50, 51);
    commit(first);
    int filesBefore = files.fileCount();

    CommitResult r = commit(second);

    assertThat(r.version()).isEqualTo(4);
    assertThat(deleted(0).toArray()).containsExactly(1, 2, 3, 50, 51);
    Fragment f0 = table.latest().manifest().fragment(0).orElseThrow();
    DeletionFile merged = f0.deletionFile().orElseThrow();
    assertThat(merged.numDeletedRows()).isEqualTo(5);
    assertThat(merged.readVersion()).as("named with the version it was merged onto").isEqualTo(3);
    // A new file next to the two originals (never overwritten), and the stored transaction names it.
    assertThat(files.fileCount()).isEqualTo(filesBefore + 1);
    assertThat(Files.exists(dir.resolve(DeletionFileNames.DIRECTORY).resolve(merged.fileName(0)))).isTrue();
    assertThat(files.deleted(0, first.deletionFile()).toArray()).containsExactly(1, 2, 3);
    assertThat(files.deleted(0, second.deletionFile()).toArray()).containsExactly(50, 51);
    CompositeOperation stored = ActionCodec.decode(table.latest().transaction().orElseThrow().getCompositeOperation());
    assertThat(stored.actions()).containsExactly(new SetDeletionFile(0, Optional.of(merged), true));
    assertThat(r.attempts()).isEqualTo(1);
  }

  @Test
  void deletesOfTheSameRowAreATypedConflictNamingTheFragmentAndTheRowsAndPublishNothing() throws Exception {
    commit(files.delete(v2, 0, 1, 2, 3));
    TransactionBuilder loser = planned(files.delete(v2, 0, 3, 4, 2));
    int filesBefore = files.fileCount();

    assertThatThrownBy(loser::commit).isInstanceOfSatisfying(ConflictingCommitException.class, e -> {
      assertThat(e.version()).isEqualTo(3);
      assertThat(e.winnerOperation()).isEqualTo("CompositeOperation");
      assertThat(e.conflicts()).singleElement().isInstanceOfSatisfying(Collision.FragmentDeletions.class, c -> {
        assertThat(c.fragment()).isZero();
        assertThat(c.rows().toArray()).containsExactly(2, 3);
      });
      assertThat(e.collisions()).singleElement().asString()
          .startsWith("FRAGMENT_DELETIONS: fragment 0: rows [2, 3] were also deleted");
    });
    assertThat(table.latest().version()).isEqualTo(3);
    assertThat(deleted(0).toArray()).containsExactly(1, 2, 3);
    assertThat(files.fileCount()).as("no merged file was written").isEqualTo(filesBefore);
  }

  @Test
  void aConflictFoundOnTheDeletionFilesIsReportedToTheAttemptObserver() throws Exception {
    commit(files.delete(v2, 0, 1));
    List<CommitAttempt> seen = new java.util.ArrayList<>();
    TransactionBuilder composite = planned(files.delete(v2, 0, 1, 2)).onAttempt(seen::add);
    dev.lancet.core.transaction.LegacyTransactionBuilder legacy = legacyDelete(1, 6).onAttempt(seen::add);
    commit(files.delete(v2, 1, 6));

    assertThatThrownBy(composite::commit).isInstanceOf(ConflictingCommitException.class);
    assertThatThrownBy(legacy::commit).isInstanceOf(ConflictingCommitException.class);

    assertThat(seen).extracting(CommitAttempt::outcome)
        .containsExactly(CommitAttempt.Outcome.CONFLICT, CommitAttempt.Outcome.CONFLICT);
    assertThat(seen.get(0).detail()).startsWith("FRAGMENT_DELETIONS: fragment 0: rows [1]");
    assertThat(seen.get(1).detail()).startsWith("FRAGMENT_DELETIONS: ").contains("fragment 1").contains("[6]");
  }

  @Test
  void aDeleteRebasesOverSeveralWinnersAtOnce() throws Exception {
    SetDeletionFile a = files.delete(v2, 1, 10);
    SetDeletionFile b = files.delete(v2, 1, 20, 21);
    SetDeletionFile c = files.delete(v2, 1, 30);
    SetDeletionFile other = files.delete(v2, 2, 10);
    commit(a);
    commit(other);
    commit(b);

    CommitResult r = commit(c);

    assertThat(r.version()).isEqualTo(6);
    assertThat(deleted(1).toArray()).containsExactly(10, 20, 21, 30);
    assertThat(deleted(2).toArray()).containsExactly(10);
  }

  @Test
  void aUnionThatDeletesEveryRowRemovesTheFragment() throws Exception {
    int[] firstHalf = new int[50];
    int[] secondHalf = new int[50];
    for (int i = 0; i < 50; i++) {
      firstHalf[i] = i;
      secondHalf[i] = 50 + i;
    }
    commit(files.delete(v2, 2, firstHalf));

    commit(files.delete(v2, 2, secondHalf));

    assertThat(table.latest().manifest().fragment(2)).isEmpty();
    CompositeOperation stored = ActionCodec.decode(table.latest().transaction().orElseThrow().getCompositeOperation());
    assertThat(stored.actions()).containsExactly(new RemoveFragment(Ref.committed(2), true));
  }

  @Test
  void aWinnerThatCompactedTheFragmentStillConflicts() {
    commit(new RemoveFragment(Ref.committed(0), false), new RemoveFragment(Ref.committed(1), false),
        new AddFragment(Ref.local(0), 200, Optional.empty(), Optional.empty(), Optional.empty(), false),
        new AddDataFile(Ref.local(0), TestDataFiles.placed(store, new DataFile("compacted.lance", List.of(-1, -1), List.of(0, 1), 2, 1, 10)),
            List.of(Ref.committed(0), Ref.committed(1)), false));

    assertThatThrownBy(() -> commit(files.delete(v2, 1, 7))).isInstanceOfSatisfying(ConflictingCommitException.class,
        e -> assertThat(e.conflicts()).extracting(Collision::kind).containsOnly(Collision.Kind.FRAGMENT));
  }

  @Test
  void aWinnerThatRemovedTheFragmentConflicts() {
    commit(new RemoveFragment(Ref.committed(1), true));

    assertThatThrownBy(() -> commit(files.delete(v2, 1, 7))).isInstanceOfSatisfying(ConflictingCommitException.class,
        e -> assertThat(e.conflicts()).first().isInstanceOfSatisfying(Collision.Fragment.class,
            c -> assertThat(c.fragment()).isEqualTo(1)));
  }

  @Test
  void aClearedDeletionFileIsNotMergedWithAnything() throws Exception {
    commit(files.delete(v2, 0, 5));

    assertThatThrownBy(() -> commit(new SetDeletionFile(0, Optional.empty(), true)))
        .isInstanceOfSatisfying(ConflictingCommitException.class, e -> assertThat(e.conflicts()).singleElement()
            .isInstanceOfSatisfying(Collision.FragmentDeletions.class, c -> {
              assertThat(c.fragment()).isZero();
              assertThat(c.rows().isEmpty()).as("the deletion file as a whole").isTrue();
            }));
  }

  @Test
  void aDeletionFileThatTakesDeletionsBackIsNotMergedWithAConcurrentDelete() throws Exception {
    // Version 3 deletes row 1; both of the next two read version 3.
    commit(files.delete(v2, 0, 1));
    Snapshot v3 = table.latest();
    SetDeletionFile restoresRow1 = new SetDeletionFile(0,
        Optional.of(files.write(0, 3, DeletionVector.of(9))), true);
    new TransactionBuilder(store, dir.toString(), 3).step("delete", s -> s.action(uncheckedDelete(v3, 0, 5))).commit();

    assertThatThrownBy(() -> new TransactionBuilder(store, dir.toString(), 3).step("odd", s -> s.action(restoresRow1)).commit())
        .isInstanceOfSatisfying(ConflictingCommitException.class, e -> assertThat(e.conflicts()).singleElement()
            .isInstanceOfSatisfying(Collision.FragmentDeletions.class, c -> {
              assertThat(c.rows().toArray()).containsExactly(1);
              assertThat(c.description()).contains("no longer deletes rows [1]");
            }));
  }

  private SetDeletionFile uncheckedDelete(Snapshot read, long id, int... rows) {
    try {
      return files.delete(read, id, rows);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aColumnRewriteOfTheFragmentCommutesWithADelete() throws Exception {
    commit(new TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(1)), true),
        new AddDataFile(Ref.committed(0), TestDataFiles.placed(store, file("name-0-v2.lance")), List.of(Ref.committed(1)), true));

    commit(files.delete(v2, 0, 4));

    Fragment f0 = table.latest().manifest().fragment(0).orElseThrow();
    assertThat(f0.files()).extracting(DataFile::path).contains("name-0-v2.lance");
    assertThat(deleted(0).toArray()).containsExactly(4);
  }

  @Test
  void anOverlayOfTheFragmentCommutesWithADeleteInEitherOrder() throws Exception {
    AddOverlays overlay = new AddOverlays(Ref.committed(1), List.of(new DataOverlayFile(
        TestDataFiles.placed(store, new DataFile("o.lance", List.of(1), List.of(0), 2, 1, 10)),
        new DataOverlayFile.SharedCoverage(ByteString.copyFrom(PortableRoaring.write(RoaringBitmap.bitmapOf(3)))),
        0, UnknownFieldSet.getDefaultInstance())), true);
    SetDeletionFile delete = files.delete(v2, 1, 3, 4);
    commit(overlay);
    commit(delete);

    assertThat(table.latest().manifest().fragment(1).orElseThrow().overlays()).hasSize(1);
    assertThat(deleted(1).toArray()).containsExactly(3, 4);
  }

  /** An update that moved row {@code row} of {@code fragment} into a new fragment. */
  private Action[] move(long fragment, int row) throws Exception {
    return new Action[] {files.delete(v2, fragment, row), new RelocateRows(fragment, RoaringBitmap.bitmapOf(row)),
        AddFragment.local(0, 1), new AddDataFile(Ref.local(0), TestDataFiles.placed(store, new DataFile("moved.lance", List.of(-1, -1),
            List.of(0, 1), 2, 1, 10)), List.of(Ref.committed(0), Ref.committed(1)), true)};
  }

  @Test
  void deletesMergeWithAConcurrentMoveOfOtherRowsAndConflictOnTheMovedRow() throws Exception {
    commit(move(0, 5));

    commit(files.delete(v2, 0, 6));
    assertThat(deleted(0).toArray()).containsExactly(5, 6);

    assertThatThrownBy(() -> commit(files.delete(v2, 0, 5, 7))).isInstanceOfSatisfying(ConflictingCommitException.class,
        e -> assertThat(e.conflicts()).singleElement().isInstanceOfSatisfying(Collision.FragmentDeletions.class,
            c -> assertThat(c.rows().toArray()).containsExactly(5)));
  }

  @Test
  void aMoveMergesWithAConcurrentDeleteOfOtherRows() throws Exception {
    commit(files.delete(v2, 0, 6));

    commit(move(0, 5));

    assertThat(deleted(0).toArray()).containsExactly(5, 6);
    assertThat(table.latest().manifest().fragments()).hasSize(4);
  }

  // ---- legacy Delete, in both directions ---------------------------------------------------

  private dev.lancet.core.transaction.LegacyTransactionBuilder legacyDelete(long id, int... rows) throws Exception {
    Fragment post = v2.manifest().fragment(id).orElseThrow().toBuilder()
        .deletionFile(files.delete(v2, id, rows).deletionFile()).build();
    return table.newLegacyTransaction(new Delete(List.of(post), List.of(), "id in (...)")).readVersion(READ);
  }

  @Test
  void aCompositeDeleteMergesOverALegacyDeleteOfOtherRows() throws Exception {
    legacyDelete(0, 1, 2).commit();

    commit(files.delete(v2, 0, 8));

    assertThat(deleted(0).toArray()).containsExactly(1, 2, 8);
  }

  @Test
  void aLegacyDeleteMergesOverACompositeDeleteOfOtherRows() throws Exception {
    dev.lancet.core.transaction.LegacyTransactionBuilder legacy = legacyDelete(0, 1, 2);
    commit(files.delete(v2, 0, 8));

    legacy.commit();

    assertThat(deleted(0).toArray()).containsExactly(1, 2, 8);
    assertThat(table.latest().transaction().orElseThrow().hasDelete()).isTrue();
  }

  @Test
  void theSameRowDeletedByALegacyAndACompositeDeleteConflictsInEitherOrder() throws Exception {
    dev.lancet.core.transaction.LegacyTransactionBuilder legacyFirst = legacyDelete(0, 1, 2);
    TransactionBuilder compositeSecond = planned(files.delete(v2, 0, 2, 9));
    legacyFirst.commit();
    assertThatThrownBy(compositeSecond::commit).isInstanceOfSatisfying(ConflictingCommitException.class, e -> {
      assertThat(e.winnerOperation()).isEqualTo("Delete");
      assertThat(e.conflicts()).singleElement().isInstanceOfSatisfying(Collision.FragmentDeletions.class,
          c -> assertThat(c.rows().toArray()).containsExactly(2));
    });

    dev.lancet.core.transaction.LegacyTransactionBuilder legacySecond = legacyDelete(1, 4);
    commit(files.delete(v2, 1, 4, 5));
    assertThatThrownBy(legacySecond::commit).isInstanceOfSatisfying(ConflictingCommitException.class,
        e -> assertThat(e.conflicts()).singleElement().isInstanceOfSatisfying(Collision.FragmentDeletions.class, c -> {
          assertThat(c.fragment()).isEqualTo(1);
          assertThat(c.rows().toArray()).containsExactly(4);
        }));
  }
}
