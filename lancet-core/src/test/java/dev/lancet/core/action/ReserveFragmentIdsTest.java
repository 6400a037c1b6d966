package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.fragmentIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.Manifest;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ReserveFragmentIdsTest {

  @Test
  void test_reserving_raises_the_high_water_mark_without_adding_fragments() {
    Manifest m = backedManifest();
    assertThat(m.effectiveMaxFragmentId()).isEqualTo(OptionalLong.of(0));

    Manifest next = apply(m, new ReserveFragmentIds(3));

    // Ids 1, 2 and 3 are spoken for, but no fragment exists for them.
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(3));
    assertThat(fragmentIds(next)).containsExactly(0L);
  }

  @Test
  void test_a_later_mint_skips_the_reserved_range() {
    Manifest next = apply(backedManifest(), new ReserveFragmentIds(3), addFragment(0, 10));

    assertThat(fragmentIds(next)).containsExactly(0L, 4L);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(4));
  }

  @Test
  void the_range_starts_where_the_counter_stands_when_the_action_applies() {
    Manifest next = apply(backedManifest(),
        addFragment(0, 10), new ReserveFragmentIds(2), addFragment(1, 10));

    // 1 is minted, 2 and 3 are reserved, 4 is minted.
    assertThat(fragmentIds(next)).containsExactly(0L, 1L, 4L);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(4));
  }

  @Test
  void reservations_accumulate_within_an_operation() {
    Manifest next = apply(backedManifest(), new ReserveFragmentIds(2), new ReserveFragmentIds(3));

    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(5));
  }

  @Test
  void test_a_reserved_id_is_usable_by_the_next_operation() {
    Manifest reserved = apply(backedManifest(), new ReserveFragmentIds(2));
    assertThat(reserved.maxFragmentId()).isEqualTo(OptionalLong.of(2));

    // The next operation mints past the range: the reservation holds though nothing used it.
    Manifest next = apply(reserved, addFragment(0, 10));

    assertThat(fragmentIds(next)).containsExactly(0L, 3L);
  }

  @Test
  void test_reserving_nothing_is_a_no_op() {
    Manifest m = backedManifest().toBuilder().maxFragmentId(OptionalLong.of(6)).build();

    Manifest next = apply(m, new ReserveFragmentIds(0));

    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(6));
    assertThat(next.fragments()).isEqualTo(m.fragments());
  }

  @Test
  void reserving_past_the_largest_fragment_id_is_rejected_at_the_action() {
    Manifest m = backedManifest().toBuilder().maxFragmentId(OptionalLong.of(0xFFFF_FFF0L)).build();

    ApplyException e = failure(m, new ReserveFragmentIds(16));

    assertThat(e.problem()).contains("4294967296").contains("maximum fragment id (4294967295)");
    assertThat(e.where()).contains("action 1 (ReserveFragmentIds)");
  }

  @Test
  void reserving_up_to_the_largest_fragment_id_is_fine() {
    Manifest m = backedManifest().toBuilder().maxFragmentId(OptionalLong.of(0xFFFF_FFF0L)).build();

    Manifest next = apply(m, new ReserveFragmentIds(15));

    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(0xFFFF_FFFFL));
  }

  @Test
  void a_count_beyond_u32_is_not_an_action() {
    assertThatThrownBy(() -> new ReserveFragmentIds(1L << 32))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("u32");
    assertThatThrownBy(() -> new ReserveFragmentIds(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reserving_is_not_a_data_change() {
    assertThat(new ReserveFragmentIds(1).isDataChange()).isFalse();
  }
}
