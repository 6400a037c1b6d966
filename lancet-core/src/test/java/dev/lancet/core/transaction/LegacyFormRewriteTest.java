package dev.lancet.core.transaction;

import static dev.lancet.core.action.IndexApplyFixtures.dataFile;
import static dev.lancet.core.action.IndexApplyFixtures.field;
import static dev.lancet.core.action.IndexApplyFixtures.rowIds;
import static dev.lancet.core.action.IndexApplyFixtures.versions;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AdjustIndexCoverage;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.operation.Rewrite;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.rowids.RowVersionSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The legacy form of a compaction that keeps index coverage (docs/decisions/0026): the table
 * API writes each rewrite group as its new fragments, the old ones removed, then the
 * AdjustIndexCoverage of each index that covers them, and {@link LegacyForm} reads the groups
 * back off that order into a Rewrite whose apply gives the same manifest and index list.
 */
class LegacyFormRewriteTest {
  static final long VERSION = 5;

  /** Fragments 0-5 of two rows each (row ids 2i, 2i+1), stable row ids. */
  static Manifest table() {
    List<Fragment> fragments = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      fragments.add(Fragment.builder(i).physicalRows(2)
          .files(List.of(dataFile("data/" + i + ".lance", 0)))
          .rowIds(Optional.of(rowIds(2L * i, 2L * i + 2)))
          .createdAtVersions(Optional.of(versions(RowVersionSequence.uniform(2, 2))))
          .lastUpdatedAtVersions(Optional.of(versions(RowVersionSequence.uniform(2, 2))))
          .build());
    }
    return Manifest.builder()
        .schema(new Schema(List.of(field(0, "id")), Map.of()))
        .fragments(fragments)
        .version(VERSION)
        .readerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .writerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .maxFragmentId(OptionalLong.of(5))
        .nextRowId(12)
        .build();
  }

  static IndexSegment index(String name, List<Long> covered) {
    return new IndexSegment(UUID.randomUUID(), List.of(0), name, VERSION,
        IndexSegment.fragmentBitmapOf(covered),
        Optional.of(Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails").build()),
        OptionalInt.of(0), OptionalLong.empty(), OptionalInt.empty(), List.of(), List.of(),
        UnknownFieldSet.getDefaultInstance());
  }

  /** A new fragment (Local {@code token}) holding the rows with ids {@code start..end-1}. */
  static List<Action> added(int token, long start, long end) {
    Ref ref = Ref.local(token);
    return List.of(
        new AddFragment(ref, end - start, Optional.of(rowIds(start, end)),
            Optional.of(versions(RowVersionSequence.uniform(end - start, 2))),
            Optional.of(versions(RowVersionSequence.uniform(end - start, 2))), false),
        new AddDataFile(ref, dataFile("data/new-" + token + ".lance", 0), List.of(Ref.committed(0)),
            false));
  }

  static RemoveFragment removed(long id) {
    return new RemoveFragment(Ref.committed(id), false);
  }

  @Test
  void eachRewriteGroupBecomesOneRewriteGroupAndTheApplyMatches() {
    Manifest read = table();
    IndexSegment a = index("a_idx", List.of(0L, 1L));
    IndexSegment b = index("b_idx", List.of(3L));
    List<IndexSegment> indices = List.of(a, b);
    List<Action> actions = new ArrayList<>();
    // Group 1: fragments 0-1, which a_idx covers, into one new fragment.
    actions.addAll(added(0, 0, 4));
    actions.add(removed(0));
    actions.add(removed(1));
    actions.add(new AdjustIndexCoverage(a.uuid(), a.name(), List.of(Ref.local(0)), List.of(0L, 1L)));
    // Group 2: fragment 2, uncovered, every row deleted, so no new fragment.
    actions.add(removed(2));
    // Group 3: fragment 3 (b_idx covers it), no new fragment either: only the coverage tells
    // it from group 2.
    actions.add(removed(3));
    actions.add(new AdjustIndexCoverage(b.uuid(), b.name(), List.of(), List.of(3L)));
    // Group 4: fragments 4-5, uncovered, into one.
    actions.addAll(added(1, 8, 12));
    actions.add(removed(4));
    actions.add(removed(5));
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("compact", actions)));

    LegacyForm.Outcome out = LegacyForm.lower(op, read, indices, VERSION);

    assertThat(out.operation()).as("lowered (%s)", out.whyNot()).isPresent();
    Rewrite rewrite = (Rewrite) out.operation().get();
    assertThat(rewrite.groups()).extracting(g -> g.oldFragments().stream().map(Fragment::id)
        .toList()).containsExactly(List.of(0L, 1L), List.of(2L), List.of(3L), List.of(4L, 5L));
    assertThat(rewrite.groups()).extracting(g -> g.newFragments().size())
        .containsExactly(1, 0, 0, 1);
    // What the composite does to the indexes: a_idx follows to the first new fragment (6),
    // b_idx covers nothing left.
    CompositeApply.Result composite = CompositeApply.apply(read, indices, op, VERSION);
    assertThat(composite.indices()).extracting(s -> s.coveredFragments().orElseThrow()
        .toArray().length).containsExactly(1, 0);
    assertThat(composite.indices().get(0).coveredFragments().orElseThrow().contains(6)).isTrue();
  }

  @Test
  void removalsBeforeTheNewFragmentsMakeOneGroup() {
    Manifest read = table();
    List<Action> actions = new ArrayList<>();
    actions.add(removed(4));
    actions.add(removed(5));
    actions.addAll(added(0, 8, 12));
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("compact", actions)));

    LegacyForm.Outcome out = LegacyForm.lower(op, read, List.of(), VERSION);

    assertThat(out.operation()).as("lowered (%s)", out.whyNot()).isPresent();
    assertThat(((Rewrite) out.operation().get()).groups()).hasSize(1);
  }
}
