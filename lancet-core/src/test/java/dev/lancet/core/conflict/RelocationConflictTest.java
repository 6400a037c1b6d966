package dev.lancet.core.conflict;

import static dev.lancet.core.conflict.Sets.addDataFile;
import static dev.lancet.core.conflict.Sets.c;
import static dev.lancet.core.conflict.Sets.compactedFragment;
import static dev.lancet.core.conflict.Sets.deletion;
import static dev.lancet.core.conflict.Sets.fp;
import static dev.lancet.core.conflict.Sets.l;
import static dev.lancet.core.conflict.Sets.newFragment;
import static dev.lancet.core.conflict.Sets.overlay;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.RelocateRows;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Seed §5.1 (footprint gap 1, row-granular relocation): an overlay must conflict with a
 * concurrent relocation of the rows it covers, in either commit order, but not with a plain
 * delete of them, nor with a move of other rows. The overlay fixture covers offsets 1 and 2
 * of fragment 0, field 0.
 */
class RelocationConflictTest {

  /** An update that moves rows of fragment 0 into a new fragment (rewrite-rows style). */
  private static Footprint moveRows(int... offsets) {
    return fp(deletion(0), new RelocateRows(0, RoaringBitmap.bitmapOf(offsets)),
        newFragment(0), addDataFile(l(0), List.of(c(0))));
  }

  private static Footprint deleteRows() {
    return fp(deletion(0));
  }

  private static ConflictResult check(Footprint committing, Footprint committed) {
    return Conflicts.check(committing, committed);
  }

  @Test
  void testDataOverlayConflictsWithARowRelocatingActionSet() {
    ConflictResult overlayAfterMove = check(fp(overlay(0, 0)), moveRows(2, 5));
    ConflictResult moveAfterOverlay = check(moveRows(2, 5), fp(overlay(0, 0)));

    assertThat(overlayAfterMove.collisions()).singleElement().satisfies(col -> {
      assertThat(col.kind()).isEqualTo(Collision.Kind.RELOCATION);
      assertThat(col.description()).contains("fragment 0").contains("1 row(s) (first offset 2)")
          .contains("this transaction overlays");
    });
    assertThat(moveAfterOverlay.collisions()).singleElement().satisfies(col -> {
      assertThat(col.kind()).isEqualTo(Collision.Kind.RELOCATION);
      assertThat(col.description()).contains("this transaction moves them");
    });
  }

  @Test
  void aPlainDeleteOfOverlaidRowsIsFineInEitherOrder() {
    assertThat(check(fp(overlay(0, 0)), deleteRows()).conflicts()).isFalse();
    assertThat(check(deleteRows(), fp(overlay(0, 0))).conflicts()).isFalse();
  }

  @Test
  void movingOtherRowsOfTheSameFragmentIsFineInEitherOrder() {
    assertThat(check(fp(overlay(0, 0)), moveRows(0, 3, 9)).conflicts()).isFalse();
    assertThat(check(moveRows(0, 3, 9), fp(overlay(0, 0))).conflicts()).isFalse();
  }

  @Test
  void movingRowsOfAnotherFragmentIsFine() {
    Footprint elsewhere = fp(Sets.deletion(1), new RelocateRows(1, RoaringBitmap.bitmapOf(1, 2)));

    assertThat(check(fp(overlay(0, 0)), elsewhere).conflicts()).isFalse();
    assertThat(check(elsewhere, fp(overlay(0, 0))).conflicts()).isFalse();
  }

  @Test
  void twoOverlaysOfTheSameCellsStillBothLand() {
    assertThat(check(fp(overlay(0, 0)), fp(overlay(0, 0))).conflicts()).isFalse();
  }

  @Test
  void aCompactionThatRemovesTheOverlaidFragmentAlreadyConflictsWithoutADeclaration() {
    // Whole-fragment moves were never the gap: removing the fragment claims all of it.
    Footprint compaction = fp(new dev.lancet.core.action.RemoveFragment(c(0), false), compactedFragment(0));

    assertThat(check(fp(overlay(0, 0)), compaction).collisions())
        .extracting(Collision::kind).containsOnly(Collision.Kind.FRAGMENT);
    assertThat(check(compaction, fp(overlay(0, 0))).collisions())
        .extracting(Collision::kind).containsOnly(Collision.Kind.FRAGMENT);
  }
}
