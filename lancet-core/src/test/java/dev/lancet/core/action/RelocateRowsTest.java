package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.apply;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.fragment;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.ActionProtos;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** RelocateRows: a declaration that changes nothing, checked for consistency with the deletion it explains. */
class RelocateRowsTest {
  private static SetDeletionFile deleteRows(long fragment, int count) {
    return new SetDeletionFile(fragment,
        Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 7, 1, count)), true);
  }

  @Test
  void aDeclaredMoveChangesNothingBeyondTheDeletionItExplains() {
    Manifest withDeletion = apply(backedManifest(), deleteRows(0, 2));
    Manifest withMove = apply(backedManifest(), deleteRows(0, 2), new RelocateRows(0, RoaringBitmap.bitmapOf(1, 2)));

    assertThat(withMove).isEqualTo(withDeletion);
    assertThat(fragment(withMove, 0).deletionFile()).isPresent();
  }

  @Test
  void theDeclarationMayComeBeforeTheDeletion() {
    Manifest next = apply(backedManifest(), new RelocateRows(0, RoaringBitmap.bitmapOf(3)), deleteRows(0, 1));

    assertThat(fragment(next, 0).deletionFile()).isPresent();
  }

  @Test
  void removingTheWholeFragmentAlsoMovesItsRows() {
    Manifest next = apply(backedManifest(), new RelocateRows(0, RoaringBitmap.bitmapOf(0, 9)),
        new RemoveFragment(Ref.committed(0), false));

    assertThat(next.fragments()).isEmpty();
  }

  @Test
  void aMoveWithoutADeletionIsRejectedWhereItWasDeclared() {
    ApplyException e = applyError(() -> apply(backedManifest(), new RelocateRows(0, RoaringBitmap.bitmapOf(1))));

    assertThat(e.where()).isEqualTo(where(1, "RelocateRows"));
    assertThat(e).hasMessageContaining("fragment 0").hasMessageContaining("add the SetDeletionFile");
  }

  @Test
  void rowsBeyondTheFragmentAreRejected() {
    ApplyException e = applyError(() -> apply(backedManifest(), deleteRows(0, 1),
        new RelocateRows(0, RoaringBitmap.bitmapOf(10))));

    assertThat(e).hasMessageContaining("row offset 10").hasMessageContaining("only 10 physical rows");
  }

  @Test
  void aFragmentMintedForALocalTokenCannotBeNamedByAGuessedId() {
    ApplyException e = applyError(() -> apply(backedManifest(), AddFragment.local(0, 10),
        new RelocateRows(1, RoaringBitmap.bitmapOf(1)), new RemoveFragment(Ref.local(0), true)));

    assertThat(e.where()).isEqualTo(where(2, "RelocateRows"));
    assertThat(e).hasMessageContaining("minted that fragment for Local(0)");
  }

  @Test
  void anEmptyMoveAndAnUnknownFragmentAreRejected() {
    assertThat(applyError(() -> apply(backedManifest(), deleteRows(0, 1), new RelocateRows(0, new RoaringBitmap()))))
        .hasMessageContaining("names no rows");
    assertThat(applyError(() -> apply(backedManifest(), new RelocateRows(5, RoaringBitmap.bitmapOf(1)))))
        .hasMessageContaining("fragment 5, which does not exist");
  }

  @Test
  void theRecordCannotBeChangedThroughItsBitmap() {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(1, 2);
    RelocateRows move = new RelocateRows(0, rows);
    rows.add(3);
    move.rows().add(4);

    assertThat(move.rows().toArray()).containsExactly(1, 2);
  }

  @Test
  void itRoundTripsThroughItsWireFormAndAMalformedBitmapIsRejected() {
    RelocateRows move = new RelocateRows(4, RoaringBitmap.bitmapOf(0, 70_000));
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("move", List.of(move))));

    assertThat(ActionCodec.decode(ActionCodec.encode(op))).isEqualTo(op);

    ActionProtos.Action bad = ActionProtos.Action.newBuilder().setRelocateRows(
        ActionProtos.RelocateRows.newBuilder().setFragment(4).setRows(ByteString.copyFromUtf8("not a bitmap"))).build();
    assertThatThrownBy(() -> ActionCodec.decode(ActionProtos.CompositeOperation.newBuilder()
        .addActions(ActionProtos.UserAction.newBuilder().setDescription("move").addActions(bad)).build()))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("RelocateRows on fragment 4");
  }
}
