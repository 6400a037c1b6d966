package dev.lancet.core.apply;

import static dev.lancet.core.action.IndexApplyFixtures.addSegment;
import static dev.lancet.core.action.IndexApplyFixtures.applyWithIndices;
import static dev.lancet.core.action.IndexApplyFixtures.byUuid;
import static dev.lancet.core.action.IndexApplyFixtures.coverage;
import static dev.lancet.core.action.IndexApplyFixtures.dataFile;
import static dev.lancet.core.action.IndexApplyFixtures.segment;
import static dev.lancet.core.action.IndexApplyFixtures.twoColumnManifest;
import static dev.lancet.core.action.IndexApplyFixtures.unknownCoverage;
import static dev.lancet.core.action.IndexApplyFixtures.uuid;
import static dev.lancet.core.action.IndexApplyFixtures.uuids;
import static dev.lancet.core.action.IndexApplyFixtures.vectorSegment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.format.model.IndexSegment;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Pruning rebound fields out of index coverage at assembly (v2-semantics §2.4 step 3): when a
 * fragment's data for a field is rewritten, no index over that field can still claim to cover
 * the fragment. Table: fields a (0) and b (1), fragments 0 and 1, each one file backing both.
 */
class ReboundIndexPruningTest {

  private static final UUID BY_A = uuid(1);
  private static final UUID BY_B = uuid(2);

  /** A re-encode of {@code field} in {@code fragment}: tombstone, then a new file for it. */
  private static Action[] reencode(long fragment, int field) {
    return new Action[] {
        new TombstoneFieldData(Ref.committed(fragment), List.of(Ref.committed(field)), false),
        new AddDataFile(Ref.committed(fragment), dataFile("data/new-" + fragment + "-" + field + ".lance", field),
            List.of(Ref.committed(field)), false)};
  }

  private static CompositeApply.Result apply(List<IndexSegment> indices, Action... actions) {
    return applyWithIndices(twoColumnManifest(), indices, actions);
  }

  @Test
  void rewritingAFieldInAFragmentUncoversThatFragmentForIndicesOverTheField() {
    IndexSegment byB = segment(BY_B, "by_b", List.of(1), 0L, 1L);

    CompositeApply.Result r = apply(List.of(segment(BY_A, "by_a", List.of(0), 0L, 1L), byB),
        reencode(0, 0));

    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of(1L));
    // An index over another field still covers the fragment: its data did not change.
    assertThat(byUuid(r.indices(), BY_B)).isEqualTo(byB);
  }

  @Test
  void anIndexOverSeveralFieldsIsPrunedWhenAnyOfThemIsRewritten() {
    CompositeApply.Result r = apply(List.of(segment(BY_A, "by_ab", List.of(0, 1), 0L, 1L)),
        reencode(0, 1));

    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of(1L));
  }

  @Test
  void rewritesInSeveralFragmentsPruneEachOfThem() {
    CompositeApply.Result r = apply(List.of(segment(BY_A, "by_a", List.of(0), 0L, 1L, 7L)),
        new TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(0)), true),
        new TombstoneFieldData(Ref.committed(1), List.of(Ref.committed(0)), true));

    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of(7L));
  }

  @Test
  void aSegmentAddedEarlierInTheOperationIsPrunedToo() {
    CompositeApply.Result r = apply(List.of(),
        addSegment(BY_A, "by_a", Ref.committed(0)).covering(Ref.committed(0), Ref.committed(1)).build(),
        reencode(1, 0)[0], reencode(1, 0)[1]);

    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of(0L));
  }

  @Test
  void aRewriteOfAFragmentMintedInTheOperationPrunesItFromASegmentThatCoveredIt() {
    CompositeApply.Result r = apply(List.of(),
        AddFragment.local(0, 10),
        new AddDataFile(Ref.local(0), dataFile("data/2.lance", 0, 1),
            List.of(Ref.committed(0), Ref.committed(1)), true),
        addSegment(BY_A, "by_a", Ref.committed(0)).covering(Ref.committed(0), Ref.local(0)).build(),
        new TombstoneFieldData(Ref.local(0), List.of(Ref.committed(0)), true));

    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of(0L));
  }

  @Test
  void aSegmentWithUnknownCoverageIsLeftAlone() {
    IndexSegment unknown = unknownCoverage(BY_A, "by_a", List.of(0));

    CompositeApply.Result r = apply(List.of(unknown), reencode(0, 0));

    assertThat(byUuid(r.indices(), BY_A)).isEqualTo(unknown);
  }

  @Test
  void addingADataFileAloneDoesNotPrune() {
    IndexSegment byA = segment(BY_A, "by_a", List.of(0), 0L, 1L);

    CompositeApply.Result r = apply(List.of(byA), reencode(0, 0)[1]);

    assertThat(byUuid(r.indices(), BY_A)).isEqualTo(byA);
  }

  @Test
  void aScalarIndexPrunedToNothingIsKeptAndAVectorIndexIsDropped() {
    // Lance's retention rule: a lone scalar segment survives empty; a lone vector one does not.
    CompositeApply.Result r = apply(List.of(
            segment(BY_A, "by_a", List.of(0), 0L),
            vectorSegment(BY_B, "vec_a", List.of(0), 0L)),
        reencode(0, 0));

    assertThat(uuids(r.indices())).containsExactly(BY_A);
    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of());
  }

  @Test
  void aRewrittenFragmentThatIsThenRemovedIsNotPruned() {
    // Removing the fragment forgets its rewrite; coverage of a fragment that no longer exists
    // is harmless (readers intersect coverage with the fragments present).
    CompositeApply.Result r = apply(List.of(segment(BY_A, "by_a", List.of(0), 0L, 1L)),
        new TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(0)), true),
        new RemoveFragment(Ref.committed(0), true));

    assertThat(coverage(byUuid(r.indices(), BY_A))).contains(List.of(0L, 1L));
  }

  @Test
  void pruningKeepsEverythingElseAboutTheSegment() {
    IndexSegment before = segment(BY_A, "by_a", List.of(0), 0L, 1L);

    IndexSegment after = byUuid(apply(List.of(before), reencode(0, 0)).indices(), BY_A);

    assertThat(after.name()).isEqualTo(before.name());
    assertThat(after.fields()).isEqualTo(before.fields());
    assertThat(after.datasetVersion()).isEqualTo(before.datasetVersion());
    assertThat(after.indexDetails()).isEqualTo(before.indexDetails());
    assertThat(after.files()).isEqualTo(before.files());
  }
}
