package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.addFragmentAt;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.applyWithIndices;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.covered;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.fragment;
import static dev.lancet.core.apply.ApplyFixtures.sampleIndex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Manifest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SetDeletionFileTest {


  private static final DeletionFile THREE_DELETED =
      new DeletionFile(DeletionFile.Kind.BITMAP, 5, 11, 3);
  private static final DeletionFile FIVE_DELETED =
      new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, 6, 12, 5);

  private static SetDeletionFile set(long fragment, DeletionFile file) {
    return new SetDeletionFile(fragment, Optional.of(file), true);
  }

  private static SetDeletionFile clear(long fragment) {
    return new SetDeletionFile(fragment, Optional.empty(), true);
  }

  @Test
  void test_set_deletion_file_sets_and_clears() {
    Manifest set = apply(backedManifest(), set(0, THREE_DELETED));
    assertThat(fragment(set, 0).deletionFile()).contains(THREE_DELETED);
    assertThat(fragment(set, 0).liveRows()).isEqualTo(7);
    // Only the deletions change.
    assertThat(fileFields(set, 0)).containsExactly(List.of(0));

    Manifest cleared = apply(set, clear(0));
    assertThat(fragment(cleared, 0).deletionFile()).isEmpty();
    assertThat(fragment(cleared, 0).liveRows()).isEqualTo(10);
  }

  @Test
  void a_deletion_file_is_a_post_image_that_replaces_the_previous_one() {
    Manifest once = apply(backedManifest(), set(0, THREE_DELETED));

    Manifest twice = apply(once, set(0, FIVE_DELETED));

    assertThat(fragment(twice, 0).deletionFile()).contains(FIVE_DELETED);
  }

  @Test
  void the_last_action_in_an_operation_wins() {
    Manifest next = apply(backedManifest(), set(0, THREE_DELETED), clear(0), set(0, FIVE_DELETED));

    assertThat(fragment(next, 0).deletionFile()).contains(FIVE_DELETED);
  }

  @Test
  void test_set_deletion_file_rejects_a_missing_fragment() {
    ApplyException e = failure(backedManifest(), set(7, THREE_DELETED));

    assertThat(e.problem()).isEqualTo("SetDeletionFile targets fragment 7, which does not exist");
    assertThat(e.where()).contains("action 1 (SetDeletionFile)");
  }

  @Test
  void a_fragment_minted_for_a_local_token_cannot_be_named_by_a_guessed_id() {
    // Fragment 1 is what Local(0) mints now; after a rebase over a concurrent append it would be
    // the other writer's fragment, and the deletion file would land there.
    ApplyException e = failure(backedManifest(), addFragment(0, 10), set(1, THREE_DELETED));

    assertThat(e.problem()).contains("SetDeletionFile names fragment 1 by id")
        .contains("minted that fragment for Local(0)").contains("ReserveFragmentIds");
    assertThat(e.where()).contains("action 2 (SetDeletionFile)");
  }

  @Test
  void a_fragment_added_earlier_in_the_operation_under_a_reserved_id_can_take_deletions() {
    Manifest reserved = apply(backedManifest(), new ReserveFragmentIds(2));

    Manifest next = apply(reserved, addFragmentAt(2, 10), set(2, THREE_DELETED));

    assertThat(fragment(next, 2).deletionFile()).contains(THREE_DELETED);
    assertThat(fragment(next, 2).liveRows()).isEqualTo(7);
  }

  @Test
  void more_deleted_rows_than_the_fragment_has_is_rejected() {
    DeletionFile tooMany = new DeletionFile(DeletionFile.Kind.BITMAP, 5, 11, 11);

    ApplyException e = failure(backedManifest(), set(0, tooMany));

    assertThat(e.problem()).contains("fragment 0").contains("11 rows").contains("only 10");
  }

  @Test
  void deletions_leave_index_coverage_alone() {
    CompositeApply.Result result = applyWithIndices(backedManifest(),
        List.of(sampleIndex("idx")), set(0, THREE_DELETED));

    assertThat(covered(result.indices().get(0))).containsExactly(0L);
  }

  @Test
  void data_change_is_the_actions_own_flag() {
    assertThat(set(0, THREE_DELETED).isDataChange()).isTrue();
    assertThat(new SetDeletionFile(0, Optional.empty(), false).isDataChange()).isFalse();
  }
}
