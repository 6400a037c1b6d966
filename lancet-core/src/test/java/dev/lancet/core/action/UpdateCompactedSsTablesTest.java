package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.MEM_WAL;
import static dev.lancet.core.action.IndexApplyFixtures.MEM_WAL_TYPE_URL;
import static dev.lancet.core.action.IndexApplyFixtures.VERSION;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.applyWithIndices;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.byUuid;
import static dev.lancet.core.action.IndexApplyFixtures.compacted;
import static dev.lancet.core.action.IndexApplyFixtures.memWalDetails;
import static dev.lancet.core.action.IndexApplyFixtures.memWalIndex;
import static dev.lancet.core.action.IndexApplyFixtures.progress;
import static dev.lancet.core.action.IndexApplyFixtures.sampleIndex;
import static dev.lancet.core.action.IndexApplyFixtures.shard;
import static dev.lancet.core.action.IndexApplyFixtures.uuid;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TableProtos;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * UpdateCompactedSsTables apply behaviour (v2-semantics §3.16, §7.18). Lancet's decision on the
 * divergence in §8.11: recording progress needs an existing MemWAL index; its absence is
 * invalid input, not a reason to create one.
 */
class UpdateCompactedSsTablesTest {

  private static final UUID MEM_WAL_UUID = uuid(900);

  private static List<IndexSegment> withMemWal(Map<UUID, Long> progress) {
    return List.of(memWalIndex(MEM_WAL_UUID, progress));
  }

  @Test
  void recordingProgressWithoutAMemWalIndexIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(sampleIndex(uuid(1), "by_a")),
        compacted(1, 7));

    assertThat(e.problem()).contains("does not exist on this table").contains(MEM_WAL);
    assertThat(e.where()).isEqualTo(where(1, "UpdateCompactedSsTables"));
  }

  @Test
  void progressIsRecordedForAShardTheIndexDidNotTrackYet() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), withMemWal(Map.of()), compacted(1, 7));

    assertThat(progress(r.indices())).containsExactly(entry(shard(1), 7L));
  }

  @Test
  void aLaterGenerationSupersedesTheOneRecordedForThatShard() {
    Manifest m = backedManifest();
    CompositeApply.Result first = applyWithIndices(m, withMemWal(Map.of()), compacted(1, 3));
    CompositeApply.Result second = applyWithIndices(first.manifest(), first.indices(), compacted(1, 9));

    assertThat(progress(first.indices())).containsExactly(entry(shard(1), 3L));
    assertThat(progress(second.indices())).containsExactly(entry(shard(1), 9L));
  }

  @Test
  void anEarlierGenerationIsRejectedRatherThanWalkingAShardBackwards() {
    ApplyException e = applyError(backedManifest(), withMemWal(Map.of(shard(1), 9L)), compacted(1, 3));

    assertThat(e.problem()).contains("Stale SSTable compaction").contains(shard(1).toString())
        .contains("9").contains("3");
    assertThat(e.where()).isEqualTo(where(1, "UpdateCompactedSsTables"));
  }

  @Test
  void aShardWalkingBackwardsWithinOneActionIsRejected() {
    ApplyException e = applyError(backedManifest(), withMemWal(Map.of()), compacted(1, 9, 1, 3));

    assertThat(e.problem()).contains("Stale SSTable compaction");
  }

  @Test
  void reRecordingTheSameGenerationIsAccepted() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), withMemWal(Map.of(shard(1), 9L)),
        compacted(1, 9));

    assertThat(progress(r.indices())).containsExactly(entry(shard(1), 9L));
  }

  @Test
  void shardsAreTrackedIndependently() {
    Manifest m = backedManifest();
    CompositeApply.Result first = applyWithIndices(m, withMemWal(Map.of()), compacted(1, 3));
    CompositeApply.Result second = applyWithIndices(first.manifest(), first.indices(), compacted(2, 5));

    assertThat(progress(second.indices())).containsOnly(entry(shard(1), 3L), entry(shard(2), 5L));
  }

  @Test
  void aLowShardGenerationIsNotJudgedAgainstAnotherShard() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), withMemWal(Map.of(shard(1), 9L)),
        compacted(2, 1));

    assertThat(progress(r.indices())).containsOnly(entry(shard(1), 9L), entry(shard(2), 1L));
  }

  @Test
  void oneActionMayRecordSeveralShards() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), withMemWal(Map.of(shard(1), 2L)),
        compacted(1, 4, 2, 5, 3, 6));

    assertThat(progress(r.indices()))
        .containsOnly(entry(shard(1), 4L), entry(shard(2), 5L), entry(shard(3), 6L));
  }

  @Test
  void recordingNoSstablesIsRejected() {
    ApplyException e = applyError(backedManifest(), withMemWal(Map.of()), compacted());

    assertThat(e.problem()).contains("names no SSTable");
    assertThat(e.where()).isEqualTo(where(1, "UpdateCompactedSsTables"));
  }

  @Test
  void recordingProgressLeavesOtherIndicesAlone() {
    IndexSegment kept = sampleIndex(uuid(1), "by_a");

    CompositeApply.Result r = applyWithIndices(backedManifest(),
        List.of(kept, memWalIndex(MEM_WAL_UUID, Map.of())), compacted(1, 7));

    assertThat(r.indices()).hasSize(2);
    assertThat(byUuid(r.indices(), kept.uuid())).isEqualTo(kept);
  }

  @Test
  void theMemWalSegmentKeepsItsIdentityAndIsStampedWithTheNewVersion() {
    IndexSegment before = memWalIndex(MEM_WAL_UUID, Map.of(shard(1), 2L));

    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(before), compacted(1, 4));

    IndexSegment after = byUuid(r.indices(), MEM_WAL_UUID);
    assertThat(after.name()).isEqualTo(MEM_WAL);
    assertThat(after.fields()).isEqualTo(before.fields());
    assertThat(after.fragmentBitmap()).isEqualTo(before.fragmentBitmap());
    assertThat(after.detailsTypeUrl()).isEqualTo(MEM_WAL_TYPE_URL);
    assertThat(after.datasetVersion()).isEqualTo(VERSION + 1);
  }

  @Test
  void theRestOfTheMemWalDetailsSurvives() {
    UnknownFieldSet other = UnknownFieldSet.newBuilder()
        .addField(1, UnknownFieldSet.Field.newBuilder().addVarint(42).build())
        .addField(3, UnknownFieldSet.Field.newBuilder()
            .addLengthDelimited(ByteString.copyFromUtf8("region")).build())
        .build();

    CompositeApply.Result r = applyWithIndices(backedManifest(),
        List.of(memWalIndex(MEM_WAL_UUID, Map.of(shard(1), 2L), other)), compacted(1, 4));

    UnknownFieldSet details = memWalDetails(r.indices());
    assertThat(details.getField(1).getVarintList()).containsExactly(42L);
    assertThat(details.getField(3).getLengthDelimitedList())
        .containsExactly(ByteString.copyFromUtf8("region"));
    assertThat(progress(r.indices())).containsExactly(entry(shard(1), 4L));
  }

  @Test
  void aMemWalIndexWhoseDetailsAreSomethingElseIsRejected() {
    IndexSegment s = memWalIndex(MEM_WAL_UUID, Map.of());
    IndexSegment foreign = new IndexSegment(s.uuid(), s.fields(), s.name(), s.datasetVersion(),
        s.fragmentBitmap(), Optional.of(Any.newBuilder()
            .setTypeUrl("/lance.table.BTreeIndexDetails").build()),
        s.indexVersion(), s.createdAt(), s.baseId(), s.files(), s.coveringFields(), s.unknownFields());

    ApplyException e = applyError(backedManifest(), List.of(foreign), compacted(1, 7));

    assertThat(e.problem()).contains("/lance.table.BTreeIndexDetails").contains("MemWalIndexDetails");
    assertThat(e.where()).isEqualTo(where(1, "UpdateCompactedSsTables"));
  }

  @Test
  void aMemWalIndexRecordingAMalformedShardIdIsRejected() {
    UnknownFieldSet bad = UnknownFieldSet.newBuilder()
        .addField(9, UnknownFieldSet.Field.newBuilder().addLengthDelimited(
            TableProtos.CompactedSsTable.newBuilder()
                .setShardId(TableProtos.UUID.newBuilder()
                    .setUuid(ByteString.copyFrom(new byte[3])))
                .setGeneration(1).build().toByteString()).build())
        .build();
    IndexSegment s = memWalIndex(MEM_WAL_UUID, Map.of());
    IndexSegment corrupt = new IndexSegment(s.uuid(), s.fields(), s.name(), s.datasetVersion(),
        s.fragmentBitmap(), Optional.of(s.indexDetails().orElseThrow().toBuilder()
            .setValue(bad.toByteString()).build()),
        s.indexVersion(), s.createdAt(), s.baseId(), s.files(), s.coveringFields(), s.unknownFields());

    ApplyException e = applyError(backedManifest(), List.of(corrupt), compacted(1, 7));

    assertThat(e.problem()).contains("MemWAL");
    assertThat(e.where()).isEqualTo(where(1, "UpdateCompactedSsTables"));
  }

  @Test
  void aMemWalIndexWithoutDetailsStartsFromNoProgress() {
    IndexSegment s = memWalIndex(MEM_WAL_UUID, Map.of());
    IndexSegment bare = new IndexSegment(s.uuid(), s.fields(), s.name(), s.datasetVersion(),
        s.fragmentBitmap(), Optional.empty(), s.indexVersion(), s.createdAt(), s.baseId(),
        s.files(), s.coveringFields(), s.unknownFields());

    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(bare), compacted(1, 7));

    assertThat(progress(r.indices())).containsExactly(entry(shard(1), 7L));
    assertThat(byUuid(r.indices(), MEM_WAL_UUID).detailsTypeUrl()).isEqualTo(MEM_WAL_TYPE_URL);
  }

  @Test
  void progressCanBeRecordedInAMemWalIndexAddedEarlierInTheOperation() {
    // How a table gets its MemWAL index under Lancet's decision: add it, then record progress.
    AddIndexSegment create = new AddIndexSegment(MEM_WAL_UUID, MEM_WAL, List.of(),
        Optional.of(Any.newBuilder().setTypeUrl(MEM_WAL_TYPE_URL).build()),
        OptionalInt.of(0), Optional.empty(), List.of(), false,
        Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), List.of());

    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(), create, compacted(1, 7));

    assertThat(progress(r.indices())).containsExactly(entry(shard(1), 7L));
    assertThat(byUuid(r.indices(), MEM_WAL_UUID).fragmentBitmap()).isEmpty();
  }

  @Test
  void aMemWalIndexRemovedEarlierInTheOperationIsGone() {
    ApplyException e = applyError(backedManifest(), withMemWal(Map.of()),
        new RemoveIndexSegment(MEM_WAL_UUID, MEM_WAL, false), compacted(1, 7));

    assertThat(e.problem()).contains("does not exist on this table");
    assertThat(e.where()).isEqualTo(where(2, "UpdateCompactedSsTables"));
  }

  @Test
  void recordingProgressChangesNoData() {
    Manifest read = backedManifest();

    CompositeApply.Result r = applyWithIndices(read, withMemWal(Map.of()), compacted(1, 7));

    assertThat(r.manifest().fragments()).isEqualTo(read.fragments());
    assertThat(r.manifest().schema()).isEqualTo(read.schema());
    assertThat(compacted(1, 7).isDataChange()).isFalse();
  }
}
