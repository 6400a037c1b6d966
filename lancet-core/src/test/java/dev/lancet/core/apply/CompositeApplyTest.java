package dev.lancet.core.apply;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.field;
import static dev.lancet.core.apply.ApplyFixtures.fieldIds;
import static dev.lancet.core.apply.ApplyFixtures.file;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.filePaths;
import static dev.lancet.core.apply.ApplyFixtures.fragmentIds;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.manifest;
import static dev.lancet.core.apply.ApplyFixtures.newFile;
import static dev.lancet.core.apply.ApplyFixtures.op;
import static dev.lancet.core.apply.ApplyFixtures.sampleIndex;
import static dev.lancet.core.apply.ApplyFixtures.sampleManifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.ManifestSamples;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class CompositeApplyTest {

  private static List<Action> relocatable() {
    return List.of(
        addField(0, "b"),
        addFragment(0, 10),
        addDataFile(local(0), "data/new.lance", local(0)));
  }

  private static Manifest applyList(Manifest m, List<Action> actions) {
    return apply(m, actions.toArray(new Action[0]));
  }

  // ---- relocation --------------------------------------------------------------------------

  @Test
  void test_an_action_set_relocates_onto_a_newer_version() {
    Manifest first = applyList(backedManifest(), relocatable());
    assertThat(fieldIds(first)).containsExactly(0, 1);
    assertThat(fragmentIds(first)).containsExactly(0L, 1L);
    assertThat(fileFields(first, 1)).containsExactly(List.of(1));

    // The same actions replayed on the newer manifest (a rebase) re-mint every token.
    Manifest second = applyList(first, relocatable());
    assertThat(fieldIds(second)).containsExactly(0, 1, 2);
    assertThat(fragmentIds(second)).containsExactly(0L, 1L, 2L);
    assertThat(fileFields(second, 2)).containsExactly(List.of(2));
    assertThat(second.version()).isEqualTo(first.version() + 1);
  }

  @Test
  void a_rebase_onto_a_manifest_that_gained_a_concurrent_fragment_moves_past_it() {
    CompositeOperation ours = new CompositeOperation(List.of(new UserStep("append", relocatable())));
    Manifest read = backedManifest();
    // A concurrent writer committed fragment 1 (and field 1) first.
    Manifest newer = applyList(read, relocatable());

    Manifest rebased = CompositeApply.apply(newer, List.of(), ours, read.version()).manifest();

    assertThat(fragmentIds(rebased)).containsExactly(0L, 1L, 2L);
    assertThat(fileFields(rebased, 1)).containsExactly(List.of(1));
    assertThat(fileFields(rebased, 2)).containsExactly(List.of(2));
    assertThat(rebased.version()).isEqualTo(newer.version() + 1);
  }

  @Test
  void test_action_set_cannot_create_a_dataset() {
    ApplyException e = catchThrowableOfType(ApplyException.class,
        () -> CompositeApply.apply(null, List.of(), op(addFragment(0, 1)), 0));

    assertThat(e).isNotNull();
    assertThat(e.problem()).contains("cannot create one");
  }

  // ---- steps -------------------------------------------------------------------------------

  @Test
  void test_iter_actions_flattens_steps_in_order() {
    Action a = addField(0, "a");
    Action b = addField(1, "b");
    Action c = addFragment(0, 1);
    CompositeOperation op = new CompositeOperation(List.of(
        new UserStep("one", List.of(a, b)), new UserStep("two", List.of(c))));

    assertThat(op.actions()).containsExactly(a, b, c);
  }

  @Test
  void tokens_are_per_operation_not_per_step_and_empty_steps_are_legal() {
    CompositeOperation op = new CompositeOperation(List.of(
        new UserStep("add column b", List.of(addField(0, "b"))),
        new UserStep("nothing", List.of()),
        new UserStep("append", List.of(addFragment(0, 3),
            addDataFile(local(0), "data/1.lance", committed(0), local(0))))));

    Manifest next = CompositeApply.apply(backedManifest(), List.of(), op, 5).manifest();

    assertThat(fileFields(next, 1)).containsExactly(List.of(0, 1));
  }

  @Test
  void actions_apply_in_order_so_the_later_of_two_edits_wins() {
    Manifest next = apply(backedManifest(),
        AlterField.rename(committed(0), "first"), AlterField.rename(committed(0), "second"));

    assertThat(next.schema().field(0).orElseThrow().name()).isEqualTo("second");
  }

  // ---- tokens ------------------------------------------------------------------------------

  @Test
  void local_tokens_are_per_id_space() {
    // Field token 0 and fragment token 0 are unrelated and both resolve.
    Manifest next = apply(sampleManifest(), addField(0, "b"), addFragment(0, 1),
        addDataFile(local(0), "data/1.lance", local(0)));

    assertThat(fileFields(next, 1)).containsExactly(List.of(1));
  }

  @Test
  void a_field_token_is_not_a_fragment_token() {
    ApplyException e = failure(backedManifest(), addField(0, "b"),
        addDataFile(local(0), "data/x.lance", committed(0)));

    assertThat(e.problem()).contains("local fragment token 0")
        .contains("no earlier action in this operation minted");
    assertThat(e.where()).isEqualTo("step 1 ('step'), action 2 (AddDataFile)");
  }

  @Test
  void a_fragment_token_is_not_a_field_token() {
    ApplyException e = failure(backedManifest(), addFragment(0, 1),
        new TombstoneFieldData(committed(0), List.of(local(0)), true));

    assertThat(e.problem()).contains("local field token 0");
    assertThat(e.where()).contains("action 2 (TombstoneFieldData)");
  }

  @Test
  void a_token_must_be_minted_by_an_earlier_action() {
    ApplyException e = failure(backedManifest(),
        addDataFile(committed(0), "data/x.lance", local(0)), addField(0, "b"));

    assertThat(e.problem()).contains("local field token 0");
    assertThat(e.where()).contains("action 1 (AddDataFile)");
  }

  @Test
  void a_token_is_minted_once_per_id_space_across_steps() {
    CompositeOperation op = new CompositeOperation(List.of(
        new UserStep("a", List.of(addFragment(2, 1))),
        new UserStep("b", List.of(addFragment(2, 1)))));

    ApplyException e = catchThrowableOfType(ApplyException.class,
        () -> CompositeApply.apply(sampleManifest(), List.of(), op, 5));

    assertThat(e.problem()).contains("local fragment token 2").contains("minted more than once");
    assertThat(e.where()).isEqualTo("step 2 ('b'), action 1 (AddFragment)");
  }

  // ---- atomicity ---------------------------------------------------------------------------

  @Test
  void a_failing_action_leaves_the_input_untouched_and_names_where_it_failed() {
    Manifest m = backedManifest();
    List<IndexSegment> indices = new ArrayList<>(List.of(sampleIndex("idx")));
    List<IndexSegment> indicesBefore = List.copyOf(indices);
    CompositeOperation op = new CompositeOperation(List.of(
        new UserStep("rename", List.of(AlterField.rename(committed(0), "key"),
            new DropField(committed(0)))),
        new UserStep("add column b", List.of(addField(0, "b"),
            addDataFile(committed(9), "data/b.lance", local(0))))));

    ApplyException e = catchThrowableOfType(ApplyException.class,
        () -> CompositeApply.apply(m, indices, op, m.version()));

    assertThat(e).isNotNull();
    assertThat(e.where()).isEqualTo("step 2 ('add column b'), action 2 (AddDataFile)");
    assertThat(e.problem()).isEqualTo("AddDataFile targets fragment 9, which does not exist");
    assertThat(e.getMessage()).isEqualTo(e.where() + ": " + e.problem());
    // Nothing of the operation is applied anywhere.
    assertThat(m).isEqualTo(backedManifest());
    assertThat(indices).isEqualTo(indicesBefore);
  }

  @Test
  void an_empty_operation_carries_the_table_forward_unchanged() {
    Manifest m = ManifestSamples.manifest(7, 5);
    List<IndexSegment> indices = ManifestSamples.indices();

    CompositeApply.Result result = CompositeApply.apply(m, indices,
        new CompositeOperation(List.of()), 7);

    Manifest next = result.manifest();
    assertThat(next.version()).isEqualTo(8);
    assertThat(next.schema()).isEqualTo(m.schema());
    assertThat(next.fragments()).isEqualTo(m.fragments());
    assertThat(next.config()).isEqualTo(m.config());
    assertThat(next.tableMetadata()).isEqualTo(m.tableMetadata());
    assertThat(next.basePaths()).isEqualTo(m.basePaths());
    assertThat(next.maxFragmentId()).isEqualTo(m.maxFragmentId());
    assertThat(next.nextRowId()).isEqualTo(m.nextRowId());
    assertThat(next.dataFormat()).isEqualTo(m.dataFormat());
    assertThat(next.readerFeatureFlags()).isEqualTo(m.readerFeatureFlags());
    // Per-version parts are not carried over: the commit stamps its own.
    assertThat(next.tag()).isEmpty();
    assertThat(next.transactionFile()).isEmpty();
    assertThat(next.timestamp()).isEmpty();
    assertThat(result.indices()).isEqualTo(indices);
  }

  // ---- high-water marks --------------------------------------------------------------------

  @Test
  void the_fragment_high_water_mark_follows_mints_and_reservations() {
    Manifest m = backedManifest().toBuilder().maxFragmentId(OptionalLong.of(5)).build();

    Manifest next = apply(m, addFragment(0, 1), new ReserveFragmentIds(2), addFragment(1, 1),
        new RemoveFragment(local(1), true));

    // 6 minted, 7-8 reserved, 9 minted then removed: the mark still covers 9.
    assertThat(fragmentIds(next)).containsExactly(0L, 6L);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(9));
    assertThat(fragmentIds(apply(next, addFragment(0, 1)))).containsExactly(0L, 6L, 10L);
  }

  @Test
  void minting_past_the_largest_fragment_id_is_rejected() {
    Manifest m = backedManifest().toBuilder().maxFragmentId(OptionalLong.of(0xFFFF_FFFFL)).build();

    ApplyException e = failure(m, addFragment(0, 1));

    assertThat(e.problem()).contains("4294967296").contains("4294967295");
    assertThat(e.where()).contains("action 1 (AddFragment)");
  }

  // ---- normalization -----------------------------------------------------------------------

  @Test
  void data_files_left_with_no_live_field_are_pruned_at_assembly() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(
        Fragment.of(0, 10, List.of(file("data/a.lance", 0, 1), file("data/b.lance", 1))),
        Fragment.of(1, 10, List.of(file("data/c.lance", -2, 1), file("data/d.lance", -2)))));

    Manifest next = apply(m, new TombstoneFieldData(committed(0), List.of(committed(1)), true));

    assertThat(filePaths(next, 0)).containsExactly("data/a.lance");
    assertThat(fileFields(next, 0)).containsExactly(List.of(0, -2));
    // Every fragment is normalized, including ones the operation did not touch.
    assertThat(filePaths(next, 1)).containsExactly("data/c.lance");
  }

  @Test
  void a_data_file_with_an_empty_field_list_is_refused_not_pruned() {
    // Issue 10: pruning it silently left a fragment with rows and no data that lance-core cannot scan.
    DataFile noColumns = new DataFile("data/empty.lance", List.of(), List.of(), 2, 0, 1);

    ApplyException e = failure(backedManifest(),
        new AddDataFile(committed(0), noColumns, List.of(), true));

    assertThat(e.where()).contains("action 1 (AddDataFile)");
    assertThat(e.problem()).contains("'data/empty.lance' names no field ids");
  }

  @Test
  void fragments_come_out_sorted_by_id() {
    Manifest reserved = apply(backedManifest(), new ReserveFragmentIds(3));
    Manifest next = apply(reserved, addFragment(0, 1), ApplyFixtures.addFragmentAt(2, 1),
        ApplyFixtures.addFragmentAt(1, 1));

    assertThat(fragmentIds(next)).containsExactly(0L, 1L, 2L, 4L);
  }

  // ---- the vocabulary ----------------------------------------------------------------------

  @Test
  void test_ref_accessors() {
    assertThat(Ref.committed(7).committedId()).isEqualTo(OptionalLong.of(7));
    assertThat(Ref.committed(7).localToken()).isEmpty();
    assertThat(Ref.local(2).localToken()).hasValue(2);
    assertThat(Ref.local(2).committedId()).isEmpty();
    assertThat(Ref.local(0)).isEqualTo(Ref.local(0)).isNotEqualTo(Ref.committed(0));
  }

  @Test
  void test_data_change_defaults_by_action_kind() {
    assertThat(AlterField.rename(committed(0), "x").isDataChange()).isFalse();
    assertThat(new RemoveFragment(committed(0), true).isDataChange()).isTrue();
    assertThat(ConfigUpdate.ofConfig(UpdateMap.set("a", "b")).isDataChange()).isFalse();
  }

  @Test
  void an_action_name_is_its_vocabulary_name() {
    assertThat(addFragment(0, 1).actionName()).isEqualTo("AddFragment");
    assertThat(new AddDataFile(committed(0), newFile("x", 1), List.of(committed(0)), true)
        .actionName()).isEqualTo("AddDataFile");
    assertThat(new DropField(committed(0)).actionName()).isEqualTo("DropField");
  }

  @Test
  void optional_parts_are_never_null() {
    assertThat(catchThrowableOfType(NullPointerException.class,
        () -> new AlterField(committed(0), null, Optional.empty(), Optional.empty()))).isNotNull();
  }
}
