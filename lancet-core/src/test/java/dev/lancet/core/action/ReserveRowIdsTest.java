package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.NEXT_ROW_ID;
import static dev.lancet.core.action.IndexApplyFixtures.apply;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.fragment;
import static dev.lancet.core.action.IndexApplyFixtures.fragmentIds;
import static dev.lancet.core.action.IndexApplyFixtures.range;
import static dev.lancet.core.action.IndexApplyFixtures.rowIds;
import static dev.lancet.core.action.IndexApplyFixtures.rowIdsOf;
import static dev.lancet.core.action.IndexApplyFixtures.stableManifest;
import static dev.lancet.core.action.IndexApplyFixtures.steps;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.EncodedU64Array;
import dev.lancet.format.rowids.LsbBitmap;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.U64Segment;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** ReserveRowIds apply behaviour (v2-semantics §3.13, §2.4 step 2, §7.15). */
class ReserveRowIdsTest {

  private static ReserveRowIds reserve(long count) {
    return new ReserveRowIds(count);
  }

  private static AddFragment fragmentWith(int token, long rows, StoredSequence rowIds) {
    return new AddFragment(Ref.local(token), rows, Optional.of(rowIds), Optional.empty(),
        Optional.empty(), true);
  }

  @Test
  void reservingRaisesTheWatermarkWithoutAddingRows() {
    Manifest read = stableManifest();
    assertThat(read.nextRowId()).isEqualTo(NEXT_ROW_ID);

    Manifest next = apply(read, reserve(50));

    assertThat(next.nextRowId()).isEqualTo(1050);
    assertThat(next.fragments()).isEqualTo(read.fragments());
  }

  @Test
  void theReservationSitsAboveTheOperationsOwnRowIds() {
    Manifest next = apply(stableManifest(), reserve(50), AddFragment.local(0, 10));

    assertThat(next.nextRowId()).isEqualTo(1060);
    assertThat(fragmentIds(next)).containsExactly(1L, 2L);
    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(range(1000, 1010));
  }

  @Test
  void theReservationSitsAboveTheOperationsOwnRowIdsWhateverTheOrder() {
    Manifest reserveFirst = apply(stableManifest(), reserve(50), AddFragment.local(0, 10));
    Manifest reserveLast = apply(stableManifest(), AddFragment.local(0, 10), reserve(50));

    assertThat(reserveLast.nextRowId()).isEqualTo(reserveFirst.nextRowId()).isEqualTo(1060);
    assertThat(rowIdsOf(fragment(reserveLast, 2))).containsExactly(rowIdsOf(fragment(reserveFirst, 2)));
  }

  @Test
  void reservationsAccumulate() {
    Manifest next = apply(stableManifest(), reserve(10), reserve(5));

    assertThat(next.nextRowId()).isEqualTo(1015);
  }

  @Test
  void reservationsAccumulateAcrossSteps() {
    Manifest read = stableManifest();
    Manifest next = CompositeApply.apply(read, List.of(),
        steps(
            new UserStep("first", List.of(reserve(10))),
            new UserStep("second", List.of(reserve(5)))),
        read.version()).manifest();

    assertThat(next.nextRowId()).isEqualTo(1015);
  }

  @Test
  void reservingNothingIsANoOp() {
    Manifest read = stableManifest();

    Manifest next = apply(read, reserve(0));

    assertThat(next.nextRowId()).isEqualTo(read.nextRowId());
    assertThat(next.fragments()).isEqualTo(read.fragments());
  }

  @Test
  void aFragmentMayCarryReservedRowIds() {
    Manifest reserved = apply(stableManifest(), reserve(10));
    assertThat(reserved.nextRowId()).isEqualTo(1010);

    Manifest next = apply(reserved, fragmentWith(0, 10, rowIds(1000, 1010)));

    // The reservation already moved the counter: the rows are not numbered again.
    assertThat(next.nextRowId()).isEqualTo(1010);
    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(range(1000, 1010));
  }

  @Test
  void aFragmentMayCarryPartOfAReservation() {
    Manifest reserved = apply(stableManifest(), reserve(10));

    Manifest next = apply(reserved, fragmentWith(0, 4, rowIds(1003, 1007)));

    assertThat(next.nextRowId()).isEqualTo(1010);
    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(range(1003, 1007));
  }

  @Test
  void unreservedRowIdsAreRejected() {
    // 1000 onwards is where the counter stands: nobody set those ids aside.
    ApplyException e = applyError(() -> apply(stableManifest(), fragmentWith(0, 10, rowIds(1000, 1010))));

    assertThat(e.problem()).contains("no commit has reserved").contains("fragment 2");
    assertThat(e.where()).isEqualTo(where(1, "AddFragment"));
  }

  @Test
  void rowIdsReachingPastTheReservationAreRejected() {
    Manifest reserved = apply(stableManifest(), reserve(10));

    ApplyException e = applyError(() -> apply(reserved, fragmentWith(0, 10, rowIds(1005, 1015))));

    assertThat(e.problem()).contains("no commit has reserved");
  }

  @Test
  void rowIdsReservedInTheSameOperationAreNotYetReserved() {
    // The reservation lands when this operation commits; its own fragments cannot use it.
    ApplyException e = applyError(() -> apply(stableManifest(),
        reserve(10), fragmentWith(0, 10, rowIds(1000, 1010))));

    assertThat(e.problem()).contains("no commit has reserved");
  }

  @Test
  void reservedRowIdsAreRecognisedWhicheverWayTheSequenceEncodesThem() {
    // Ids 1000..1009 in encodings whose range reaches past the reservation: the tail of the
    // range is a hole, or unset bits, so no id beyond 1009 is actually used.
    Manifest reserved = apply(stableManifest(), reserve(10));
    StoredSequence holes = StoredSequence.inline(RowIdSequence.of(new U64Segment.RangeWithHoles(
        1000, 1012, EncodedU64Array.of(1010, 1011))).encode());
    StoredSequence bitmap = StoredSequence.inline(RowIdSequence.of(new U64Segment.RangeWithBitmap(
        1000, 1016, LsbBitmap.ofPositions(16, range(0, 10)))).encode());

    Manifest withHoles = apply(reserved, fragmentWith(0, 10, holes));
    Manifest withBitmap = apply(reserved, fragmentWith(0, 10, bitmap));

    assertThat(rowIdsOf(fragment(withHoles, 2))).containsExactly(range(1000, 1010));
    assertThat(rowIdsOf(fragment(withBitmap, 2))).containsExactly(range(1000, 1010));
    assertThat(withHoles.nextRowId()).isEqualTo(1010);
    assertThat(withBitmap.nextRowId()).isEqualTo(1010);
  }

  @Test
  void anUnreservedIdAnywhereInAnUnsortedSequenceIsRejected() {
    Manifest reserved = apply(stableManifest(), reserve(10));
    StoredSequence unsorted = StoredSequence.inline(RowIdSequence.fromIds(1003, 1010, 1001).encode());

    ApplyException e = applyError(() -> apply(reserved, fragmentWith(0, 3, unsorted)));

    assertThat(e.problem()).contains("1010").contains("no commit has reserved");
  }

  @Test
  void aMalformedRowIdSequenceIsRejected() {
    StoredSequence garbage = StoredSequence.inline(new byte[] {10, 4, 10, 2, 8});

    ApplyException e = applyError(() -> apply(stableManifest(), fragmentWith(0, 10, garbage)));

    assertThat(e.problem()).contains("fragment 2").contains("row-id sequence");
    assertThat(e.where()).isEqualTo(where(1, "AddFragment"));
  }

  @Test
  void aReservationTheCounterCannotHoldIsRejected() {
    ApplyException once = applyError(() -> apply(stableManifest(), reserve(Long.MAX_VALUE)));
    ApplyException accumulated = applyError(() -> apply(stableManifest(),
        reserve(Long.MAX_VALUE / 2), reserve(Long.MAX_VALUE / 2 + 10)));

    assertThat(once.problem()).contains("row id");
    assertThat(once.where()).isEqualTo(where(1, "ReserveRowIds"));
    assertThat(accumulated.problem()).contains("row id");
    assertThat(accumulated.where()).isEqualTo(where(2, "ReserveRowIds"));
  }

  @Test
  void reservingNothingWithoutStableRowIdsIsRejectedToo() {
    // A table without stable row ids has no row-id counter to reserve from at all.
    ApplyException e = applyError(() -> apply(backedManifest(), reserve(0)));

    assertThat(e.problem()).contains("stable row ids");
  }

  @Test
  void reservingWithoutStableRowIdsIsRejected() {
    ApplyException e = applyError(() -> apply(backedManifest(), reserve(10)));

    assertThat(e.problem()).contains("stable row ids");
    assertThat(e.where()).isEqualTo(where(1, "ReserveRowIds"));
  }

  @Test
  void aCountBeyondTheSignedRangeIsRejectedWhenBuilt() {
    // -1 is the unsigned count 2^64 - 1 a wire decode could produce.
    assertThatThrownBy(() -> reserve(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("18446744073709551615").hasMessageContaining("too large");
  }

  @Test
  void isNeverADataChange() {
    assertThat(reserve(5).isDataChange()).isFalse();
  }
}
