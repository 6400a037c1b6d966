package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.addSegment;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.applyWithIndices;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.byUuid;
import static dev.lancet.core.action.IndexApplyFixtures.coverage;
import static dev.lancet.core.action.IndexApplyFixtures.segment;
import static dev.lancet.core.action.IndexApplyFixtures.uuid;
import static dev.lancet.core.action.IndexApplyFixtures.unknownCoverage;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.IndexSegment;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** AdjustIndexCoverage apply behaviour (v2-semantics §3.19, §7.21). */
class AdjustIndexCoverageTest {

  private static final UUID A = uuid(1);

  private static AdjustIndexCoverage adjust(UUID uuid, String name, List<Ref> add, List<Long> remove) {
    return new AdjustIndexCoverage(uuid, name, add, remove);
  }

  private static IndexSegment adjusted(CompositeApply.Result r) {
    return byUuid(r.indices(), A);
  }

  @Test
  void adjustIndexCoverageAddsAndRemoves() {
    IndexSegment before = segment(A, "by_a", List.of(0), 0L, 1L);

    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(before),
        adjust(A, "by_a", List.of(Ref.committed(2)), List.of(1L)));

    IndexSegment after = adjusted(r);
    assertThat(coverage(after)).contains(List.of(0L, 2L));
    // Only the coverage changes.
    assertThat(after.name()).isEqualTo(before.name());
    assertThat(after.fields()).isEqualTo(before.fields());
    assertThat(after.datasetVersion()).isEqualTo(before.datasetVersion());
    assertThat(after.indexDetails()).isEqualTo(before.indexDetails());
    assertThat(after.files()).isEqualTo(before.files());
    assertThat(after.createdAt()).isEqualTo(before.createdAt());
  }

  @Test
  void coverageCanTakeInAFragmentMintedInTheSameOperation() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(segment(A, "by_a", List.of(0), 0L)),
        AddFragment.local(0, 10),
        adjust(A, "by_a", List.of(Ref.local(0)), List.of()));

    assertThat(coverage(adjusted(r))).contains(List.of(0L, 1L));
  }

  @Test
  void aFragmentNamedOnBothSidesEndsUpUncovered() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(segment(A, "by_a", List.of(0), 0L)),
        adjust(A, "by_a", List.of(Ref.committed(5)), List.of(5L)));

    assertThat(coverage(adjusted(r))).contains(List.of(0L));
  }

  @Test
  void aCoveredFragmentNamedOnBothSidesIsUncovered() {
    CompositeApply.Result r = applyWithIndices(backedManifest(),
        List.of(segment(A, "by_a", List.of(0), 0L, 5L)),
        adjust(A, "by_a", List.of(Ref.committed(5)), List.of(5L)));

    assertThat(coverage(adjusted(r))).contains(List.of(0L));
  }

  @Test
  void removingAFragmentTheSegmentDoesNotCoverChangesNothing() {
    IndexSegment before = segment(A, "by_a", List.of(0), 0L);

    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(before),
        adjust(A, "by_a", List.of(), List.of(9L)));

    assertThat(coverage(adjusted(r))).contains(List.of(0L));
  }

  @Test
  void adjustmentsAccumulateWithinAnOperation() {
    CompositeApply.Result r = applyWithIndices(backedManifest(),
        List.of(segment(A, "by_a", List.of(0), 0L)),
        adjust(A, "by_a", List.of(Ref.committed(3)), List.of()),
        adjust(A, "by_a", List.of(Ref.committed(4)), List.of(0L)));

    assertThat(coverage(adjusted(r))).contains(List.of(3L, 4L));
  }

  @Test
  void aSegmentAddedEarlierInTheOperationCanBeAdjusted() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        addSegment(A, "by_a", Ref.committed(0)).build(),
        adjust(A, "by_a", List.of(Ref.committed(7)), List.of()));

    assertThat(coverage(adjusted(r))).contains(List.of(0L, 7L));
  }

  @Test
  void otherSegmentsAreLeftAlone() {
    IndexSegment other = segment(uuid(2), "by_a", List.of(0), 0L, 1L);

    CompositeApply.Result r = applyWithIndices(backedManifest(),
        List.of(segment(A, "by_a", List.of(0), 0L, 1L), other),
        adjust(A, "by_a", List.of(), List.of(1L)));

    assertThat(byUuid(r.indices(), other.uuid())).isEqualTo(other);
  }

  @Test
  void adjustingASegmentThatIsNotThereIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(segment(uuid(2), "by_a", List.of(0), 0L)),
        adjust(A, "by_a", List.of(Ref.committed(1)), List.of()));

    assertThat(e.problem()).contains("index segment " + A).contains("is not part of the table")
        .contains("cannot be adjusted");
    assertThat(e.where()).isEqualTo(where(1, "AdjustIndexCoverage"));
  }

  @Test
  void adjustingASegmentWithNoRecordedCoverageIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(unknownCoverage(A, "by_a", List.of(0))),
        adjust(A, "by_a", List.of(Ref.committed(1)), List.of()));

    assertThat(e.problem()).contains("records no fragment coverage");
    assertThat(e.where()).isEqualTo(where(1, "AdjustIndexCoverage"));
  }

  @Test
  void adjustingASegmentOfAnotherIndexIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(segment(A, "by_a", List.of(0), 0L)),
        adjust(A, "by_b", List.of(Ref.committed(1)), List.of()));

    assertThat(e.problem()).contains("belongs to index 'by_a'").contains("'by_b'");
    assertThat(e.where()).isEqualTo(where(1, "AdjustIndexCoverage"));
  }

  @Test
  void aFragmentIdBeyondWhatAnIndexCanRecordIsRejected() {
    ApplyException adding = applyError(backedManifest(), List.of(segment(A, "by_a", List.of(0), 0L)),
        adjust(A, "by_a", List.of(Ref.committed(1L << 32)), List.of()));
    ApplyException removing = applyError(backedManifest(), List.of(segment(A, "by_a", List.of(0), 0L)),
        adjust(A, "by_a", List.of(), List.of(1L << 32)));

    assertThat(adding.problem()).contains("4294967296").contains("beyond the largest fragment id");
    assertThat(removing.problem()).contains("4294967296").contains("beyond the largest fragment id");
    assertThat(adding.where()).isEqualTo(where(1, "AdjustIndexCoverage"));
  }

  @Test
  void aTokenNoEarlierActionMintedIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(segment(A, "by_a", List.of(0), 0L)),
        adjust(A, "by_a", List.of(Ref.local(0)), List.of()));

    assertThat(e.problem()).contains("local fragment token 0").contains("no earlier action");
  }

  @Test
  void isNeverADataChange() {
    assertThat(adjust(A, "by_a", List.of(), List.of()).isDataChange()).isFalse();
  }
}
