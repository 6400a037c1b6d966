package dev.lancet.core.conflict;

import static dev.lancet.core.conflict.Sets.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.apply.ApplyState;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every expectation of v2-semantics §4.6, plus the footprint cases of §7.12–7.24, built from the
 * real action records. Symmetric rows are asserted in both orders; directional rows state the
 * committing set first and the already committed set second.
 */
class ConflictExpectationsTest {

  private static Arguments row(String name, Footprint a, Footprint b, boolean conflicts) {
    return Arguments.of(name, a, b, conflicts);
  }

  private static void assertOutcome(String what, Footprint committing, Footprint committed,
      boolean expected) {
    ConflictResult result = Conflicts.check(committing, committed);
    assertThat(result.conflicts()).as(what + ": " + result.describe()).isEqualTo(expected);
    if (expected) {
      assertThat(result.collisions()).allSatisfy(c -> assertThat(c.description()).isNotBlank());
    } else {
      assertThat(result.collisions()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("symmetric")
  void symmetricConflicts(String name, Footprint a, Footprint b, boolean conflicts) {
    assertOutcome(name + " (first committing after second)", a, b, conflicts);
    assertOutcome(name + " (second committing after first)", b, a, conflicts);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("directional")
  void directionalConflicts(String name, Footprint committing, Footprint committed, boolean conflicts) {
    assertOutcome(name, committing, committed, conflicts);
  }

  static Stream<Arguments> symmetric() {
    Action[] addColumnInto7 = {addField(0, "c"), addDataFile(c(7), List.of(l(0)))};
    Action[] mintOnly = {newFragment(0), addDataFile(l(0), List.of(l(0)))};
    return Stream.of(
        // §7.24 test_minting_actions_write_nothing (Gen-C: an AddField writes its name, so the
        // two sets add differently named fields).
        row("minting_actions_write_nothing", fp((Object) mintOnly), fp((Object) mintOnly), false),
        row("minting_actions_with_fields_write_nothing",
            fp(addField(0, "x"), mintOnly), fp(addField(0, "y"), mintOnly), false),
        // §7.24 test_conflicts
        row("same_field_in_same_fragment", fp(tombstone(0, 1)), fp(rewrite(0, 1)), true),
        row("different_fields_in_same_fragment", fp(tombstone(0, 1)), fp(rewrite(0, 2)), false),
        row("same_field_in_different_fragments", fp(tombstone(0, 1)), fp(tombstone(1, 1)), false),
        row("deletions_do_not_collide_with_field_data", fp(deletion(0)), fp(tombstone(0, 1)), false),
        row("concurrent_deletes_of_one_fragment", fp(deletion(0)), fp(deletion(0)), true),
        row("removal_swallows_the_whole_fragment", fp(remove(0)), fp(tombstone(0, 1)), true),
        row("removal_leaves_other_fragments_alone", fp(remove(0)), fp(tombstone(1, 1)), false),
        row("removing_the_same_fragment_twice", fp(remove(0)), fp(remove(0)), true),
        row("adding_a_column_into_a_fragment_a_concurrent_set_removes",
            fp((Object) addColumnInto7), fp(remove(7)), true),
        row("adding_a_column_leaves_other_writes_to_the_fragment_alone",
            fp((Object) addColumnInto7), fp(tombstone(7, 2), deletion(7)), false),
        row("same_field_definition", fp(rename(1, "x")), fp(nullable(1)), true),
        row("different_field_definitions", fp(rename(1, "x")), fp(nullable(2)), false),
        row("dropping_a_field_collides_with_altering_it", fp(drop(1)), fp(nullable(1)), true),
        row("dropping_a_field_leaves_other_fields_alone", fp(drop(1)), fp(tombstone(0, 2)), false),
        row("dropping_a_field_leaves_deletions_alone", fp(drop(1)), fp(deletion(0)), false),
        row("dropping_a_field_a_concurrent_append_does_not_write", fp(drop(1)), fp((Object) append(2)), false),
        row("casting_a_field_a_concurrent_append_does_not_write", fp(cast(1)), fp((Object) append(2)), false),
        row("adding_two_fields_with_the_same_name", fp(addField(0, "c")), fp(addField(0, "c")), true),
        row("adding_two_fields_with_different_names", fp(addField(0, "c")), fp(addField(0, "d")), false),
        row("adding_a_field_named_like_a_concurrent_rename", fp(addField(0, "c")), fp(rename(1, "c")), true),
        row("renaming_two_fields_to_the_same_name", fp(rename(1, "c")), fp(rename(2, "c")), true),
        row("adding_the_same_name_under_different_parents",
            fp(addChild(0, "c", 1)), fp(addChild(0, "c", 2)), true),
        row("bases_with_the_same_name", fp(base("b", "s3://one")), fp(base("b", "s3://two")), true),
        row("bases_with_the_same_location", fp(base("b1", "s3://one")), fp(base("b2", "s3://one")), true),
        row("unrelated_bases", fp(base("b1", "s3://one")), fp(base("b2", "s3://two")), false),
        row("unnamed_bases_at_different_locations", fp(base(null, "s3://one")), fp(base(null, "s3://two")), false),
        row("unnamed_bases_at_the_same_location", fp(base(null, "s3://one")), fp(base(null, "s3://one")), true),
        row("the_same_reserved_fragment_id", fp(reservedFragment(1)), fp(reservedFragment(1)), true),
        row("different_reserved_fragment_ids", fp(reservedFragment(1)), fp(reservedFragment(2)), false),
        row("claiming_a_reserved_id_a_concurrent_set_removes", fp(reservedFragment(1)), fp(remove(1)), true),
        // §7.13 test_reset_conflicts_with_everything
        row("reset_vs_append", fp(reset()), fp((Object) append(0)), true),
        row("reset_vs_a_bare_append_recording_no_coordinate", fp(reset()), fp(newFragment(0)), true),
        row("reset_vs_reset", fp(reset()), fp(reset()), true),
        row("append_vs_append", fp((Object) append(0)), fp((Object) append(0)), false),
        // §7.12 config_update.rs
        row("edits_to_the_same_key", fp(setConfig("a")), fp(setConfig("a")), true),
        row("edits_to_different_keys_commute", fp(setConfig("a")), fp(setConfig("b")), false),
        row("a_replacement_collides_with_any_edit_to_the_same_map", fp(replaceConfig("x")), fp(setConfig("a")), true),
        row("two_replacements_of_one_map", fp(replaceConfig("x")), fp(replaceConfig("y")), true),
        row("a_replacement_leaves_other_maps_alone", fp(replaceConfig("a")), fp(setTableMetadata("a")), false),
        row("dropping_a_field_collides_with_updating_its_metadata",
            fp(drop(1)), fp(fieldMetadata(c(1), "comment", "x")), true),
        row("dropping_another_field_leaves_metadata_alone",
            fp(drop(2)), fp(fieldMetadata(c(1), "comment", "x")), false),
        row("metadata_of_different_fields", fp(fieldMetadata(c(1), "comment", "x")),
            fp(fieldMetadata(c(2), "comment", "x")), false),
        row("two_writers_declaring_the_primary_key_on_different_fields",
            fp(fieldMetadata(c(1), ApplyState.PK_FLAG, "true")),
            fp(fieldMetadata(c(2), ApplyState.PK_FLAG, "true")), true),
        row("two_writers_declaring_the_clustering_key",
            fp(fieldMetadata(c(1), ApplyState.CLUSTERING_POSITION, "0")),
            fp(fieldMetadata(l(0), ApplyState.CLUSTERING_POSITION, "0")), true),
        // §7.17
        row("refreshing_the_same_fragment", fp(refresh(0L)), fp(refresh(0L, 1L)), true),
        row("refreshing_different_fragments", fp(refresh(0L)), fp(refresh(1L)), false),
        row("refreshing_a_fragment_a_concurrent_set_removes", fp(refresh(0L)), fp(remove(0)), true),
        // §7.18
        row("two_writers_recording_progress_conflict", fp(compactedSsTables(1, 3)), fp(compactedSsTables(2, 5)), true),
        row("recording_progress_conflicts_with_rebuilding_the_memwal_index",
            fp(compactedSsTables(1, 3)), fp(buildUnstated(9, MEM_WAL, List.of())), true),
        row("recording_progress_leaves_other_indices_alone",
            fp(compactedSsTables(1, 3)), fp(buildUnstated(9, BY_A, committed(0))), false),
        // §7.20
        row("two_writers_removing_the_same_segment", fp(removeSegment(1, BY_A)), fp(removeSegment(1, BY_A)), true),
        row("two_writers_removing_different_segments", fp(removeSegment(1, BY_A)), fp(removeSegment(2, BY_A)), false),
        row("removing_a_segment_leaves_a_concurrent_build_of_its_index_alone",
            fp(removeSegment(1, BY_A)), fp(build(2, BY_A, committed(0), 7)), false),
        // §7.21
        row("two_writers_adjusting_the_same_segment",
            fp(adjust(1, BY_A, committed(7), List.of())), fp(adjust(1, BY_A, committed(8), List.of())), true),
        row("adjusting_different_segments",
            fp(adjust(1, BY_A, committed(7), List.of())), fp(adjust(2, BY_A, committed(8), List.of())), false),
        row("widening_onto_a_fragment_a_concurrent_segment_covers",
            fp(adjust(1, BY_A, committed(7), List.of())), fp(build(2, BY_A, committed(0), 7)), true),
        row("widening_onto_a_fragment_a_concurrent_segment_does_not_cover",
            fp(adjust(1, BY_A, committed(8), List.of())), fp(build(2, BY_A, committed(0), 7)), false),
        row("widening_leaves_other_indices_alone",
            fp(adjust(1, BY_A, committed(7), List.of())), fp(build(2, BY_B, committed(0), 7)), false),
        row("giving_up_coverage_claims_nothing",
            fp(adjust(1, BY_A, List.of(), List.of(7L))), fp(build(2, BY_A, committed(0), 7)), false),
        // §7.19 test_two_writers_extending_one_index (8 cases) and the other claim cases
        row("disjoint_coverage_of_one_index",
            fp(build(1, BY_A, committed(0), 0)), fp(build(2, BY_A, committed(0), 1)), false),
        row("overlapping_coverage_of_one_index",
            fp(build(1, BY_A, committed(0), 0, 1)), fp(build(2, BY_A, committed(0), 1, 2)), true),
        row("different_indices",
            fp(build(1, BY_A, committed(0), 0)), fp(build(2, BY_B, committed(0), 0)), false),
        row("unstated_coverage_reaches_everywhere",
            fp(buildUnstated(1, BY_A, committed(0))), fp(build(2, BY_A, committed(0), 1)), true),
        row("two_segments_of_unstated_coverage",
            fp(buildUnstated(1, BY_A, committed(0))), fp(buildUnstated(2, BY_A, committed(0))), true),
        row("disagreeing_about_which_fields_the_index_is_over",
            fp(build(1, BY_A, committed(0), 0)), fp(build(2, BY_A, committed(1), 1)), true),
        row("disagreeing_about_the_index_config",
            fp(build(1, BY_A, committed(0), 0)),
            fp(build(uuid(2), BY_A, committed(0), Optional.of(INVERTED), 0, Optional.of(committed(1)))), true),
        row("disagreeing_about_the_index_version",
            fp(build(1, BY_A, committed(0), 0)),
            fp(build(uuid(2), BY_A, committed(0), Optional.of(BTREE), 1, Optional.of(committed(1)))), true),
        row("two_writers_indexing_what_they_each_just_wrote",
            fp(newFragment(0), build(uuid(1), BY_A, committed(0), Optional.of(BTREE), 0, Optional.of(List.of(l(0))))),
            fp(newFragment(0), build(uuid(2), BY_A, committed(0), Optional.of(BTREE), 0, Optional.of(List.of(l(0))))),
            false),
        // add_index_segment.rs (covering fields): the carried columns are part of what the index is.
        row("disagreeing_about_which_columns_the_index_carries",
            fp(buildCarrying(1, BY_A, committed(0), committed(1), 0)),
            fp(buildCarrying(2, BY_A, committed(0), committed(2), 1)), true),
        row("agreeing_about_the_carried_columns_on_disjoint_coverage",
            fp(buildCarrying(1, BY_A, committed(0), committed(1), 0)),
            fp(buildCarrying(2, BY_A, committed(0), committed(1), 1)), false),
        row("two_indices_over_one_column_and_fragment",
            fp(build(1, BY_A, committed(0), 0)), fp(build(2, BY_B, committed(0), 0)), false),
        // §7.16 add_overlays.rs
        row("two_writers_overlaying_the_same_fragment", fp(overlay(0, 0)), fp(overlay(0, 0)), false),
        row("an_overlay_and_a_rewrite_of_the_same_column", fp(overlay(0, 0)), fp(tombstone(0, 0)), true),
        row("an_overlay_and_new_data_for_the_same_column", fp(overlay(0, 0)), fp(rewrite(0, 0)), true),
        row("an_overlay_and_a_rewrite_of_another_column", fp(overlay(0, 0)), fp(tombstone(0, 1)), false),
        row("an_index_may_be_built_over_a_committed_overlay",
            fp(build(1, BY_A, committed(0), 0)), fp(overlay(0, 0)), false),
        row("a_full_write_in_the_same_set_dominates_a_partial_one",
            fp(overlay(0, 0), tombstone(0, 0)), fp(overlay(0, 0)), true),
        row("a_full_write_in_the_same_set_leaves_other_columns_alone",
            fp(overlay(0, 0), tombstone(0, 0)), fp(tombstone(0, 1)), false),
        row("overlaying_a_fragment_a_concurrent_writer_removes", fp(overlay(0, 0)), fp(remove(0)), true),
        row("overlaying_another_fragment_than_the_one_removed", fp(overlay(0, 0)), fp(remove(1)), false),
        // §7.22 assert_unique_keys.rs
        row("inserts_with_disjoint_keys", fp((Object) keyedInsert(exact(1L, 2L))),
            fp((Object) keyedInsert(exact(3L, 4L))), false),
        row("inserts_sharing_a_key", fp((Object) keyedInsert(exact(1L, 2L))),
            fp((Object) keyedInsert(exact(2L, 3L))), true),
        row("assertions_over_different_key_columns",
            fp(newFragment(0), assertKeys(committed(0), exact(1L))),
            fp(newFragment(0), assertKeys(committed(1), exact(2L))), true),
        row("an_assertion_conflicts_with_an_unqualified_insert",
            fp((Object) keyedInsert(exact(1L))), fp((Object) append(0)), true),
        row("two_plain_appends_still_do_not_conflict", fp((Object) append(0)), fp((Object) append(0)), false),
        row("an_assertion_ignores_a_concurrent_change_that_inserts_no_rows",
            fp((Object) keyedInsert(exact(1L))), fp(remove(5)), false),
        row("a_compaction_is_not_an_insert",
            fp((Object) keyedInsert(exact(1L))), fp(compactedFragment(0), remove(5)), false),
        row("an_exact_set_and_a_bloom_filter_are_assumed_to_intersect",
            fp((Object) keyedInsert(exact(1L))), fp((Object) keyedInsert(bloom(8192, 0.00057, 0x01))), true),
        row("bloom_filters_sharing_no_bit", fp((Object) keyedInsert(bloom(8192, 0.00057, 0x01, 0x00))),
            fp((Object) keyedInsert(bloom(8192, 0.00057, 0x02, 0x80))), false),
        row("bloom_filters_sharing_a_bit", fp((Object) keyedInsert(bloom(8192, 0.00057, 0x01, 0x10))),
            fp((Object) keyedInsert(bloom(8192, 0.00057, 0x02, 0x10))), true),
        row("bloom_filters_with_different_item_counts",
            fp((Object) keyedInsert(bloom(8192, 0.00057, 0x01))),
            fp((Object) keyedInsert(bloom(4096, 0.00057, 0x02))), true),
        row("bloom_filters_with_different_probabilities",
            fp((Object) keyedInsert(bloom(8192, 0.00057, 0x01))),
            fp((Object) keyedInsert(bloom(8192, 0.001, 0x02))), true),
        row("a_zero_bloom_sizing_means_the_default",
            fp((Object) keyedInsert(bloom(0, 0, 0x01))),
            fp((Object) keyedInsert(bloom(8192, 0.00057, 0x02))), false),
        // assert_unique_keys.rs @6d18f6ee: assertions are matched per key-column set, and any
        // in-place write of a key column violates an assertion (see UniqueKeyAssertionRulesTest).
        row("assertions_are_matched_by_key_column",
            fp(newFragment(0), assertKeys(committed(0), exact(1L)), assertKeys(committed(1), exact(5L))),
            fp(newFragment(0), assertKeys(committed(0), exact(2L)), assertKeys(committed(1), exact(6L))), false),
        row("an_assertion_conflicts_with_an_in_place_write_to_its_key_column",
            fp((Object) keyedInsert(exact(1L))), fp(tombstone(0, 0)), true),
        row("an_assertion_leaves_an_in_place_write_to_another_column_alone",
            fp((Object) keyedInsert(exact(1L))), fp(tombstone(0, 1)), false),
        row("an_assertion_conflicts_with_an_overlay_of_its_key_column",
            fp((Object) keyedInsert(exact(1L))), fp(overlay(0, 0)), true),
        // Conservative Local-ref comparison across transactions (see Footprint's Javadoc).
        row("key_columns_minted_by_each_transaction_are_never_the_same",
            fp(newFragment(0), assertKeys(List.of(l(0)), exact(1L))),
            fp(newFragment(0), assertKeys(List.of(l(0)), exact(2L))), true),
        row("index_fields_minted_by_each_transaction_are_never_the_same",
            fp(build(1, BY_A, List.of(l(0)), 0)), fp(build(2, BY_A, List.of(l(0)), 1)), true));
  }

  static Stream<Arguments> directional() {
    return Stream.of(
        // §7.24 test_directional_conflicts
        row("an_append_landing_after_a_cast", fp((Object) append(1)), fp(cast(1)), true),
        row("a_cast_landing_after_an_append", fp(cast(1)), fp((Object) append(1)), false),
        row("a_rewrite_landing_after_a_cast", fp(rewrite(7, 1)), fp(cast(1)), true),
        row("a_cast_landing_after_a_rewrite", fp(cast(1)), fp(rewrite(7, 1)), false),
        row("an_append_landing_after_a_drop", fp((Object) append(1)), fp(drop(1)), true),
        row("a_drop_landing_after_an_append", fp(drop(1)), fp((Object) append(1)), false),
        row("a_rewrite_landing_after_a_drop", fp(rewrite(7, 1)), fp(drop(1)), true),
        row("a_drop_landing_after_a_rewrite", fp(drop(1)), fp(rewrite(7, 1)), false),
        row("a_child_landing_after_its_parent_was_dropped", fp(addChild(0, "c", 1)), fp(drop(1)), true),
        row("a_parent_dropped_after_a_child_was_added", fp(drop(1)), fp(addChild(0, "c", 1)), false),
        // §4.6: DropField vs tombstone of the same field (Gen-C is directional)
        row("a_tombstone_landing_after_a_drop", fp(tombstone(0, 1)), fp(drop(1)), true),
        row("a_drop_landing_after_a_tombstone", fp(drop(1)), fp(tombstone(0, 1)), false),
        // §7.16 test_an_overlay_needs_its_field_defined_as_it_was
        row("an_overlay_landing_after_a_cast", fp(overlay(0, 0)), fp(cast(0)), true),
        row("an_overlay_landing_after_a_drop", fp(overlay(0, 0)), fp(drop(0)), true),
        row("a_cast_landing_after_an_overlay", fp(cast(0)), fp(overlay(0, 0)), false),
        row("a_drop_landing_after_an_overlay", fp(drop(0)), fp(overlay(0, 0)), false),
        // §7.19 builds against rewrites, casts and removals
        row("a_build_landing_after_a_rewrite_of_a_covered_field",
            fp(build(1, BY_A, committed(1), 7)), fp(tombstone(7, 1)), true),
        row("a_rewrite_landing_after_a_build", fp(tombstone(7, 1)), fp(build(1, BY_A, committed(1), 7)), false),
        row("a_build_landing_after_a_rewrite_of_a_second_indexed_field",
            fp(build(1, BY_A, committed(0, 1), 7)), fp(rewrite(7, 1)), true),
        // add_index_segment.rs test_a_build_requires_the_columns_it_carries_too
        row("a_build_landing_after_a_rewrite_of_a_carried_field",
            fp(buildCarrying(1, BY_A, committed(0), committed(1), 7)), fp(tombstone(7, 1)), true),
        row("a_rewrite_of_a_carried_field_landing_after_the_build",
            fp(tombstone(7, 1)), fp(buildCarrying(1, BY_A, committed(0), committed(1), 7)), false),
        row("a_build_landing_after_a_cast_of_a_carried_field",
            fp(buildCarrying(1, BY_A, committed(0), committed(1), 7)), fp(cast(1)), true),
        row("a_build_landing_after_a_rewrite_in_an_uncovered_fragment",
            fp(build(1, BY_A, committed(1), 7)), fp(tombstone(8, 1)), false),
        row("a_build_landing_after_a_cast", fp(build(1, BY_A, committed(1), 7)), fp(cast(1)), true),
        row("a_build_of_unstated_coverage_landing_after_a_cast",
            fp(buildUnstated(1, BY_A, committed(1))), fp(cast(1)), true),
        row("a_cast_landing_after_a_build", fp(cast(1)), fp(build(1, BY_A, committed(1), 7)), false),
        row("a_cast_landing_after_a_build_of_unstated_coverage",
            fp(cast(1)), fp(buildUnstated(1, BY_A, committed(1))), false),
        row("a_build_landing_after_removal_of_a_covered_fragment",
            fp(build(1, BY_A, committed(1), 7)), fp(remove(7)), true),
        row("a_removal_landing_after_a_build_covering_it", fp(remove(7)), fp(build(1, BY_A, committed(1), 7)), false),
        row("a_build_landing_after_removal_of_an_uncovered_fragment",
            fp(build(1, BY_A, committed(1), 7)), fp(remove(8)), false),
        row("a_removal_of_an_uncovered_fragment_after_a_build",
            fp(remove(8)), fp(build(1, BY_A, committed(1), 7)), false),
        // Metadata on a field needs its definition (2026-09-22 decision).
        row("field_metadata_landing_after_a_cast", fp(fieldMetadata(c(1), "comment", "x")), fp(cast(1)), true),
        row("a_cast_landing_after_field_metadata", fp(cast(1)), fp(fieldMetadata(c(1), "comment", "x")), false));
  }
}
