package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addChild;
import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.field;
import static dev.lancet.core.apply.ApplyFixtures.fieldIds;
import static dev.lancet.core.apply.ApplyFixtures.fieldNamed;
import static dev.lancet.core.apply.ApplyFixtures.fieldNames;
import static dev.lancet.core.apply.ApplyFixtures.file;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.manifest;
import static dev.lancet.core.apply.ApplyFixtures.sampleManifest;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AddFieldTest {

  @Test
  void test_two_add_fields_mint_distinct_ids() {
    Manifest next = apply(sampleManifest(), addField(0, "a"), addField(1, "b"));

    assertThat(fieldNames(next)).containsExactly("id", "a", "b");
    assertThat(fieldIds(next)).containsExactly(0, 1, 2);
    assertThat(next.schema().fields()).allSatisfy(f -> assertThat(f.isTopLevel()).isTrue());
  }

  @Test
  void test_add_field_then_add_its_data_file() {
    Manifest next = apply(backedManifest(),
        addField(7, "b"),
        addDataFile(committed(0), "data/b.lance", local(7)));

    assertThat(fieldNamed(next, "b").id()).isEqualTo(1);
    assertThat(fileFields(next, 0)).containsExactly(List.of(0), List.of(1));
  }

  @Test
  void test_add_field_under_a_parent() {
    Manifest next = apply(sampleManifest(),
        new AddField(0, Optional.empty(), Field.builder(0, "point", "struct").build()),
        addChild(1, local(0), "x"));

    Field point = fieldNamed(next, "point");
    Field x = fieldNamed(next, "x");
    assertThat(point.id()).isEqualTo(1);
    assertThat(point.isTopLevel()).isTrue();
    assertThat(x.id()).isEqualTo(2);
    assertThat(x.parentId()).isEqualTo(point.id());
    assertThat(next.schema().children(1)).containsExactly(x);
  }

  @Test
  void a_nested_column_is_laid_out_parent_before_children_in_pre_order() {
    // s { a { g }, b } added as four AddFields, parent first.
    Manifest next = apply(sampleManifest(),
        new AddField(0, Optional.empty(), Field.builder(0, "s", "struct").build()),
        new AddField(1, Optional.of(local(0)), Field.builder(0, "a", "struct").build()),
        addChild(2, local(1), "g"),
        addChild(3, local(0), "b"));

    assertThat(fieldNames(next)).containsExactly("id", "s", "a", "g", "b");
    assertThat(fieldIds(next)).containsExactly(0, 1, 2, 3, 4);
    assertThat(next.schema().fields()).extracting(Field::parentId)
        .containsExactly(-1, -1, 1, 2, 1);
    assertThat(next.schema().path(fieldNamed(next, "g"))).isEqualTo("s.a.g");
  }

  @Test
  void a_child_of_a_committed_struct_lands_after_its_last_descendant_not_at_the_end() {
    Manifest m = manifest(List.of(
            field(0, "id"),
            Field.builder(1, "point", "struct").build(),
            Field.builder(2, "x", "double").parentId(1).build(),
            Field.builder(3, "inner", "struct").parentId(1).build(),
            Field.builder(4, "deep", "double").parentId(3).build(),
            field(5, "name")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1, 2, 3, 4, 5)))));

    Manifest next = apply(m, addChild(0, committed(1), "y"));

    assertThat(fieldNames(next)).containsExactly("id", "point", "x", "inner", "deep", "y", "name");
    Field y = fieldNamed(next, "y");
    assertThat(y.id()).isEqualTo(6);
    assertThat(y.parentId()).isEqualTo(1);
  }

  @Test
  void the_definitions_id_and_parent_are_ignored() {
    Field def = Field.builder(42, "b", "string").parentId(17).nullable(false)
        .metadata(Map.of("comment", ByteString.copyFromUtf8("hi"))).build();

    Field added = fieldNamed(apply(sampleManifest(), AddField.topLevel(0, def)), "b");

    assertThat(added.id()).isEqualTo(1);
    assertThat(added.parentId()).isEqualTo(Field.NO_PARENT);
    assertThat(added.logicalType()).isEqualTo("string");
    assertThat(added.nullable()).isFalse();
    assertThat(added.metadata()).containsEntry("comment", ByteString.copyFromUtf8("hi"));
  }

  @Test
  void the_field_id_watermark_counts_ids_still_named_by_data_files_of_dropped_fields() {
    // Field 5 was dropped from the schema by a legacy Project, which leaves its id in the
    // surviving file; reusing 5 would make that stale column readable as the new field.
    Manifest m = manifest(List.of(field(0, "id")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 5, -2)))));

    Manifest next = apply(m, addField(0, "b"));

    assertThat(fieldNamed(next, "b").id()).isEqualTo(6);
  }

  @Test
  void the_watermark_looks_at_every_fragment() {
    Manifest m = manifest(List.of(field(0, "id")), List.of(
        Fragment.of(0, 10, List.of(file("data/0.lance", 0))),
        Fragment.of(3, 10, List.of(file("data/3.lance", 0, 9)))));

    assertThat(fieldNamed(apply(m, addField(0, "b")), "b").id()).isEqualTo(10);
  }

  @Test
  void test_add_field_rejects_a_missing_parent() {
    ApplyException e = failure(sampleManifest(), addChild(0, committed(7), "orphan"));

    assertThat(e.problem()).contains("parent field 7").contains("does not exist");
    assertThat(e.where()).contains("action 1 (AddField)");
  }

  @Test
  void an_unbound_parent_token_is_rejected() {
    ApplyException e = failure(sampleManifest(), addChild(0, local(3), "orphan"));

    assertThat(e.problem()).contains("local field token 3");
  }

  @Test
  void a_field_cannot_name_itself_as_its_parent() {
    // The id is minted before the parent resolves, so the token is bound -- to a field that
    // is not in the schema yet.
    ApplyException e = failure(sampleManifest(), addChild(0, local(0), "loop"));

    assertThat(e.problem()).contains("parent field 1").contains("does not exist");
  }

  @Test
  void test_duplicate_local_token_is_rejected() {
    ApplyException e = failure(sampleManifest(), addField(0, "a"), addField(0, "b"));

    assertThat(e.problem()).contains("local field token 0").contains("minted more than once");
    assertThat(e.where()).contains("action 2 (AddField)");
  }

  @Test
  void adding_a_field_is_not_a_data_change() {
    assertThat(addField(0, "a").isDataChange()).isFalse();
  }
}
