package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.VERSION;
import static dev.lancet.core.action.IndexApplyFixtures.addSegment;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.applyWithIndices;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.byUuid;
import static dev.lancet.core.action.IndexApplyFixtures.sampleIndex;
import static dev.lancet.core.action.IndexApplyFixtures.steps;
import static dev.lancet.core.action.IndexApplyFixtures.uuid;
import static dev.lancet.core.action.IndexApplyFixtures.uuids;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RemoveIndexSegment apply behaviour (v2-semantics §3.18, §7.20). */
class RemoveIndexSegmentTest {

  private static final IndexSegment A1 = sampleIndex(uuid(1), "by_a");
  private static final IndexSegment A2 = sampleIndex(uuid(2), "by_a");
  private static final IndexSegment B1 = sampleIndex(uuid(3), "by_b");

  private static RemoveIndexSegment remove(IndexSegment s) {
    return new RemoveIndexSegment(s.uuid(), s.name(), false);
  }

  @Test
  void removeIndexSegmentDropsOnlyTheSegmentItNames() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(A1, A2, B1), remove(A1));

    assertThat(r.indices()).containsExactlyInAnyOrder(A2, B1);
  }

  @Test
  void droppingAnIndexRemovesEachOfItsSegments() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(A1, A2, B1),
        remove(A1), remove(A2));

    assertThat(r.indices()).containsExactly(B1);
  }

  @Test
  void removingTheLastSegmentMakesTheIndexDisappear() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(A1), remove(A1));

    assertThat(r.indices()).isEmpty();
  }

  @Test
  void removingASegmentThatIsNotThereIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(A1), remove(B1));

    assertThat(e.problem()).contains("index segment " + B1.uuid())
        .contains("is not part of the table").contains("cannot be removed");
    assertThat(e.where()).isEqualTo(where(1, "RemoveIndexSegment"));
  }

  @Test
  void removingASegmentTwiceInOneOperationIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(A1, A2), remove(A1), remove(A1));

    assertThat(e.problem()).contains("is not part of the table");
    assertThat(e.where()).isEqualTo(where(2, "RemoveIndexSegment"));
  }

  @Test
  void aSegmentCanBeReplacedWithinOneOperation() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(A1, B1),
        remove(A1),
        addSegment(uuid(50), "by_a", Ref.committed(0)).build());

    assertThat(uuids(r.indices())).containsExactlyInAnyOrder(uuid(50), B1.uuid());
    assertThat(byUuid(r.indices(), uuid(50)).name()).isEqualTo("by_a");
  }

  @Test
  void aSegmentAddedEarlierInTheOperationCanBeRemoved() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(B1),
        addSegment(uuid(50), "by_a", Ref.committed(0)).build(),
        new RemoveIndexSegment(uuid(50), "by_a", false));

    assertThat(r.indices()).containsExactly(B1);
  }

  @Test
  void removingASegmentOfAnotherIndexIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(A1, B1),
        new RemoveIndexSegment(A1.uuid(), "by_b", false));

    assertThat(e.problem()).contains("belongs to index 'by_a'").contains("'by_b'");
    assertThat(e.where()).isEqualTo(where(1, "RemoveIndexSegment"));
  }

  @Test
  void anErrorInALaterStepNamesThatStep() {
    ApplyException e = applyError(() -> CompositeApply.apply(backedManifest(),
        List.of(A1), steps(
            new UserStep("drop by_a", List.of(remove(A1))),
            new UserStep("drop it again", List.of(new RemoveFragment(Ref.committed(0), true), remove(A1)))),
        VERSION));

    assertThat(e.where()).isEqualTo(where(2, "drop it again", 2, "RemoveIndexSegment"));
    assertThat(e.problem()).contains("is not part of the table");
  }

  @Test
  void removingASegmentChangesNoData() {
    Manifest read = backedManifest();

    CompositeApply.Result r = applyWithIndices(read, List.of(A1), remove(A1));

    assertThat(r.manifest().fragments()).isEqualTo(read.fragments());
    assertThat(r.manifest().schema()).isEqualTo(read.schema());
  }

  @Test
  void dataChangeIsTheWritersFlag() {
    assertThat(new RemoveIndexSegment(A1.uuid(), "by_a", true).isDataChange()).isTrue();
    assertThat(new RemoveIndexSegment(A1.uuid(), "by_a", false).isDataChange()).isFalse();
  }
}
