package dev.lancet.core.transaction;

import dev.lancet.core.TestDataFiles;
import static dev.lancet.core.action.IndexApplyFixtures.rowIdsOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.Table;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.AssertCellsUnchanged;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RelocateRows;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.DeletionFiles;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.deletion.PortableRoaring;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.rowids.RowIdSequence;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * What the kernel gives a multi-statement transaction (issue 12 point 8, decision 0019): later
 * statements of one composite operation act on what earlier ones added, on a real table with
 * stable row ids, and the result survives a rebase over a concurrent append. Ids that must be
 * known in advance (the appended fragment a deletion file names, the row ids a moved row keeps)
 * come from a reservation committed first; ids minted for Local tokens are used only through
 * Refs.
 */
class MultiStatementOperationTest {
  @TempDir Path dir;
  LocalObjectStore store;
  Table table;
  DeletionFiles files;

  /** Version 1: fields a (0) and b (1), fragments 0 and 1 of 100 rows with row ids 0..200. */
  @BeforeEach
  void seed() throws Exception {
    store = new LocalObjectStore(dir);
    Manifest v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "a", "int64").build(), Field.builder(1, "b", "int64").build()),
            Map.of()))
        .fragments(List.of(fragment(0, 0), fragment(1, 100)))
        .readerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .writerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .maxFragmentId(OptionalLong.of(1))
        .nextRowId(200)
        .build();
    store.putIfAbsent(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    table = Table.open(dir.toString(), store);
    files = new DeletionFiles(store);
  }

  private static Fragment fragment(long id, long firstRowId) {
    return Fragment.builder(id).physicalRows(100)
        .files(List.of(new DataFile("data/" + id + ".lance", List.of(0, 1), List.of(0, 1), 2, 1, 100)))
        .rowIds(Optional.of(dev.lancet.format.model.StoredSequence.inline(
            RowIdSequence.ofRange(firstRowId, 100).encode())))
        .build();
  }

  private static DataFile file(String path, int columns) {
    List<Integer> fields = java.util.Collections.nCopies(columns, -1);
    List<Integer> indices = java.util.stream.IntStream.range(0, columns).boxed().toList();
    return new DataFile(path, fields, indices, 2, 1, 100);
  }

  @Test
  void laterStatementsActOnWhatEarlierOnesAppendedAndSurviveARebase() throws Exception {
    Reservation r = Reservation.reserve(table.newTransaction(), 1, 10);
    assertThat(r.version()).isEqualTo(2);
    assertThat(r.fragment(0)).isEqualTo(Ref.committed(2));
    assertThat(r.firstRowId()).isEqualTo(200);
    Snapshot v2 = table.latest();
    long appended = r.fragment(0).committedId().getAsLong();

    // A concurrent writer planned on version 2 too; it lands first and forces a rebase.
    TransactionBuilder concurrentAppend = new TransactionBuilder(store, dir.toString(), 2)
        .step("append", s -> s.addFragment(0, 5).addDataFile(Ref.local(0), TestDataFiles.placed(store, file("other.lance", 2)),
            Ref.committed(0), Ref.committed(1)));

    // "Delete where a = 3" after the append: the deletion file names the reserved fragment id.
    DeletionVector deletedByStatement2 = DeletionVector.of(3);
    SetDeletionFile delete = new SetDeletionFile(appended,
        Optional.of(files.write(appended, 2, deletedByStatement2)), true);
    // "Update b where a = 7": row 7 moves into a copy that keeps its stable row id.
    SetDeletionFile deleteAndMove = new SetDeletionFile(appended,
        Optional.of(files.write(appended, 2, DeletionVector.of(3, 7))), true);
    DataOverlayFile overlay = new DataOverlayFile(TestDataFiles.placed(store, new DataFile("overlay.lance", List.of(1), List.of(0), 2, 1, 10)),
        new DataOverlayFile.SharedCoverage(ByteString.copyFrom(PortableRoaring.write(RoaringBitmap.bitmapOf(0)))),
        0, UnknownFieldSet.getDefaultInstance());
    TransactionBuilder txn = new TransactionBuilder(store, dir.toString(), 2)
        .step("append 10 rows", s -> s
            .action(new AddFragment(r.fragment(0), 10, Optional.of(r.rowIds(0, 10)), Optional.empty(),
                Optional.empty(), true))
            .action(new AddDataFile(r.fragment(0), TestDataFiles.placed(store, file("appended.lance", 2)),
                List.of(Ref.committed(0), Ref.committed(1)), true)))
        .step("delete where a = 3", s -> s.action(delete))
        .step("update b where a = 7", s -> s
            .action(new AssertCellsUnchanged(r.fragment(0), List.of(Ref.committed(0), Ref.committed(1)),
                RoaringBitmap.bitmapOf(7)))
            .action(deleteAndMove)
            .action(new RelocateRows(appended, RoaringBitmap.bitmapOf(7)))
            .action(new AddFragment(Ref.local(0), 1, Optional.of(r.rowIds(7, 1)), Optional.empty(),
                Optional.empty(), true))
            .action(new AddDataFile(Ref.local(0), TestDataFiles.placed(store, file("updated.lance", 2)),
                List.of(Ref.committed(0), Ref.committed(1)), true)))
        .step("add column c", s -> s
            .action(AddField.topLevel(0, Field.builder(0, "c", "int64").build()))
            .action(new AddDataFile(r.fragment(0), TestDataFiles.placed(store, file("c-appended.lance", 1)), List.of(Ref.local(0)), true))
            .action(new AddDataFile(Ref.local(0), TestDataFiles.placed(store, file("c-updated.lance", 1)), List.of(Ref.local(0)), true))
            .action(AlterField.rename(Ref.local(0), "c2")))
        .step("set b on the updated row", s -> s.action(new AddOverlays(Ref.local(0), List.of(overlay), true)))
        .step("set config", s -> s.action(ConfigUpdate.ofConfig(UpdateMap.set("owner", "etl"))));
    CommitResult other = concurrentAppend.commit();
    assertThat(other.version()).isEqualTo(3);

    CommitResult mine = txn.commit();

    assertThat(mine.version()).isEqualTo(4);
    Manifest m = table.latest().manifest();
    // The reserved fragment kept its id through the rebase; the concurrent append took 3 and the
    // copy minted for Local(0) was re-minted to 4.
    assertThat(m.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L, 3L, 4L);
    Fragment appendedFragment = m.fragment(appended).orElseThrow();
    assertThat(rowIdsOf(appendedFragment)).containsExactly(200, 201, 202, 203, 204, 205, 206, 207, 208, 209);
    assertThat(files.deleted(table.latest(), appended).toArray()).containsExactly(3, 7);
    Fragment copy = m.fragment(4).orElseThrow();
    assertThat(rowIdsOf(copy)).as("the moved row keeps its stable row id").containsExactly(207);
    assertThat(rowIdsOf(m.fragment(3).orElseThrow())).as("fresh ids for the concurrent append")
        .containsExactly(210, 211, 212, 213, 214);
    assertThat(m.nextRowId()).isEqualTo(215);
    // The column added in step 4 is backed in both fragments this transaction added, renamed.
    Field c = m.schema().fields().stream().filter(f -> f.name().equals("c2")).findFirst().orElseThrow();
    assertThat(appendedFragment.files()).anySatisfy(f -> assertThat(f.fields()).containsExactly(c.id()));
    assertThat(copy.files()).anySatisfy(f -> assertThat(f.fields()).containsExactly(c.id()));
    assertThat(copy.overlays()).singleElement().satisfies(o -> assertThat(o.committedVersion()).isEqualTo(4));
    assertThat(m.config()).containsEntry("owner", "etl");
  }

  @Test
  void aDeletionFileCannotNameAFragmentMintedForALocalTokenAndNothingIsPublished() throws Exception {
    TransactionBuilder guessed = table.newTransaction()
        .step("append", s -> s.addFragment(0, 10).addDataFile(Ref.local(0), TestDataFiles.placed(store, file("appended.lance", 2)),
            Ref.committed(0), Ref.committed(1)))
        .step("delete where a = 3", s -> s.action(new SetDeletionFile(2,
            Optional.of(uncheckedWrite(2, DeletionVector.of(3))), true)));

    assertThatThrownBy(guessed::commit).isInstanceOfSatisfying(ApplyException.class, e -> {
      assertThat(e.where()).contains("step 2 ('delete where a = 3'), action 1 (SetDeletionFile)");
      assertThat(e.problem()).contains("minted that fragment for Local(0)").contains("ReserveFragmentIds");
    });
    assertThat(table.latest().version()).isEqualTo(1);
    assertThat(store.list("_transactions/")).isEmpty();
  }

  private dev.lancet.format.model.DeletionFile uncheckedWrite(long fragment, DeletionVector rows) {
    try {
      return files.write(fragment, 1, rows);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void twoTransactionsClaimingOneReservedFragmentIdConflict() {
    Reservation r = Reservation.reserve(table.newTransaction(), 1, 0);
    TransactionBuilder first = new TransactionBuilder(store, dir.toString(), r.version())
        .step("append", s -> s.action(new AddFragment(r.fragment(0), 10, Optional.empty(), Optional.empty(),
            Optional.empty(), true)).action(new AddDataFile(r.fragment(0),
            TestDataFiles.placed(store, file("first-reserved.lance", 2)), List.of(Ref.committed(0), Ref.committed(1)), true)));
    TransactionBuilder second = new TransactionBuilder(store, dir.toString(), r.version())
        .step("append", s -> s.action(new AddFragment(r.fragment(0), 20, Optional.empty(), Optional.empty(),
            Optional.empty(), true)).action(new AddDataFile(r.fragment(0),
            TestDataFiles.placed(store, file("second-reserved.lance", 2)), List.of(Ref.committed(0), Ref.committed(1)), true)));
    first.commit();

    assertThatThrownBy(second::commit).isInstanceOfSatisfying(dev.lancet.core.commit.ConflictingCommitException.class,
        e -> assertThat(e.conflicts()).filteredOn(c -> c instanceof dev.lancet.core.conflict.Collision.Fragment)
            .singleElement().isInstanceOfSatisfying(
            dev.lancet.core.conflict.Collision.Fragment.class, c -> assertThat(c.fragment()).isEqualTo(2)));
  }

  @Test
  void aReservationReadsItsRangesOffThePublishedVersionEvenWhenRebased() throws Exception {
    TransactionBuilder planned = table.newTransaction();
    new TransactionBuilder(store, dir.toString(), 1)
        .step("append", s -> s.addFragment(0, 5).addDataFile(Ref.local(0), TestDataFiles.placed(store, file("x.lance", 2)),
            Ref.committed(0), Ref.committed(1))).commit();

    Reservation r = Reservation.reserve(planned, 3, 4);

    assertThat(r.version()).isEqualTo(3);
    // The concurrent append took fragment 2 and row ids 200..205.
    assertThat(r.firstFragmentId()).isEqualTo(3);
    assertThat(r.fragmentCount()).isEqualTo(3);
    assertThat(r.firstRowId()).isEqualTo(205);
    assertThat(table.latest().manifest().maxFragmentId()).hasValue(5);
    assertThat(table.latest().manifest().nextRowId()).isEqualTo(209);
    assertThatThrownBy(() -> r.fragment(3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> r.rowIds(2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Reservation.reserve(table.newTransaction(), 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
