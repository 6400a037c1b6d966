package dev.lancet.core.commit;

import dev.lancet.core.TestDataFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.operation.DataOverlay;
import dev.lancet.core.operation.DataReplacement;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.Update;
import dev.lancet.core.transaction.LegacyTransactionBuilder;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.deletion.PortableRoaring;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Read-derived writes keep snapshot isolation (docs/decisions/0018), committed on a real table
 * ({@link TwoFieldTable}) against concurrent composite and legacy writers: an update that copied
 * rows 2 and 3 of fragment 0 (both fields) into a new fragment conflicts with a concurrent change
 * of those cells in either order, and lands over changes that leave them alone.
 */
class ReadDerivedWriteTest {
  @TempDir Path dir;
  TwoFieldTable t;

  @BeforeEach
  void seed() throws Exception {
    t = new TwoFieldTable(dir);
  }

  private Action[] columnRewrite(long fragment, long field, boolean dataChange) {
    return new Action[] {new TombstoneFieldData(Ref.committed(fragment), List.of(Ref.committed(field)), dataChange),
        new AddDataFile(Ref.committed(fragment), TestDataFiles.placed(t.store, TwoFieldTable.file("rewrite-" + fragment + "-" + field + ".lance")),
            List.of(Ref.committed(field)), dataChange)};
  }

  private DataOverlayFile overlayFile(int field, int... rows) {
    return new DataOverlayFile(TestDataFiles.placed(t.store, new DataFile("overlay-" + field + ".lance", List.of(field), List.of(0), 2, 1, 10)),
        new DataOverlayFile.SharedCoverage(ByteString.copyFrom(PortableRoaring.write(RoaringBitmap.bitmapOf(rows)))),
        0, UnknownFieldSet.getDefaultInstance());
  }

  private LegacyTransactionBuilder legacy(LegacyOperation op) {
    return t.table.newLegacyTransaction(op).readVersion(TwoFieldTable.READ);
  }

  private static ConflictingCommitException conflictOf(Runnable commit) {
    try {
      commit.run();
    } catch (ConflictingCommitException e) {
      return e;
    }
    throw new AssertionError("the commit landed, but it had to conflict");
  }

  // ---- the update commits second -----------------------------------------------------------

  @Test
  void anUpdateAfterAColumnRewriteOfACopiedFieldConflictsAndSaysWhichCells() throws Exception {
    TransactionBuilder update = t.planned(t.movingUpdate(0, 2, 3));
    t.commit(columnRewrite(0, 1, true));

    ConflictingCommitException e = conflictOf(update::commit);

    assertThat(e.version()).isEqualTo(3);
    assertThat(e.conflicts()).anySatisfy(c -> assertThat(c).isInstanceOfSatisfying(Collision.CellsChanged.class, x -> {
      assertThat(x.fragment()).isZero();
      assertThat(x.fields()).containsExactly(1);
      assertThat(x.rows().toArray()).containsExactly(2, 3);
    }));
    assertThat(t.table.latest().version()).isEqualTo(3);
  }

  @Test
  void anUpdateAfterAnOverlayOfACopiedCellConflicts() throws Exception {
    TransactionBuilder update = t.planned(t.movingUpdate(0, 2, 3));
    t.commit(new AddOverlays(Ref.committed(0), List.of(overlayFile(0, 3, 50)), true));

    ConflictingCommitException e = conflictOf(update::commit);

    assertThat(e.conflicts()).anySatisfy(c -> assertThat(c).isInstanceOfSatisfying(Collision.CellsChanged.class,
        x -> assertThat(x.rows().toArray()).containsExactly(3)));
  }

  @Test
  void anUpdateAfterALegacyDataOverlayOrDataReplacementOfCopiedCellsConflicts() throws Exception {
    TransactionBuilder afterOverlay = t.planned(t.movingUpdate(0, 2, 3));
    legacy(new DataOverlay(List.of(new DataOverlay.Group(0, List.of(overlayFile(1, 2)))))).commit();
    assertThat(conflictOf(afterOverlay::commit).conflicts()).extracting(Collision::kind)
        .contains(Collision.Kind.CELLS_CHANGED);

    TransactionBuilder afterReplacement = t.planned(t.movingUpdate(1, 5));
    legacy(new DataReplacement(List.of(new DataReplacement.Replacement(1,
        TestDataFiles.placed(t.store, new DataFile("replaced.lance", List.of(0), List.of(0), 2, 1, 10)))))).commit();
    assertThat(conflictOf(afterReplacement::commit).conflicts()).extracting(Collision::kind)
        .contains(Collision.Kind.CELLS_CHANGED);
  }

  @Test
  void anUpdateAfterALegacyColumnRewritingUpdateFailsClosed() throws Exception {
    TransactionBuilder update = t.planned(t.movingUpdate(0, 2));
    legacy(new Update(List.of(), List.of(t.v2.manifest().fragment(0).orElseThrow()), List.of(), List.of(1),
        List.of(), List.of(), Update.UpdateMode.REWRITE_COLUMNS, Optional.empty(), Map.of())).commit();

    assertThat(conflictOf(update::commit).conflicts()).extracting(Collision::kind)
        .containsExactly(Collision.Kind.FAIL_CLOSED);
  }

  @Test
  void anUpdateAfterAnotherUpdateOfTheSameRowsConflicts() throws Exception {
    TransactionBuilder update = t.planned(t.movingUpdate(0, 2, 3));
    t.commit(t.movingUpdate(0, 3));

    assertThat(conflictOf(update::commit).conflicts()).extracting(Collision::kind)
        .contains(Collision.Kind.CELLS_CHANGED);
  }

  // ---- the update commits first ------------------------------------------------------------

  @Test
  void aColumnRewriteAfterAnUpdateThatMovedRowsOfItsFragmentConflicts() throws Exception {
    TransactionBuilder rewrite = t.planned(columnRewrite(0, 1, true));
    t.commit(t.movingUpdate(0, 2, 3));

    ConflictingCommitException e = conflictOf(rewrite::commit);

    assertThat(e.conflicts()).singleElement().isInstanceOfSatisfying(Collision.Relocation.class, x -> {
      assertThat(x.fragment()).isZero();
      assertThat(x.rows().toArray()).containsExactly(2, 3);
    });
  }

  @Test
  void aLegacyDataOverlayAfterAnUpdateThatMovedTheOverlaidRowsConflicts() throws Exception {
    LegacyTransactionBuilder overlay = legacy(new DataOverlay(List.of(new DataOverlay.Group(0,
        List.of(overlayFile(1, 3))))));
    t.commit(t.movingUpdate(0, 2, 3));

    ConflictingCommitException e = conflictOf(overlay::commit);

    assertThat(e.conflicts()).extracting(Collision::kind).containsExactly(Collision.Kind.RELOCATION);
  }

  // ---- changes that leave the copied cells alone land, in either order -----------------------

  @Test
  void anUpdateLandsOverADeleteOfOtherRowsAnAppendAReencodeAndAConfigChange() throws Exception {
    TransactionBuilder update = t.planned(t.movingUpdate(0, 2, 3));
    t.commit(t.files.delete(t.v2, 0, 40, 41));
    t.commit(AddFragment.local(0, 10), new AddDataFile(Ref.local(0),
        TestDataFiles.placed(t.store, new DataFile("appended.lance", List.of(-1, -1), List.of(0, 1), 2, 1, 10)),
        List.of(Ref.committed(0), Ref.committed(1)), true));
    t.commit(columnRewrite(0, 1, false));
    t.commit(ConfigUpdate.ofConfig(UpdateMap.set("k", "v")));

    CommitResult r = update.commit();

    assertThat(r.version()).isEqualTo(7);
    assertThat(t.deleted(0).toArray()).containsExactly(2, 3, 40, 41);
    assertThat(t.table.latest().manifest().fragments()).hasSize(5);
  }

  @Test
  void theSameChangesLandAfterTheUpdate() throws Exception {
    TransactionBuilder delete = t.planned(t.files.delete(t.v2, 0, 40, 41));
    TransactionBuilder reencode = t.planned(columnRewrite(0, 1, false));
    TransactionBuilder config = t.planned(ConfigUpdate.ofConfig(UpdateMap.set("k", "v")));
    TransactionBuilder rewriteElsewhere = t.planned(columnRewrite(1, 1, true));
    t.commit(t.movingUpdate(0, 2, 3));

    delete.commit();
    reencode.commit();
    config.commit();
    rewriteElsewhere.commit();

    assertThat(t.deleted(0).toArray()).containsExactly(2, 3, 40, 41);
    assertThat(t.table.latest().version()).isEqualTo(7);
  }

  @Test
  void anInPlaceUpdateLandsOverARewriteOfAColumnItDidNotRead() throws Exception {
    // Reads field 0 of rows 2 and 3 and overlays field 1 with values derived from it.
    TransactionBuilder update = t.planned(
        new dev.lancet.core.action.AssertCellsUnchanged(Ref.committed(0), List.of(Ref.committed(0)),
            RoaringBitmap.bitmapOf(2, 3)),
        new AddOverlays(Ref.committed(0), List.of(overlayFile(1, 2, 3)), true));
    // In fragment 2 it reads field 1 and overlays field 0.
    TransactionBuilder readsField1 = t.planned(
        new dev.lancet.core.action.AssertCellsUnchanged(Ref.committed(2), List.of(Ref.committed(1)),
            RoaringBitmap.bitmapOf(2)),
        new AddOverlays(Ref.committed(2), List.of(overlayFile(0, 2)), true));
    // Field 0 of fragment 1 is rewritten: the first update did not read it there.
    t.commit(columnRewrite(1, 0, true));

    update.commit();

    assertThat(t.table.latest().manifest().fragment(0).orElseThrow().overlays()).hasSize(1);
    t.commit(columnRewrite(2, 1, true));
    assertThat(conflictOf(readsField1::commit).conflicts()).extracting(Collision::kind)
        .containsExactly(Collision.Kind.CELLS_CHANGED);
  }
}
