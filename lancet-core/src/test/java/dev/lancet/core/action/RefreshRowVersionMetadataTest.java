package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.VERSION;
import static dev.lancet.core.action.IndexApplyFixtures.apply;
import static dev.lancet.core.action.IndexApplyFixtures.applyAt;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.dataFile;
import static dev.lancet.core.action.IndexApplyFixtures.fragment;
import static dev.lancet.core.action.IndexApplyFixtures.repeat;
import static dev.lancet.core.action.IndexApplyFixtures.rowIds;
import static dev.lancet.core.action.IndexApplyFixtures.stableManifest;
import static dev.lancet.core.action.IndexApplyFixtures.versions;
import static dev.lancet.core.action.IndexApplyFixtures.versionsPerRow;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.rowids.RowVersionSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** RefreshRowVersionMetadata apply behaviour (v2-semantics §3.15, §7.17). */
class RefreshRowVersionMetadataTest {

  private static RefreshRowVersionMetadata refresh(Long... fragments) {
    return new RefreshRowVersionMetadata(List.of(fragments));
  }

  /** stableManifest plus fragment 2 (5 rows, ids 10..15, all at version 4). */
  private static Manifest twoFragments() {
    Manifest m = stableManifest();
    List<Fragment> fragments = new ArrayList<>(m.fragments());
    fragments.add(Fragment.builder(2).physicalRows(5)
        .files(List.of(dataFile("data/2.lance", 0)))
        .rowIds(Optional.of(rowIds(10, 15)))
        .createdAtVersions(Optional.of(versions(RowVersionSequence.uniform(5, 4))))
        .lastUpdatedAtVersions(Optional.of(versions(RowVersionSequence.uniform(5, 4))))
        .build());
    return m.toBuilder().fragments(fragments).maxFragmentId(OptionalLong.of(2)).build();
  }

  @Test
  void refreshStampsEveryRowWithTheVersionTheCommitProduces() {
    Manifest read = stableManifest();
    // Before: rows 0..4 at version 2, rows 4..10 at version 3.
    assertThat(versionsPerRow(fragment(read, 1).lastUpdatedAtVersions()))
        .containsExactly(2, 2, 2, 2, 3, 3, 3, 3, 3, 3);

    Manifest next = apply(read, refresh(1L));

    assertThat(versionsPerRow(fragment(next, 1).lastUpdatedAtVersions()))
        .containsExactly(repeat(VERSION + 1, 10));
    assertThat(next.version()).isEqualTo(VERSION + 1);
  }

  @Test
  void refreshLeavesTheCreatedAtSequenceAlone() {
    Manifest read = stableManifest();

    Manifest next = apply(read, refresh(1L));

    Fragment before = fragment(read, 1);
    Fragment after = fragment(next, 1);
    assertThat(after.createdAtVersions()).isEqualTo(before.createdAtVersions());
    assertThat(versionsPerRow(after.createdAtVersions())).containsExactly(repeat(2, 10));
    // Nor does it touch the rows themselves.
    assertThat(after.rowIds()).isEqualTo(before.rowIds());
    assertThat(after.files()).isEqualTo(before.files());
  }

  @Test
  void refreshTouchesOnlyTheFragmentsItNames() {
    Manifest read = twoFragments();

    Manifest next = apply(read, refresh(2L));

    assertThat(fragment(next, 1)).isEqualTo(fragment(read, 1));
    assertThat(versionsPerRow(fragment(next, 2).lastUpdatedAtVersions()))
        .containsExactly(repeat(VERSION + 1, 5));
    assertThat(versionsPerRow(fragment(next, 2).createdAtVersions())).containsExactly(repeat(4, 5));
  }

  @Test
  void refreshOfSeveralFragmentsStampsEachByItsOwnRowCount() {
    Manifest next = apply(twoFragments(), refresh(1L, 2L));

    assertThat(versionsPerRow(fragment(next, 1).lastUpdatedAtVersions()))
        .containsExactly(repeat(VERSION + 1, 10));
    assertThat(versionsPerRow(fragment(next, 2).lastUpdatedAtVersions()))
        .containsExactly(repeat(VERSION + 1, 5));
  }

  @Test
  void aFragmentWithoutALastUpdatedSequenceGetsOne() {
    Manifest read = stableManifest();
    Fragment bare = fragment(read, 1).toBuilder().lastUpdatedAtVersions(Optional.empty()).build();
    read = read.toBuilder().fragments(List.of(bare)).build();

    Manifest next = apply(read, refresh(1L));

    assertThat(versionsPerRow(fragment(next, 1).lastUpdatedAtVersions()))
        .containsExactly(repeat(VERSION + 1, 10));
  }

  @Test
  void aRetryRestampsWithTheVersionTheRetryProduces() {
    Manifest current = stableManifest().toBuilder().version(VERSION + 2).build();

    Manifest next = applyAt(current, VERSION, List.of(), refresh(1L)).manifest();

    assertThat(versionsPerRow(fragment(next, 1).lastUpdatedAtVersions()))
        .containsExactly(repeat(VERSION + 3, 10));
  }

  @Test
  void refreshingNoFragmentsIsAllowedOnAnyDataset() {
    Manifest plain = backedManifest();
    Manifest stable = stableManifest();

    Manifest nextPlain = apply(plain, refresh());
    Manifest nextStable = apply(stable, refresh());

    assertThat(nextPlain.fragments()).isEqualTo(plain.fragments());
    assertThat(nextStable.fragments()).isEqualTo(stable.fragments());
    assertThat(nextStable.nextRowId()).isEqualTo(stable.nextRowId());
  }

  @Test
  void refreshingWithoutStableRowIdsIsRejected() {
    ApplyException e = applyError(() -> apply(backedManifest(), refresh(0L)));

    assertThat(e.problem()).contains("stable row ids");
    assertThat(e.where()).isEqualTo(where(1, "RefreshRowVersionMetadata"));
  }

  @Test
  void refreshingAFragmentThatIsNotThereIsRejected() {
    ApplyException e = applyError(() -> apply(stableManifest(), refresh(1L, 7L)));

    assertThat(e.problem()).contains("RefreshRowVersionMetadata targets fragment 7, which does not exist");
    assertThat(e.where()).isEqualTo(where(1, "RefreshRowVersionMetadata"));
  }

  @Test
  void refreshingAFragmentRemovedEarlierInTheOperationIsRejected() {
    ApplyException e = applyError(() -> apply(stableManifest(),
        new RemoveFragment(Ref.committed(1), true), refresh(1L)));

    assertThat(e.problem()).contains("RefreshRowVersionMetadata targets fragment 1, which does not exist");
    assertThat(e.where()).isEqualTo(where(2, "RefreshRowVersionMetadata"));
  }

  @Test
  void isNeverADataChange() {
    assertThat(refresh(1L).isDataChange()).isFalse();
  }
}
