package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.applyWithIndices;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.covered;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.filePaths;
import static dev.lancet.core.apply.ApplyFixtures.fragment;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.newFile;
import static dev.lancet.core.apply.ApplyFixtures.sampleIndex;
import static dev.lancet.core.apply.ApplyFixtures.sampleManifest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddDataFileTest {

  @Test
  void test_add_data_file_rejects_an_unbound_local_token() {
    ApplyException e = failure(sampleManifest(),
        addDataFile(local(3), "data/x.lance", committed(0)));

    assertThat(e.problem()).contains("local fragment token 3")
        .contains("no earlier action in this operation minted");
    assertThat(e.where()).contains("action 1 (AddDataFile)");
  }

  @Test
  void test_add_data_file_rejects_a_column_count_mismatch() {
    ApplyException e = failure(sampleManifest(), new AddDataFile(committed(0),
        newFile("data/x.lance", 2), List.of(committed(0)), true));

    assertThat(e.problem()).contains("1 field ids").contains("2 columns").contains("data/x.lance");
    assertThat(e.where()).contains("action 1 (AddDataFile)");
  }

  @Test
  void test_add_data_file_rejects_a_missing_fragment() {
    ApplyException e = failure(sampleManifest(),
        addDataFile(committed(7), "data/x.lance", committed(0)));

    assertThat(e.problem()).isEqualTo("AddDataFile targets fragment 7, which does not exist");
  }

  @Test
  void the_field_ids_are_the_authority_for_the_files_slots() {
    // The writer's own field list is a placeholder; the resolved ids replace it slot by slot.
    DataFile written = new DataFile("data/x.lance", List.of(5, 6), List.of(0, 1), 2, 1, 77);
    Manifest next = apply(sampleManifest(),
        addField(0, "b"),
        new AddDataFile(committed(0), written, List.of(local(0), committed(0)), true));

    DataFile stored = fragment(next, 0).files().get(0);
    assertThat(stored.fields()).containsExactly(1, 0);
    assertThat(stored.columnIndices()).containsExactly(0, 1);
    assertThat(stored.path()).isEqualTo("data/x.lance");
    assertThat(stored.fileMinorVersion()).isEqualTo(1);
    assertThat(stored.fileSizeBytes()).isEqualTo(77);
  }

  @Test
  void a_file_is_appended_after_the_fragments_existing_files() {
    Manifest next = apply(backedManifest(),
        addField(0, "b"),
        addDataFile(committed(0), "data/b.lance", local(0)));

    assertThat(filePaths(next, 0)).containsExactly("data/0.lance", "data/b.lance");
    assertThat(fileFields(next, 0)).containsExactly(List.of(0), List.of(1));
  }

  @Test
  void a_legacy_file_without_column_indices_is_not_counted() {
    DataFile legacy = new DataFile("data/legacy.lance", List.of(), List.of(), 0, 3, 10);

    Manifest next = apply(sampleManifest(),
        new AddDataFile(committed(0), legacy, List.of(committed(0)), true));

    assertThat(fileFields(next, 0)).containsExactly(List.of(0));
  }

  @Test
  void a_file_can_land_in_a_fragment_minted_earlier_in_the_operation() {
    Manifest next = apply(sampleManifest(),
        addFragment(0, 10),
        addField(0, "b"),
        addDataFile(local(0), "data/1.lance", committed(0), local(0)));

    assertThat(fileFields(next, 1)).containsExactly(List.of(0, 1));
  }

  @Test
  void a_field_id_beyond_i32_is_rejected() {
    ApplyException e = failure(sampleManifest(),
        addDataFile(committed(0), "data/x.lance", committed(1L << 31)));

    assertThat(e.problem()).contains("field id 2147483648").contains("out of range");
  }

  @Test
  void adding_a_file_does_not_prune_index_coverage() {
    // Re-encoding is TombstoneFieldData + AddDataFile; the add alone rebinds nothing.
    CompositeApply.Result result = applyWithIndices(backedManifest(), List.of(sampleIndex("idx")),
        addDataFile(committed(0), "data/again.lance", committed(0)));

    assertThat(result.indices()).hasSize(1);
    assertThat(covered(result.indices().get(0))).containsExactly(0L);
  }

  @Test
  void data_change_is_the_actions_own_flag() {
    assertThat(addDataFile(committed(0), "x", committed(0)).isDataChange()).isTrue();
    assertThat(new AddDataFile(committed(0), newFile("x", 1), List.of(committed(0)), false)
        .isDataChange()).isFalse();
  }
}
