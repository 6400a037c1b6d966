package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.addFragmentAt;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.fragment;
import static dev.lancet.core.apply.ApplyFixtures.fragmentIds;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.sampleManifest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AddFragmentTest {

  @Test
  void test_add_fragment_and_data_file_mint_ids() {
    Manifest next = apply(sampleManifest(),
        addFragment(0, 10),
        addDataFile(local(0), "data/1.lance", committed(0)));

    assertThat(fragmentIds(next)).containsExactly(0L, 1L);
    assertThat(fileFields(next, 1)).containsExactly(List.of(0));
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(1));
  }

  @Test
  void a_new_fragment_carries_the_given_row_count_and_nothing_else() {
    Fragment added = fragment(apply(sampleManifest(), addFragment(3, 42)), 1);

    assertThat(added.physicalRows()).isEqualTo(42);
    assertThat(added.files()).isEmpty();
    assertThat(added.deletionFile()).isEmpty();
    assertThat(added.overlays()).isEmpty();
    // The sample table has no stable row ids, so nothing is assigned or stamped.
    assertThat(added.rowIds()).isEmpty();
    assertThat(added.lastUpdatedAtVersions()).isEmpty();
    assertThat(added.createdAtVersions()).isEmpty();
  }

  @Test
  void minting_continues_past_the_stored_high_water_mark() {
    // Fragment ids up to 9 were handed out (and some reserved) by earlier commits.
    Manifest m = sampleManifest().toBuilder().maxFragmentId(OptionalLong.of(9)).build();

    Manifest next = apply(m, addFragment(0, 1), addFragment(1, 1));

    assertThat(fragmentIds(next)).containsExactly(0L, 10L, 11L);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(11));
  }

  @Test
  void the_first_fragment_of_an_empty_table_is_zero() {
    Manifest empty = sampleManifest().toBuilder().fragments(List.of()).build();

    Manifest next = apply(empty, addFragment(0, 5));

    assertThat(fragmentIds(next)).containsExactly(0L);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(0));
  }

  @Test
  void test_a_fragment_can_be_added_at_a_reserved_id() {
    Manifest reserved = apply(sampleManifest(), new ReserveFragmentIds(2));
    assertThat(reserved.maxFragmentId()).isEqualTo(OptionalLong.of(2));

    Manifest next = apply(reserved, addFragmentAt(1, 7));

    assertThat(fragmentIds(next)).containsExactly(0L, 1L);
    assertThat(fragment(next, 1).physicalRows()).isEqualTo(7);
    // The rest of the reservation (id 2) stays reserved.
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(2));
  }

  @Test
  void a_later_mint_in_the_same_operation_skips_a_claimed_reservation() {
    Manifest reserved = apply(sampleManifest(), new ReserveFragmentIds(2));

    Manifest next = apply(reserved, addFragmentAt(2, 1), addFragment(0, 1));

    assertThat(fragmentIds(next)).containsExactly(0L, 2L, 3L);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(3));
  }

  @Test
  void test_an_unreserved_id_is_rejected() {
    ApplyException e = failure(sampleManifest(), addFragmentAt(1, 1));

    assertThat(e.problem()).contains("no commit has reserved").contains("1");
    assertThat(e.where()).contains("step 1 ('step')").contains("action 1 (AddFragment)");
  }

  @Test
  void an_id_reserved_earlier_in_the_same_operation_cannot_be_claimed() {
    // A reservation is for a later commit: the reserving writer learns its ids from the
    // committed high-water mark, so its own operation cannot already name them.
    ApplyException e = failure(sampleManifest(), new ReserveFragmentIds(2), addFragmentAt(1, 1));

    assertThat(e.problem()).contains("no commit has reserved");
    assertThat(e.where()).contains("action 2 (AddFragment)");
  }

  @Test
  void test_an_id_already_in_use_is_rejected() {
    Manifest reserved = apply(sampleManifest(), new ReserveFragmentIds(2));

    ApplyException e = failure(reserved, addFragmentAt(1, 1), addFragmentAt(1, 1));

    assertThat(e.problem()).contains("already exists").contains("1");
    assertThat(e.where()).contains("action 2 (AddFragment)");
  }

  @Test
  void a_committed_fragment_id_cannot_be_claimed_again() {
    ApplyException e = failure(sampleManifest(), addFragmentAt(0, 1));

    assertThat(e.problem()).contains("already exists").contains("fragment id 0");
  }

  @Test
  void a_removed_fragment_id_is_not_reclaimed_in_the_same_operation() {
    ApplyException e = failure(sampleManifest(),
        new RemoveFragment(committed(0), true), addFragmentAt(0, 1));

    assertThat(e.problem()).contains("already exists");
    assertThat(e.where()).contains("action 2 (AddFragment)");
  }

  @Test
  void test_a_reserved_id_can_back_a_data_file_in_the_same_operation() {
    Manifest reserved = apply(sampleManifest(), new ReserveFragmentIds(2));

    Manifest next = apply(reserved,
        addFragmentAt(2, 10),
        addDataFile(committed(2), "data/2.lance", committed(0)));

    assertThat(fileFields(next, 2)).containsExactly(List.of(0));
    assertThat(fragment(next, 2).files().get(0).path()).isEqualTo("data/2.lance");
  }

  @Test
  void a_duplicate_local_token_is_rejected() {
    ApplyException e = failure(sampleManifest(), addFragment(4, 1), addFragment(4, 1));

    assertThat(e.problem()).contains("local fragment token 4").contains("minted more than once");
    assertThat(e.where()).contains("action 2 (AddFragment)");
  }

  @Test
  void data_change_is_the_actions_own_flag() {
    assertThat(AddFragment.local(0, 1).isDataChange()).isTrue();
    assertThat(new AddFragment(Ref.local(0), 1, java.util.Optional.empty(),
        java.util.Optional.empty(), java.util.Optional.empty(), false).isDataChange()).isFalse();
  }
}
