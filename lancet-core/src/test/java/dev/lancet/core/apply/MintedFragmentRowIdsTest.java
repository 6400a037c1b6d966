package dev.lancet.core.apply;

import static dev.lancet.core.action.IndexApplyFixtures.NEXT_ROW_ID;
import static dev.lancet.core.action.IndexApplyFixtures.VERSION;
import static dev.lancet.core.action.IndexApplyFixtures.apply;
import static dev.lancet.core.action.IndexApplyFixtures.applyAt;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.concat;
import static dev.lancet.core.action.IndexApplyFixtures.fragment;
import static dev.lancet.core.action.IndexApplyFixtures.fragmentIds;
import static dev.lancet.core.action.IndexApplyFixtures.range;
import static dev.lancet.core.action.IndexApplyFixtures.repeat;
import static dev.lancet.core.action.IndexApplyFixtures.rowIds;
import static dev.lancet.core.action.IndexApplyFixtures.rowIdsOf;
import static dev.lancet.core.action.IndexApplyFixtures.stableManifest;
import static dev.lancet.core.action.IndexApplyFixtures.steps;
import static dev.lancet.core.action.IndexApplyFixtures.versions;
import static dev.lancet.core.action.IndexApplyFixtures.versionsPerRow;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ResetTable;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Stable row ids and row versions for the fragments an operation mints (v2-semantics §2.4
 * step 1, format-facts §5.2–5.3).
 */
class MintedFragmentRowIdsTest {

  private static AddFragment withRowIds(Ref id, long rows, StoredSequence rowIds) {
    return new AddFragment(id, rows, Optional.of(rowIds), Optional.empty(), Optional.empty(), true);
  }

  @Test
  void aMintedFragmentGetsAFreshRangeFromTheCounter() {
    Manifest next = apply(stableManifest(), AddFragment.local(0, 10));

    assertThat(fragmentIds(next)).containsExactly(1L, 2L);
    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(range(NEXT_ROW_ID, NEXT_ROW_ID + 10));
    assertThat(next.nextRowId()).isEqualTo(NEXT_ROW_ID + 10);
  }

  @Test
  void mintedFragmentsAreNumberedInMintOrder() {
    Manifest read = stableManifest();
    Manifest next = CompositeApply.apply(read, List.of(), steps(
        new UserStep("first", List.of(AddFragment.local(5, 3))),
        new UserStep("second", List.of(AddFragment.local(2, 4), AddFragment.local(0, 0)))),
        read.version()).manifest();

    assertThat(fragmentIds(next)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(range(1000, 1003));
    assertThat(rowIdsOf(fragment(next, 3))).containsExactly(range(1003, 1007));
    assertThat(rowIdsOf(fragment(next, 4))).isEmpty();
    assertThat(next.nextRowId()).isEqualTo(1007);
  }

  @Test
  void aClaimedReservedFragmentIdIsNumberedInMintOrderToo() {
    // Fragment ids 2..10 were reserved by an earlier commit. The claim of 5 comes after the
    // mint of 11, so 11 takes the lower row ids although its fragment id is higher.
    Manifest read = stableManifest().toBuilder().maxFragmentId(OptionalLong.of(10)).build();

    Manifest next = apply(read, AddFragment.local(0, 10),
        new AddFragment(Ref.committed(5), 5, Optional.empty(), Optional.empty(), Optional.empty(), true));

    assertThat(fragmentIds(next)).containsExactly(1L, 5L, 11L);
    assertThat(rowIdsOf(fragment(next, 11))).containsExactly(range(1000, 1010));
    assertThat(rowIdsOf(fragment(next, 5))).containsExactly(range(1010, 1015));
    assertThat(next.nextRowId()).isEqualTo(1015);
  }

  @Test
  void aShortSuppliedSequenceIsExtendedWithFreshIds() {
    // A legacy merge-insert: the first 4 rows keep ids they already had, the rest are new.
    Manifest next = apply(stableManifest(), withRowIds(Ref.local(0), 10, rowIds(500, 504)));

    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(concat(range(500, 504), range(1000, 1006)));
    assertThat(next.nextRowId()).isEqualTo(1006);
  }

  @Test
  void aSuppliedSequenceOfFullLengthIsKeptAndConsumesNothing() {
    // A compaction moving the rows of fragment 1 (ids 0..10) into a new fragment.
    Manifest next = apply(stableManifest(),
        new RemoveFragment(Ref.committed(1), false),
        withRowIds(Ref.local(0), 10, rowIds(0, 10)));

    assertThat(fragmentIds(next)).containsExactly(2L);
    assertThat(rowIdsOf(fragment(next, 2))).containsExactly(range(0, 10));
    assertThat(next.nextRowId()).isEqualTo(NEXT_ROW_ID);
  }

  @Test
  void aSuppliedSequenceLongerThanTheFragmentIsRejected() {
    ApplyException e = applyError(() -> apply(stableManifest(),
        withRowIds(Ref.local(0), 10, rowIds(500, 520))));

    assertThat(e.problem()).contains("fragment 2").contains("20 row ids for 10 rows");
    assertThat(e.where()).isEqualTo(where(1, "AddFragment"));
  }

  @Test
  void aMintedFragmentIsStampedUniformlyAtTheNewVersion() {
    Manifest next = apply(stableManifest(), AddFragment.local(0, 10));

    Fragment f = fragment(next, 2);
    assertThat(versionsPerRow(f.createdAtVersions())).containsExactly(repeat(VERSION + 1, 10));
    assertThat(versionsPerRow(f.lastUpdatedAtVersions())).containsExactly(repeat(VERSION + 1, 10));
    // One run, as Lance writes it for a new fragment.
    assertThat(f.createdAtVersions()).contains(versions(RowVersionSequence.uniform(10, VERSION + 1)));
  }

  @Test
  void suppliedRowVersionsAreKept() {
    StoredSequence created = versions(RowVersionSequence.uniform(10, 2));
    StoredSequence updated = versions(RowVersionSequence.uniform(10, 4));

    Manifest next = apply(stableManifest(), new AddFragment(Ref.local(0), 10, Optional.empty(),
        Optional.of(updated), Optional.of(created), true));

    Fragment f = fragment(next, 2);
    assertThat(f.createdAtVersions()).contains(created);
    assertThat(f.lastUpdatedAtVersions()).contains(updated);
    assertThat(rowIdsOf(f)).containsExactly(range(1000, 1010));
  }

  @Test
  void existingFragmentsAreLeftAlone() {
    Manifest read = stableManifest();

    Manifest next = apply(read, AddFragment.local(0, 10));

    assertThat(fragment(next, 1)).isEqualTo(fragment(read, 1));
  }

  @Test
  void aMintedFragmentRemovedAgainConsumesNoRowIds() {
    Manifest next = apply(stableManifest(),
        AddFragment.local(0, 10),
        new RemoveFragment(Ref.local(0), true),
        AddFragment.local(1, 5));

    assertThat(fragmentIds(next)).containsExactly(1L, 3L);
    assertThat(rowIdsOf(fragment(next, 3))).containsExactly(range(1000, 1005));
    assertThat(next.nextRowId()).isEqualTo(1005);
  }

  @Test
  void aFragmentMintedBeforeAResetConsumesNoRowIds() {
    Manifest next = apply(stableManifest(),
        AddFragment.local(0, 10),
        new ResetTable(),
        AddFragment.local(1, 5));

    assertThat(fragmentIds(next)).containsExactly(3L);
    assertThat(rowIdsOf(fragment(next, 3))).containsExactly(range(1000, 1005));
    assertThat(next.nextRowId()).isEqualTo(1005);
  }

  @Test
  void aRebaseRenumbersFromTheNewerCounterAndRestamps() {
    // A concurrent append took ids 1000..1100 and committed versions 6 and 7.
    Manifest current = stableManifest().toBuilder().version(VERSION + 2).nextRowId(1100).build();

    Manifest next = applyAt(current, VERSION, List.of(), AddFragment.local(0, 10)).manifest();

    Fragment f = fragment(next, 2);
    assertThat(rowIdsOf(f)).containsExactly(range(1100, 1110));
    assertThat(versionsPerRow(f.createdAtVersions())).containsExactly(repeat(VERSION + 3, 10));
    assertThat(next.nextRowId()).isEqualTo(1110);
  }

  @Test
  void withoutStableRowIdsNothingIsAssignedOrStamped() {
    Manifest read = backedManifest();

    Manifest next = apply(read, AddFragment.local(0, 10));

    Fragment f = fragment(next, 1);
    assertThat(f.rowIds()).isEmpty();
    assertThat(f.createdAtVersions()).isEmpty();
    assertThat(f.lastUpdatedAtVersions()).isEmpty();
    assertThat(next.nextRowId()).isEqualTo(read.nextRowId());
  }
}
