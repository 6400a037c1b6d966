package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.field;
import static dev.lancet.core.apply.ApplyFixtures.fieldNamed;
import static dev.lancet.core.apply.ApplyFixtures.file;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.manifest;
import static dev.lancet.core.apply.ApplyFixtures.op;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigUpdateTest {

  static final String PK = "lance-schema:unenforced-primary-key";
  static final String PK_POSITION = "lance-schema:unenforced-primary-key:position";
  static final String CK_POSITION = "lance-schema:unenforced-clustering-key:position";

  /** A merge: pairs of key and value, a null value deleting the key. */
  private static UpdateMap merge(String... keyValues) {
    List<UpdateMap.Entry> entries = new ArrayList<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      entries.add(new UpdateMap.Entry(keyValues[i], Optional.ofNullable(keyValues[i + 1])));
    }
    return new UpdateMap(entries, false);
  }

  private static UpdateMap replace(String... keyValues) {
    return new UpdateMap(merge(keyValues).entries(), true);
  }

  private static ConfigUpdate fieldMetadata(Ref field, UpdateMap updates) {
    return new ConfigUpdate(Optional.empty(), Optional.empty(), Optional.empty(),
        List.of(new ConfigUpdate.FieldMetadataUpdate(field, updates)));
  }

  private static ConfigUpdate fieldMetadata(ConfigUpdate.FieldMetadataUpdate... updates) {
    return new ConfigUpdate(Optional.empty(), Optional.empty(), Optional.empty(),
        Arrays.asList(updates));
  }

  private static ConfigUpdate.FieldMetadataUpdate on(long field, String... keyValues) {
    return new ConfigUpdate.FieldMetadataUpdate(committed(field), merge(keyValues));
  }

  private static ByteString utf8(String s) {
    return ByteString.copyFromUtf8(s);
  }

  /** Fields 0 (id), 1 (b), 2 (c), fragment 0 backing all three. */
  private static Manifest threeFields() {
    return manifest(List.of(field(0, "id"), field(1, "b"), field(2, "c")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1, 2)))));
  }

  @Test
  void test_config_update_merges_and_deletes() {
    Manifest m = backedManifest().toBuilder().config(Map.of("keep", "yes", "drop", "yes")).build();

    Manifest next = apply(m, ConfigUpdate.ofConfig(merge("drop", null, "added", "1")));

    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(Map.of("keep", "yes", "added", "1"));
  }

  @Test
  void entries_of_a_merge_apply_in_order() {
    Manifest next = apply(backedManifest(),
        ConfigUpdate.ofConfig(merge("k", "1", "k", null, "j", "1", "j", "2")));

    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(Map.of("j", "2"));
  }

  @Test
  void test_config_update_replaces_a_whole_map() {
    Manifest m = backedManifest().toBuilder().tableMetadata(Map.of("old", "yes")).build();

    Manifest next = apply(m, new ConfigUpdate(Optional.empty(), Optional.of(replace("new", "1")),
        Optional.empty(), List.of()));

    assertThat(next.tableMetadata()).containsExactlyInAnyOrderEntriesOf(Map.of("new", "1"));
  }

  @Test
  void a_replacement_ignores_entries_without_a_value() {
    Manifest m = backedManifest().toBuilder().config(Map.of("old", "yes", "gone", "x")).build();

    Manifest next = apply(m, ConfigUpdate.ofConfig(replace("a", "1", "gone", null)));

    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1"));
  }

  @Test
  void an_absent_map_is_left_alone() {
    Manifest m = backedManifest().toBuilder().config(Map.of("c", "1"))
        .tableMetadata(Map.of("t", "1")).build();

    Manifest next = apply(m, new ConfigUpdate(Optional.empty(), Optional.of(merge("u", "2")),
        Optional.empty(), List.of()));

    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(Map.of("c", "1"));
    assertThat(next.tableMetadata()).containsExactlyInAnyOrderEntriesOf(Map.of("t", "1", "u", "2"));
  }

  @Test
  void test_config_update_edits_schema_and_field_metadata() {
    Manifest next = apply(backedManifest(), new ConfigUpdate(Optional.empty(), Optional.empty(),
        Optional.of(merge("schema", "yes")),
        List.of(new ConfigUpdate.FieldMetadataUpdate(committed(0), merge("comment", "the id")))));

    assertThat(next.schema().metadata()).containsExactlyInAnyOrderEntriesOf(
        Map.of("schema", utf8("yes")));
    assertThat(next.schema().field(0).orElseThrow().metadata())
        .containsExactlyInAnyOrderEntriesOf(Map.of("comment", utf8("the id")));
  }

  @Test
  void field_metadata_can_be_replaced_and_deleted() {
    Field withMeta = Field.builder(1, "b", "int32")
        .metadata(Map.of("x", utf8("1"), "y", utf8("2"))).build();
    Manifest m = manifest(List.of(field(0, "id"), withMeta, Field.builder(2, "c", "int32")
            .metadata(Map.of("z", utf8("3"))).build()),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1, 2)))));

    Manifest next = apply(m, fieldMetadata(
        new ConfigUpdate.FieldMetadataUpdate(committed(1), replace("w", "9")),
        on(2, "z", null)));

    assertThat(next.schema().field(1).orElseThrow().metadata())
        .containsExactlyInAnyOrderEntriesOf(Map.of("w", utf8("9")));
    assertThat(next.schema().field(2).orElseThrow().metadata()).isEmpty();
    // Only the metadata changed.
    assertThat(next.schema().field(1).orElseThrow().toBuilder().metadata(Map.of()).build())
        .isEqualTo(withMeta.toBuilder().metadata(Map.of()).build());
  }

  @Test
  void test_config_update_can_name_a_field_minted_in_the_same_operation() {
    Manifest next = apply(backedManifest(),
        addField(0, "fresh"),
        fieldMetadata(local(0), merge("comment", "brand new")));

    assertThat(fieldNamed(next, "fresh").metadata())
        .containsExactlyInAnyOrderEntriesOf(Map.of("comment", utf8("brand new")));
  }

  @Test
  void test_config_update_rejects_a_missing_field() {
    ApplyException e = failure(backedManifest(), fieldMetadata(committed(7), merge("c", "x")));

    assertThat(e.problem()).isEqualTo("ConfigUpdate names field 7, which does not exist");
    assertThat(e.where()).contains("action 1 (ConfigUpdate)");
  }

  // ---- the reserved keys ---------------------------------------------------------------------

  @Test
  void test_config_update_sets_then_refuses_to_change_the_primary_key() {
    ConfigUpdate setKey = fieldMetadata(on(0, PK, "true"));

    Manifest next = apply(backedManifest(), setKey);

    Field id = next.schema().field(0).orElseThrow();
    assertThat(id.metadata()).containsEntry(PK, utf8("true"));
    // The cached key marker (what Lance reads from the manifest) follows the metadata.
    assertThat(id.unenforcedPrimaryKey()).isTrue();
    assertThat(id.unenforcedPrimaryKeyPosition()).isZero();

    ApplyException e = failure(next, setKey);
    assertThat(e.problem()).contains("unenforced primary key")
        .contains("cannot be changed once set");
    assertThat(e.where()).contains("action 1 (ConfigUpdate)");
  }

  @Test
  void the_primary_key_cannot_move_to_another_field_or_be_removed() {
    Manifest keyed = apply(threeFields(), fieldMetadata(on(0, PK, "true")));

    assertThat(failure(keyed, fieldMetadata(on(1, PK, "true"))).problem())
        .contains("cannot be changed once set");
    assertThat(failure(keyed, fieldMetadata(on(0, PK, null))).problem())
        .contains("cannot be changed once set");
    assertThat(failure(keyed, fieldMetadata(
        new ConfigUpdate.FieldMetadataUpdate(committed(0), replace("comment", "x")))).problem())
        .contains("cannot be changed once set");
  }

  @Test
  void a_key_set_earlier_in_the_same_operation_is_already_set() {
    ApplyException e = failure(threeFields(),
        fieldMetadata(on(0, PK, "true")), fieldMetadata(on(1, PK, "true")));

    assertThat(e.problem()).contains("cannot be changed once set");
    assertThat(e.where()).contains("action 2 (ConfigUpdate)");
  }

  @Test
  void other_metadata_of_a_key_field_stays_editable() {
    Manifest keyed = apply(threeFields(), fieldMetadata(on(0, PK, "true")));

    Manifest next = apply(keyed, fieldMetadata(on(0, "comment", "still the key")));

    Field id = next.schema().field(0).orElseThrow();
    assertThat(id.metadata()).containsEntry("comment", utf8("still the key"))
        .containsEntry(PK, utf8("true"));
    assertThat(id.unenforcedPrimaryKey()).isTrue();
  }

  @Test
  void a_key_declared_by_the_stored_field_marker_counts_as_set() {
    // Lance records the key in the field's proto marker (fields 12/13) as well as in its
    // metadata; a manifest carrying only the marker still has a primary key.
    Manifest m = manifest(List.of(
            Field.builder(0, "id", "int64").unenforcedPrimaryKey(true)
                .unenforcedPrimaryKeyPosition(1).build(),
            field(1, "b")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1)))));

    ApplyException e = failure(m, fieldMetadata(on(1, PK, "true")));

    assertThat(e.problem()).contains("cannot be changed once set");
  }

  @Test
  void a_composite_primary_key_takes_its_order_from_the_positions() {
    Manifest next = apply(threeFields(),
        fieldMetadata(on(0, PK_POSITION, "2"), on(2, PK_POSITION, "1")));

    Field id = next.schema().field(0).orElseThrow();
    Field c = next.schema().field(2).orElseThrow();
    assertThat(id.unenforcedPrimaryKey()).isTrue();
    assertThat(id.unenforcedPrimaryKeyPosition()).isEqualTo(2);
    assertThat(c.unenforcedPrimaryKey()).isTrue();
    assertThat(c.unenforcedPrimaryKeyPosition()).isEqualTo(1);
    assertThat(next.schema().field(1).orElseThrow().unenforcedPrimaryKey()).isFalse();

    // Swapping the positions changes the key.
    assertThat(failure(next, fieldMetadata(on(0, PK_POSITION, "1"), on(2, PK_POSITION, "2")))
        .problem()).contains("cannot be changed once set");
  }

  @Test
  void the_flag_is_case_insensitive() {
    for (String truthy : List.of("TRUE", "Yes", "1")) {
      Manifest next = apply(threeFields(), fieldMetadata(on(1, PK, truthy)));
      assertThat(next.schema().field(1).orElseThrow().unenforcedPrimaryKey())
          .as("flag value %s", truthy).isTrue();
    }
  }

  @Test
  void test_config_update_rejects_an_invalid_primary_key() {
    ApplyException e = failure(backedManifest(),
        fieldMetadata(on(0, PK_POSITION, "not a number")));

    assertThat(e.problem()).contains("unenforced primary key")
        .contains("cannot be set to an invalid value");
    assertThat(e.where()).contains("action 1 (ConfigUpdate)");
  }

  @Test
  void a_flag_that_is_not_a_marker_is_invalid() {
    assertThat(failure(backedManifest(), fieldMetadata(on(0, PK, "false"))).problem())
        .contains("cannot be set to an invalid value");
    assertThat(failure(backedManifest(), fieldMetadata(on(0, PK_POSITION, "-1"))).problem())
        .contains("cannot be set to an invalid value");
  }

  @Test
  void an_unparseable_position_falls_back_to_the_flag() {
    Manifest next = apply(backedManifest(), fieldMetadata(on(0, PK, "true", PK_POSITION, "x")));

    assertThat(next.schema().field(0).orElseThrow().unenforcedPrimaryKey()).isTrue();
    assertThat(next.schema().field(0).orElseThrow().unenforcedPrimaryKeyPosition()).isZero();
  }

  @Test
  void the_clustering_key_is_reserved_too() {
    Manifest clustered = apply(threeFields(), fieldMetadata(on(1, CK_POSITION, "1")));
    Field b = clustered.schema().field(1).orElseThrow();
    assertThat(b.unenforcedClusteringKey()).isTrue();
    assertThat(b.unenforcedClusteringKeyPosition()).isEqualTo(1);

    assertThat(failure(clustered, fieldMetadata(on(2, CK_POSITION, "2"))).problem())
        .contains("unenforced clustering key").contains("cannot be changed once set");
    assertThat(failure(threeFields(), fieldMetadata(on(1, CK_POSITION, "first"))).problem())
        .contains("unenforced clustering key").contains("cannot be set to an invalid value");
  }

  @Test
  void the_key_check_reruns_when_an_operation_is_rebased() {
    // Both writers read a table without a key; the other one committed first.
    Manifest read = threeFields();
    Manifest theirs = apply(read, fieldMetadata(on(1, PK, "true")));
    CompositeOperation ours = op(fieldMetadata(on(0, PK, "true")));

    ApplyException e = catchThrowableOfType(ApplyException.class,
        () -> CompositeApply.apply(theirs, List.of(), ours, read.version()));

    assertThat(e).isNotNull();
    assertThat(e.problem()).contains("cannot be changed once set");
  }

  @Test
  void a_rejected_key_change_applies_none_of_the_action() {
    Manifest keyed = apply(threeFields(), fieldMetadata(on(0, PK, "true")));

    ApplyException e = failure(keyed, new ConfigUpdate(Optional.of(merge("c", "1")),
        Optional.empty(), Optional.empty(), List.of(on(1, PK, "true"))));

    assertThat(e.problem()).contains("cannot be changed once set");
    assertThat(keyed.config()).isEmpty();
  }

  @Test
  void a_config_update_is_not_a_data_change() {
    assertThat(ConfigUpdate.ofConfig(merge("a", "1")).isDataChange()).isFalse();
  }
}
