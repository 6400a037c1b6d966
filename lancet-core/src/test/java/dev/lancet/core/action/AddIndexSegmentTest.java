package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.VERSION;
import static dev.lancet.core.action.IndexApplyFixtures.addSegment;
import static dev.lancet.core.action.IndexApplyFixtures.applyAt;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.applyWithIndices;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.byUuid;
import static dev.lancet.core.action.IndexApplyFixtures.coverage;
import static dev.lancet.core.action.IndexApplyFixtures.dataFile;
import static dev.lancet.core.action.IndexApplyFixtures.field;
import static dev.lancet.core.action.IndexApplyFixtures.sampleIndex;
import static dev.lancet.core.action.IndexApplyFixtures.uuid;
import static dev.lancet.core.action.IndexApplyFixtures.uuids;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static dev.lancet.core.action.IndexApplyFixtures.withBase;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** AddIndexSegment apply behaviour (v2-semantics §3.17, §7.19). */
class AddIndexSegmentTest {

  private static final UUID NEW = uuid(100);

  private static IndexSegment only(CompositeApply.Result r) {
    assertThat(r.indices()).hasSize(1);
    return r.indices().get(0);
  }

  @Test
  void addIndexSegmentRecordsCoverageAndTheVersionItDescribes() {
    Manifest read = backedManifest();
    Any details = Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails")
        .setValue(ByteString.copyFromUtf8("cfg")).build();
    IndexSegment.IndexFile file = new IndexSegment.IndexFile("index.idx", 1024,
        UnknownFieldSet.getDefaultInstance());

    CompositeApply.Result r = applyWithIndices(read, List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).details(details).files(file)
            .createdAt(1_700_000_000_123L).build());

    IndexSegment s = only(r);
    assertThat(s.uuid()).isEqualTo(NEW);
    assertThat(s.name()).isEqualTo("by_a");
    assertThat(s.fields()).containsExactly(0);
    assertThat(coverage(s)).contains(List.of(0L));
    assertThat(s.files()).containsExactly(file);
    assertThat(s.indexDetails()).contains(details);
    assertThat(s.indexVersion()).isEqualTo(OptionalInt.of(1));
    assertThat(s.createdAt()).isEqualTo(OptionalLong.of(1_700_000_000_123L));
    assertThat(s.baseId()).isEmpty();
    // A segment that does not say which version it reflects reflects the one the transaction
    // read, which is older than the version the commit produces.
    assertThat(s.datasetVersion()).isEqualTo(read.version());
    assertThat(s.datasetVersion()).isLessThan(r.manifest().version());
  }

  @Test
  void unrecordedFilesStayUnrecorded() {
    IndexSegment s = only(applyWithIndices(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).build()));

    assertThat(s.files()).isEmpty();
    assertThat(s.createdAt()).isEmpty();
    assertThat(s.indexDetails()).isEmpty();
  }

  @Test
  void anAbsentIndexVersionIsZero() {
    IndexSegment s = only(applyWithIndices(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).indexVersion(OptionalInt.empty()).build()));

    assertThat(s.indexVersion()).isEqualTo(OptionalInt.of(0));
  }

  @Test
  void aRelocatedSegmentReflectsTheVersionItWasBuiltAgainst() {
    // Built against version 5, committed after two other writers: applied to version 7.
    Manifest current = backedManifest().toBuilder().version(VERSION + 2).build();

    CompositeApply.Result r = applyAt(current, VERSION, List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).build());

    assertThat(r.manifest().version()).isEqualTo(VERSION + 3);
    assertThat(only(r).datasetVersion()).isEqualTo(VERSION);
  }

  @Test
  void aSegmentCannotReflectAVersionCommittedAfterTheOneItRead() {
    Manifest current = backedManifest().toBuilder().version(VERSION + 2).build();

    ApplyException e = applyError(() -> applyAt(current, VERSION, List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).datasetVersion(VERSION + 1).build()));

    assertThat(e.problem()).contains("could not have seen").contains("by_a")
        .contains(String.valueOf(VERSION + 1));
    assertThat(e.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void aMergedSegmentKeepsTheOlderVersionItReflects() {
    IndexSegment s = only(applyWithIndices(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).datasetVersion(VERSION - 1).build()));

    assertThat(s.datasetVersion()).isEqualTo(VERSION - 1);
  }

  @Test
  void aSegmentMayReflectExactlyTheVersionItRead() {
    IndexSegment s = only(applyWithIndices(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).datasetVersion(VERSION).build()));

    assertThat(s.datasetVersion()).isEqualTo(VERSION);
  }

  @Test
  void aSegmentReflectingAFutureVersionIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).datasetVersion(VERSION + 1).build());

    assertThat(e.problem()).contains("could not have seen");
    assertThat(e.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void aSecondSegmentExtendsTheSameIndex() {
    IndexSegment existing = sampleIndex(uuid(1), "by_a");

    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(existing),
        addSegment(NEW, "by_a", Ref.committed(0)).build());

    assertThat(uuids(r.indices())).containsExactlyInAnyOrder(existing.uuid(), NEW);
    assertThat(byUuid(r.indices(), existing.uuid())).isEqualTo(existing);
    assertThat(byUuid(r.indices(), NEW).name()).isEqualTo("by_a");
  }

  @Test
  void reAddingASegmentIsRejected() {
    IndexSegment existing = sampleIndex(uuid(1), "by_a");

    ApplyException e = applyError(backedManifest(), List.of(existing),
        addSegment(existing.uuid(), "by_a", Ref.committed(0)).build());

    assertThat(e.problem()).contains("added once").contains(existing.uuid().toString());
    assertThat(e.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void addingOneSegmentTwiceInAnOperationIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).build(),
        addSegment(NEW, "by_a", Ref.committed(0)).build());

    assertThat(e.problem()).contains("added once");
    assertThat(e.where()).isEqualTo(where(2, "AddIndexSegment"));
  }

  @Test
  void unrecordedCoverageIsNotTheSameAsCoveringNothing() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        addSegment(uuid(1), "system").unknownCoverage().build(),
        addSegment(uuid(2), "empty").covering().build());

    IndexSegment unknown = byUuid(r.indices(), uuid(1));
    IndexSegment nothing = byUuid(r.indices(), uuid(2));
    assertThat(unknown.fragmentBitmap()).isEqualTo(ByteString.EMPTY);
    assertThat(coverage(unknown)).isEmpty();
    // A serialized empty bitmap: present, with no fragment in it.
    assertThat(nothing.fragmentBitmap()).isNotEmpty();
    assertThat(coverage(nothing)).contains(List.of());
  }

  @Test
  void aSegmentCanCoverAFragmentMintedInTheSameOperation() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        AddFragment.local(0, 10),
        new AddDataFile(Ref.local(0), dataFile("data/1.lance", 0), List.of(Ref.committed(0)), true),
        addSegment(NEW, "by_a", Ref.committed(0)).covering(Ref.committed(0), Ref.local(0)).build());

    assertThat(coverage(only(r))).contains(List.of(0L, 1L));
  }

  @Test
  void aSegmentCanIndexAFieldMintedInTheSameOperation() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        AddField.topLevel(0, field(0, "b")),
        addSegment(NEW, "by_b", Ref.local(0)).build());

    assertThat(r.manifest().schema().field(1)).isPresent();
    assertThat(only(r).fields()).containsExactly(1);
  }

  @Test
  void aSegmentOverADroppedFieldDoesNotSurviveTheCommit() {
    CompositeApply.Result dropAfter = applyWithIndices(backedManifest(), List.of(),
        addSegment(NEW, "by_id", Ref.committed(0)).build(),
        new DropField(Ref.committed(0)));

    assertThat(dropAfter.indices()).isEmpty();
  }

  @Test
  void aSegmentOverAFieldThatDoesNotExistIsRefused() {
    // Issue 10: an index over a field that does not exist was accepted (and silently discarded).
    ApplyException dropped = applyError(backedManifest(), List.of(),
        new DropField(Ref.committed(0)),
        addSegment(NEW, "by_id", Ref.committed(0)).build());
    ApplyException unknown = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_x", Ref.committed(7)).build());

    assertThat(dropped.where()).contains("action 2 (AddIndexSegment)");
    assertThat(dropped.problem()).contains("indexes field 0, which does not exist");
    assertThat(unknown.problem()).contains("indexes field 7, which does not exist");
  }

  @Test
  void aSegmentCoveringAFragmentIdBeyondU32IsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).covering(Ref.committed(1L << 32)).build());

    assertThat(e.problem()).contains("covers fragment 4294967296")
        .contains("beyond the largest fragment id an index can record (4294967295)");
    assertThat(e.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void aTokenNoEarlierActionMintedIsRejected() {
    ApplyException fragment = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).covering(Ref.local(0)).build());
    ApplyException fieldToken = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.local(4)).build());

    assertThat(fragment.problem()).contains("local fragment token 0").contains("no earlier action");
    assertThat(fieldToken.problem()).contains("local field token 4").contains("no earlier action");
    assertThat(fieldToken.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void aSegmentMayLiveUnderAnotherBase() {
    CompositeApply.Result committed = applyWithIndices(withBase(backedManifest()), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).base(Ref.committed(1)).build());
    CompositeApply.Result minted = applyWithIndices(withBase(backedManifest()), List.of(),
        new AddBase(0, new BasePath(0, Optional.of("imported"), false, "/mnt/imported")),
        addSegment(NEW, "by_a", Ref.committed(0)).base(Ref.local(0)).build());

    assertThat(only(committed).baseId()).isEqualTo(OptionalInt.of(1));
    assertThat(only(minted).baseId()).isEqualTo(OptionalInt.of(2));
  }

  @Test
  void aSegmentUnderABaseThatIsNotThereIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).base(Ref.committed(9)).build());

    assertThat(e.problem()).contains("base id 9");
    assertThat(e.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void anIndexBuildIsNotADataChangeUnlessTheWriterSaysSo() {
    AddIndexSegment quiet = addSegment(NEW, "by_a", Ref.committed(0)).build();
    AddIndexSegment loud = new AddIndexSegment(quiet.uuid(), quiet.name(), quiet.fields(),
        quiet.indexDetails(), quiet.indexVersion(), quiet.coveredFragments(), quiet.files(), true,
        quiet.base(), quiet.createdAt(), quiet.datasetVersion(), quiet.coveringFields());

    assertThat(quiet.isDataChange()).isFalse();
    assertThat(loud.isDataChange()).isTrue();
  }

  // ---- covering fields (actions.proto @83c943b5 field 12; add_index_segment.rs) ------------

  /** upstream test_a_disjoint_covering_declaration_lowers_to_the_legacy_form. */
  @Test
  void aDisjointCoveringDeclarationLowersToTheLegacyForm() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        AddField.topLevel(0, field(0, "carried")),
        addSegment(NEW, "by_a", Ref.committed(0)).carrying(Ref.local(0)).build());

    int carried = r.manifest().schema().fields().stream().filter(f -> f.name().equals("carried"))
        .findFirst().orElseThrow().id();
    assertThat(only(r).fields()).containsExactly(0, carried);
    assertThat(only(r).coveringFields()).containsExactly(carried);
    assertThat(only(r).keyedFields()).containsExactly(0);
  }

  @Test
  void aCoveringDeclarationKeepsItsOrderAfterTheKeys() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        AddField.topLevel(0, field(0, "c1")), AddField.topLevel(1, field(0, "c2")),
        addSegment(NEW, "by_a", Ref.committed(0)).carrying(Ref.local(1), Ref.local(0)).build());
    assertThat(only(r).fields()).containsExactly(0, 2, 1);
    assertThat(only(r).coveringFields()).containsExactly(2, 1);
  }

  /** upstream test_a_covering_field_that_is_also_a_key_is_rejected_for_now. */
  @Test
  void aCoveringFieldThatIsAlsoAKeyIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a", Ref.committed(0)).carrying(Ref.committed(0)).build());
    assertThat(e.problem()).contains("FLAG_INDEPENDENT_COVERING_FIELDS").contains("index 'by_a'")
        .contains("[0]");
    assertThat(e.where()).isEqualTo(where(1, "AddIndexSegment"));
  }

  @Test
  void aCoveringFieldListedTwiceIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        AddField.topLevel(0, field(0, "carried")),
        addSegment(NEW, "by_a", Ref.committed(0)).carrying(Ref.local(0), Ref.local(0)).build());
    assertThat(e.problem()).contains("more than once");
  }

  @Test
  void coveringFieldsWithoutAKeyAreRejected() {
    ApplyException e = applyError(backedManifest(), List.of(),
        addSegment(NEW, "by_a").carrying(Ref.committed(0)).build());
    assertThat(e.problem()).contains("at least one field must remain a key");
  }
}
