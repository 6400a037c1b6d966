package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.applyWithIndices;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.covered;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.field;
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
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

class TombstoneFieldDataTest {

  private static TombstoneFieldData tombstone(Ref fragment, Ref... fields) {
    return new TombstoneFieldData(fragment, List.of(fields), true);
  }

  /** Fields 0 and 1, fragment 0 with one file holding both. */
  private static Manifest twoColumnManifest() {
    return manifest(List.of(field(0, "id"), field(1, "b")),
        List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1)))));
  }

  @Test
  void test_tombstone_field_data_drops_the_backing_file() {
    Manifest next = apply(backedManifest(), tombstone(committed(0), committed(0)));

    assertThat(fragment(next, 0).files()).isEmpty();
    // The field itself stays: only its data in this fragment is gone.
    assertThat(next.schema().field(0)).isPresent();
  }

  @Test
  void test_tombstone_field_data_keeps_a_file_with_a_live_field() {
    Manifest next = apply(twoColumnManifest(), tombstone(committed(0), committed(0)));

    assertThat(fileFields(next, 0)).containsExactly(List.of(-2, 1));
  }

  @Test
  void every_file_of_the_fragment_that_lists_the_field_is_tombstoned() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(Fragment.of(0, 10,
        List.of(file("data/a.lance", 0, 1), file("data/b.lance", 1, 0)))));

    Manifest next = apply(m, tombstone(committed(0), committed(0)));

    assertThat(fileFields(next, 0)).containsExactly(List.of(-2, 1), List.of(1, -2));
  }

  @Test
  void other_fragments_keep_their_data() {
    Manifest m = manifest(List.of(field(0, "id")), List.of(
        Fragment.of(0, 10, List.of(file("data/0.lance", 0))),
        Fragment.of(1, 10, List.of(file("data/1.lance", 0)))));

    Manifest next = apply(m, tombstone(committed(0), committed(0)));

    assertThat(fragment(next, 0).files()).isEmpty();
    assertThat(fileFields(next, 1)).containsExactly(List.of(0));
  }

  @Test
  void test_tombstone_field_data_prunes_the_fragment_from_covering_indices() {
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(
        Fragment.of(0, 10, List.of(file("data/0.lance", 0, 1))),
        Fragment.of(1, 10, List.of(file("data/1.lance", 0, 1)))));
    IndexSegment overId = index("id_idx", List.of(0), List.of(0L, 1L));
    IndexSegment overB = index("b_idx", List.of(1), List.of(0L, 1L));

    CompositeApply.Result result = applyWithIndices(m, List.of(overId, overB),
        tombstone(committed(0), committed(0)));

    assertThat(result.indices()).extracting(IndexSegment::name).containsExactly("id_idx", "b_idx");
    // Fragment 0's data for field 0 changed: the index over field 0 no longer covers it.
    assertThat(covered(result.indices().get(0))).containsExactly(1L);
    // An index over another field is untouched.
    assertThat(covered(result.indices().get(1))).containsExactly(0L, 1L);
  }

  @Test
  void a_single_scalar_segment_left_covering_nothing_is_kept_empty() {
    CompositeApply.Result result = applyWithIndices(backedManifest(), List.of(sampleIndex("idx")),
        tombstone(committed(0), committed(0)));

    assertThat(result.indices()).hasSize(1);
    assertThat(covered(result.indices().get(0))).isEmpty();
  }

  @Test
  void test_tombstone_field_data_rejects_a_field_no_file_backs() {
    ApplyException e = failure(backedManifest(), tombstone(committed(0), committed(7)));

    assertThat(e.problem()).contains("field 7").contains("fragment 0").contains("backs");
    assertThat(e.where()).contains("action 1 (TombstoneFieldData)");
  }

  @Test
  void a_missing_fragment_is_rejected() {
    ApplyException e = failure(backedManifest(), tombstone(committed(7), committed(0)));

    assertThat(e.problem()).isEqualTo("TombstoneFieldData targets fragment 7, which does not exist");
  }

  @Test
  void test_tombstone_field_data_can_name_a_field_minted_in_the_same_operation() {
    Manifest next = apply(backedManifest(),
        addField(0, "b"),
        addDataFile(committed(0), "data/b.lance", local(0)),
        new TombstoneFieldData(committed(0), List.of(local(0)), false));

    // The new file backed only the new field, so it is pruned; the original file stays.
    assertThat(filePaths(next, 0)).containsExactly("data/0.lance");
    assertThat(next.schema().field(1)).isPresent();
  }

  @Test
  void a_re_encode_replaces_the_file_and_prunes_the_index() {
    CompositeApply.Result result = applyWithIndices(backedManifest(), List.of(sampleIndex("idx")),
        new TombstoneFieldData(committed(0), List.of(committed(0)), false),
        addDataFile(committed(0), "data/0-v2.lance", committed(0)));

    assertThat(filePaths(result.manifest(), 0)).containsExactly("data/0-v2.lance");
    assertThat(fileFields(result.manifest(), 0)).containsExactly(List.of(0));
    assertThat(covered(result.indices().get(0))).isEmpty();
  }

  @Test
  void the_field_is_tombstoned_in_the_fragments_overlays() {
    DataOverlayFile overlay = new DataOverlayFile(file("ov/0.lance", 0, 1),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(3L))), 4,
        UnknownFieldSet.getDefaultInstance());
    Manifest m = manifest(List.of(field(0, "id"), field(1, "b")), List.of(Fragment.of(0, 10,
        List.of(file("data/0.lance", 0, 1))).toBuilder().overlays(List.of(overlay)).build()));

    Manifest next = apply(m, tombstone(committed(0), committed(0)));

    List<DataOverlayFile> overlays = fragment(next, 0).overlays();
    assertThat(overlays).hasSize(1);
    assertThat(overlays.get(0).dataFile().fields()).containsExactly(-2, 1);
    assertThat(overlays.get(0).committedVersion()).isEqualTo(4);
  }

  @Test
  void data_change_is_the_actions_own_flag() {
    assertThat(tombstone(committed(0), committed(0)).isDataChange()).isTrue();
    assertThat(new TombstoneFieldData(committed(0), List.of(committed(0)), false).isDataChange())
        .isFalse();
  }
}
