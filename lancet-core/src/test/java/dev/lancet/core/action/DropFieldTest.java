package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.applyWithIndices;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.field;
import static dev.lancet.core.apply.ApplyFixtures.fieldIds;
import static dev.lancet.core.apply.ApplyFixtures.fieldNamed;
import static dev.lancet.core.apply.ApplyFixtures.fieldNames;
import static dev.lancet.core.apply.ApplyFixtures.file;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.filePaths;
import static dev.lancet.core.apply.ApplyFixtures.fragment;
import static dev.lancet.core.apply.ApplyFixtures.index;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.manifest;
import static dev.lancet.core.apply.ApplyFixtures.sampleIndex;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DropField reproduces legacy Project (decision record section 1): the subtree leaves the
 * schema, a data file left with no field of the schema is pruned in every fragment present,
 * a surviving file keeps the dropped ids in its slots (they are the field-id watermark that
 * stops the ids from ever being reused), overlays are left alone, and every index over a
 * dropped field is discarded.
 */
class DropFieldTest {

  private static DropField drop(Ref field) {
    return new DropField(field);
  }

  /** id 0, s 1 { a 2 { g 3 }, b 4 }, t 5; one file holding every leaf and struct. */
  private static Manifest nestedManifest() {
    return manifest(List.of(
            field(0, "id"),
            Field.builder(1, "s", "struct").build(),
            Field.builder(2, "a", "struct").parentId(1).build(),
            Field.builder(3, "g", "int32").parentId(2).build(),
            Field.builder(4, "b", "int32").parentId(1).build(),
            field(5, "t")),
        List.of(Fragment.of(0, 10, List.of(
            file("data/id.lance", 0),
            file("data/s.lance", 1, 2, 3, 4),
            file("data/t.lance", 5)))));
  }

  @Test
  void test_drop_field_removes_it_and_its_data() {
    CompositeApply.Result result = applyWithIndices(backedManifest(),
        List.of(sampleIndex("idx")), drop(committed(0)));

    assertThat(result.manifest().schema().field(0)).isEmpty();
    assertThat(result.manifest().schema().fields()).isEmpty();
    // The only file backed only the dropped field: nothing is left of it.
    assertThat(fragment(result.manifest(), 0).files()).isEmpty();
    // An index over a field that no longer exists is discarded outright.
    assertThat(result.indices()).isEmpty();
  }

  @Test
  void test_drop_field_keeps_a_file_with_a_surviving_field() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "keep")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1)))));

    Manifest next = apply(m, drop(committed(0)));

    assertThat(fieldIds(next)).containsExactly(1);
    // As legacy Project: the dropped id stays in its slot (upstream's draft writes -2 here).
    assertThat(fileFields(next, 0)).containsExactly(List.of(0, 1));
  }

  @Test
  void a_dropped_id_left_in_a_surviving_file_is_never_reused_by_a_later_commit() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "gone")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1)))));

    Manifest dropped = apply(m, drop(committed(1)));
    Manifest next = apply(dropped, addField(0, "fresh"));

    assertThat(fileFields(dropped, 0)).containsExactly(List.of(0, 1));
    // The schema's highest id is 0, but the file still names 1.
    assertThat(fieldNamed(next, "fresh").id()).isEqualTo(2);
  }

  @Test
  void a_file_left_holding_only_dropped_ids_is_pruned_at_assembly() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(Fragment.of(0, 10,
        List.of(file("data/0.lance", 0, 1), file("data/1.lance", 1)))));

    // After the drop, data/0.lance survives on field 1; the re-encode then takes field 1 out
    // of it, leaving only the dropped id 0 -- no field of the schema -- so it goes, as does
    // data/1.lance, now all tombstones.
    Manifest next = apply(m, drop(committed(0)),
        new TombstoneFieldData(committed(0), List.of(committed(1)), false),
        addDataFile(committed(0), "data/1-v2.lance", committed(1)));

    assertThat(filePaths(next, 0)).containsExactly("data/1-v2.lance");
    assertThat(fileFields(next, 0)).containsExactly(List.of(1));
  }

  @Test
  void test_drop_field_takes_the_whole_subtree() {
    Manifest next = apply(nestedManifest(), drop(committed(1)));

    assertThat(fieldNames(next)).containsExactly("id", "t");
    // The struct's file backed nothing that survives; the others are untouched.
    assertThat(filePaths(next, 0)).containsExactly("data/id.lance", "data/t.lance");
  }

  @Test
  void dropping_a_nested_struct_takes_its_children_and_leaves_its_siblings() {
    Manifest next = apply(nestedManifest(), drop(committed(2)));

    assertThat(fieldNames(next)).containsExactly("id", "s", "b", "t");
    assertThat(fieldIds(next)).containsExactly(0, 1, 4, 5);
    // s.b survives in the struct's file, so the file stays, dropped slots and all.
    assertThat(fileFields(next, 0)).containsExactly(List.of(0), List.of(1, 2, 3, 4), List.of(5));
  }

  @Test
  void every_fragment_present_is_pruned_including_one_minted_earlier_in_the_operation() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(
        Fragment.of(0, 10, List.of(file("data/0-id.lance", 0), file("data/0-b.lance", 1))),
        Fragment.of(1, 10, List.of(file("data/1.lance", 0, 1)))));

    Manifest next = apply(m,
        addFragment(0, 10),
        addDataFile(local(0), "data/2-b.lance", committed(1)),
        addDataFile(local(0), "data/2-id.lance", committed(0)),
        drop(committed(1)));

    assertThat(filePaths(next, 0)).containsExactly("data/0-id.lance");
    assertThat(fileFields(next, 1)).containsExactly(List.of(0, 1));
    assertThat(filePaths(next, 2)).containsExactly("data/2-id.lance");
  }

  @Test
  void overlays_are_left_alone() {
    DataOverlayFile overlay = new DataOverlayFile(file("ov/0.lance", 0, 1),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(2L))), 4,
        UnknownFieldSet.getDefaultInstance());
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(Fragment.of(0, 10,
        List.of(file("data/0.lance", 0, 1))).toBuilder().overlays(List.of(overlay)).build()));

    Manifest next = apply(m, drop(committed(1)));

    assertThat(fragment(next, 0).overlays()).containsExactly(overlay);
  }

  @Test
  void only_indices_over_a_dropped_field_are_discarded() {
    Manifest m = nestedManifest();
    List<IndexSegment> indices = List.of(
        index("id_idx", List.of(0), List.of(0L)),
        index("g_idx", List.of(3), List.of(0L)),
        index("b_idx", List.of(4), List.of(0L)),
        index("id_g_idx", List.of(0, 3), List.of(0L)));

    CompositeApply.Result result = applyWithIndices(m, indices, drop(committed(2)));

    assertThat(result.indices()).extracting(IndexSegment::name).containsExactly("id_idx", "b_idx");
  }

  @Test
  void test_drop_field_rejects_a_missing_field() {
    ApplyException e = failure(backedManifest(), drop(committed(7)));

    assertThat(e.problem()).isEqualTo("DropField names field 7, which does not exist");
    assertThat(e.where()).contains("action 1 (DropField)");
  }

  @Test
  void a_field_cannot_be_dropped_twice() {
    ApplyException e = failure(backedManifest(), drop(committed(0)), drop(committed(0)));

    assertThat(e.problem()).contains("field 0").contains("does not exist");
    assertThat(e.where()).contains("action 2 (DropField)");
  }

  @Test
  void a_child_of_a_dropped_struct_is_gone_too() {
    ApplyException e = failure(nestedManifest(), drop(committed(1)), drop(committed(4)));

    assertThat(e.problem()).contains("field 4").contains("does not exist");
  }

  @Test
  void test_drop_field_then_add_a_field_reuses_no_id() {
    Manifest next = apply(backedManifest(), drop(committed(0)), addField(0, "replacement"));

    assertThat(fieldIds(next)).containsExactly(1);
  }

  @Test
  void test_drop_field_rejects_a_field_id_out_of_range() {
    ApplyException e = failure(backedManifest(), drop(committed(0x1_0000_0000L)));

    assertThat(e.problem()).contains("out of range");
  }

  @Test
  void test_drop_field_can_name_a_field_minted_in_the_same_operation() {
    Manifest next = apply(backedManifest(), addField(0, "transient"), drop(local(0)));

    assertThat(fieldNames(next)).containsExactly("id");
    assertThat(fileFields(next, 0)).containsExactly(List.of(0));
  }

  @Test
  void dropping_a_field_is_a_data_change() {
    // Every value the field held disappears from the table (as upstream's newest draft).
    assertThat(drop(committed(0)).isDataChange()).isTrue();
  }
}
