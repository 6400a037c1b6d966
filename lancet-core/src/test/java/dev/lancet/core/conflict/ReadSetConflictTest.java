package dev.lancet.core.conflict;

import static dev.lancet.core.conflict.Sets.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AssertCellsUnchanged;
import dev.lancet.core.action.RelocateRows;
import dev.lancet.core.action.TombstoneFieldData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Read-derived writes keep snapshot isolation (docs/decisions/0018), on footprints built from
 * the real actions. Two updates of rows 2 and 3 of fragment 0:
 *
 * <ul>
 *   <li>{@link #moving}: copies the rows (fields 0 and 1) into a new fragment and deletes them
 *       (SetDeletionFile + RelocateRows + AddFragment/AddDataFile + AssertCellsUnchanged);
 *   <li>{@link #inPlace}: reads field 0 of the rows and overlays new values of field 1 on them
 *       (AssertCellsUnchanged over field 0 + AddOverlays of field 1).
 * </ul>
 */
class ReadSetConflictTest {
  private static final RoaringBitmap ROWS = RoaringBitmap.bitmapOf(2, 3);

  private static Footprint moving() {
    return fp(deleteRows(0), new RelocateRows(0, ROWS), newFragment(0), addDataFile(l(0), committed(0, 1)),
        new AssertCellsUnchanged(c(0), committed(0, 1), ROWS));
  }

  private static Footprint inPlace() {
    return fp(new AssertCellsUnchanged(c(0), committed(0), ROWS), overlayRows(0, 1, 2, 3));
  }

  private static List<Collision> check(Footprint committing, Footprint committed) {
    return Conflicts.check(committing, committed).collisions();
  }

  private static Collision.CellsChanged cellsChanged(List<Collision> collisions) {
    return collisions.stream().filter(c -> c instanceof Collision.CellsChanged).map(c -> (Collision.CellsChanged) c)
        .findFirst().orElseThrow(() -> new AssertionError("no CELLS_CHANGED among " + collisions));
  }

  // ---- the read-derived write commits after a change of the cells it read: conflict --------

  @Test
  void aColumnRewriteOfAReadFieldInThatFragmentConflicts() {
    for (Footprint update : List.of(moving(), inPlace())) {
      Collision.CellsChanged c = cellsChanged(check(update, fp((Object) columnRewrite(0, 0))));
      assertThat(c.fragment()).isZero();
      assertThat(c.fields()).containsExactly(0);
      assertThat(c.rows().toArray()).containsExactly(2, 3);
      assertThat(c.description()).contains("rewrote that field's data in place");
    }
  }

  @Test
  void anOverlayOfReadCellsConflictsAndNamesTheCellsItChanged() {
    for (Footprint update : List.of(moving(), inPlace())) {
      Collision.CellsChanged c = cellsChanged(check(update, fp(overlayRows(0, 0, 3, 9))));
      assertThat(c.fields()).containsExactly(0);
      assertThat(c.rows().toArray()).containsExactly(3);
    }
  }

  @Test
  void anotherUpdateThatMovedTheSameRowsConflicts() {
    Footprint otherMove = fp(deleteRows(0), new RelocateRows(0, RoaringBitmap.bitmapOf(3)), newFragment(0),
        addDataFile(l(0), committed(0, 1)));
    for (Footprint update : List.of(moving(), inPlace())) {
      Collision.CellsChanged c = cellsChanged(check(update, otherMove));
      assertThat(c.rows().toArray()).containsExactly(3);
      assertThat(c.description()).contains("moved to another fragment");
    }
  }

  @Test
  void aRemovalOrCompactionOfTheFragmentConflicts() {
    Footprint compaction = fp(new dev.lancet.core.action.RemoveFragment(c(0), false), compactedFragment(0));
    for (Footprint update : List.of(moving(), inPlace())) {
      assertThat(check(update, compaction)).extracting(Collision::kind).contains(Collision.Kind.FRAGMENT);
    }
  }

  @Test
  void droppingAReadFieldConflicts() {
    assertThat(check(inPlace(), fp(drop(0)))).extracting(Collision::kind).contains(Collision.Kind.SCHEMA);
  }

  // ---- ... and not with what leaves those cells alone ----------------------------------------

  @Test
  void aPlainDeleteOfOtherRowsAnAppendAConfigChangeAndAReencodeDoNotConflict() {
    List<Footprint> harmless = List.of(fp(deleteRows(0)), fp((Object) append(0, 1)), fp(setConfig("k")),
        fp((Object) reencode(0, 0)), fp(overlayRows(0, 0, 7)), fp((Object) columnRewrite(1, 0)));
    for (Footprint update : List.of(moving(), inPlace())) {
      for (Footprint other : harmless) {
        assertThat(check(update, other)).as("update after harmless set").isEmpty();
        assertThat(check(other, update)).as("harmless set after update").isEmpty();
      }
    }
    // The moving update and a plain delete of the same fragment are decided row by row.
    assertThat(Conflicts.check(moving(), fp(deleteRows(0))).rowChecks()).containsExactly(0L);
  }

  @Test
  void aColumnRewriteOfAFieldTheUpdateDidNotReadDoesNotConflictInEitherOrder() {
    Footprint rewriteOfField2 = fp((Object) columnRewrite(0, 2));

    assertThat(check(inPlace(), rewriteOfField2)).isEmpty();
    assertThat(check(rewriteOfField2, inPlace())).isEmpty();
  }

  // ---- the other order: the change commits after the read-derived write ----------------------

  @Test
  void aColumnRewriteAfterAnUpdateThatMovedTheRowsConflicts() {
    // The moved copies carry the old values of every field, so a data-changing rewrite of any
    // field of that fragment would be lost for them.
    for (Action[] rewrite : List.of(columnRewrite(0, 0), columnRewrite(0, 2))) {
      List<Collision> c = check(fp((Object) rewrite), moving());
      assertThat(c).extracting(Collision::kind).containsExactly(Collision.Kind.RELOCATION);
      assertThat(((Collision.Relocation) c.get(0)).rows().toArray()).containsExactly(2, 3);
      assertThat(c.get(0).description()).contains("the moved copies would keep the old values");
    }
    // The same holds with the rewrite committed first, whatever field the move read.
    assertThat(check(moving(), fp((Object) columnRewrite(0, 2)))).extracting(Collision::kind)
        .containsExactly(Collision.Kind.RELOCATION);
  }

  @Test
  void aNewColumnBackfilledIntoTheFragmentConflictsWithAMoveOfItsRows() {
    Footprint addColumn = fp(addField(0, "c"), addDataFile(c(0), List.of(l(0))));

    assertThat(check(addColumn, moving())).extracting(Collision::kind).containsExactly(Collision.Kind.RELOCATION);
    assertThat(check(moving(), addColumn)).extracting(Collision::kind).containsExactly(Collision.Kind.RELOCATION);
  }

  @Test
  void aChangeOfTheReadCellsAfterAnInPlaceUpdateIsSnapshotIsolationAndLands() {
    // The in-place update wrote only field 1; rewriting field 0 after it loses nothing.
    assertThat(check(fp((Object) columnRewrite(0, 0)), inPlace())).isEmpty();
    assertThat(check(fp(overlayRows(0, 0, 2)), inPlace())).isEmpty();
    // Writing the field it wrote still collides (the directional pair rule).
    assertThat(check(fp((Object) columnRewrite(0, 1)), inPlace())).extracting(Collision::kind)
        .contains(Collision.Kind.FIELD_DATA);
  }

  @Test
  void cellsOfMintedFragmentsAndFieldsRecordNothing() {
    Footprint local = fp(newFragment(0), addField(0, "c"),
        new AssertCellsUnchanged(l(0), List.of(l(0), c(0)), ROWS));

    assertThat(local.cells().readCells()).isEmpty();
    assertThat(local.requiredFragments()).isEmpty();
    Footprint committedFragment = fp(new AssertCellsUnchanged(c(4), List.of(l(0), c(1)), ROWS));
    assertThat(committedFragment.cells().readCells().get(4L)).containsOnlyKeys(1);
    assertThat(committedFragment.requiredFragments()).containsExactly(4L);
  }

  @Test
  void aTombstoneAloneOfAReadFieldChangesItsCells() {
    Footprint tombstoned = fp(new TombstoneFieldData(c(0), committed(0), true));

    assertThat(cellsChanged(check(inPlace(), tombstoned)).fields()).containsExactly(0);
  }
}
