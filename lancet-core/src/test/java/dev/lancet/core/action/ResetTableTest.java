package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addField;
import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.applyWithIndices;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.fieldIds;
import static dev.lancet.core.apply.ApplyFixtures.fieldNames;
import static dev.lancet.core.apply.ApplyFixtures.fileFields;
import static dev.lancet.core.apply.ApplyFixtures.fragmentIds;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.sampleIndex;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ResetTableTest {

  private static final BasePath ARCHIVE = new BasePath(1, Optional.of("archive"), false, "/archive");

  /** backed_manifest with config, table metadata, schema metadata and a base path. */
  private static Manifest decorated() {
    Manifest m = backedManifest();
    return m.toBuilder()
        .schema(new Schema(m.schema().fields(), Map.of("owner", ByteString.copyFromUtf8("me"))))
        .config(Map.of("lance.auto_cleanup.interval", "20"))
        .tableMetadata(Map.of("team", "data"))
        .basePaths(List.of(ARCHIVE))
        .build();
  }

  @Test
  void test_reset_empties_the_table() {
    CompositeApply.Result result = applyWithIndices(backedManifest(),
        List.of(sampleIndex("idx")), new ResetTable());

    assertThat(result.manifest().fragments()).isEmpty();
    assertThat(result.manifest().schema().fields()).isEmpty();
    assertThat(result.indices()).isEmpty();
  }

  @Test
  void test_reset_preserves_config_and_base_paths() {
    Manifest next = apply(decorated(), new ResetTable());

    assertThat(next.config()).containsExactlyInAnyOrderEntriesOf(
        Map.of("lance.auto_cleanup.interval", "20"));
    assertThat(next.tableMetadata()).containsExactlyInAnyOrderEntriesOf(Map.of("team", "data"));
    assertThat(next.basePaths()).containsExactly(ARCHIVE);
    // Schema metadata belongs to the schema, which is gone.
    assertThat(next.schema().metadata()).isEmpty();
  }

  @Test
  void test_reset_then_rebuild_in_one_operation() {
    Manifest next = apply(backedManifest(),
        new ResetTable(),
        addField(0, "fresh"),
        addFragment(0, 5),
        addDataFile(local(0), "data/fresh.lance", local(0)));

    // Ids continue past the old ones: nothing of the old table can be mistaken for the new.
    assertThat(fieldNames(next)).containsExactly("fresh");
    assertThat(fieldIds(next)).containsExactly(1);
    assertThat(fragmentIds(next)).containsExactly(1L);
    assertThat(fileFields(next, 1)).containsExactly(List.of(1));
    assertThat(next.fragments().get(0).physicalRows()).isEqualTo(5);
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(1));
  }

  @Test
  void what_came_before_the_reset_in_the_same_operation_is_discarded_too() {
    Manifest next = apply(backedManifest(),
        addField(0, "early"),
        addFragment(0, 5),
        new ResetTable(),
        addField(1, "late"));

    assertThat(fieldNames(next)).containsExactly("late");
    assertThat(fieldIds(next)).containsExactly(2);
    assertThat(next.fragments()).isEmpty();
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(1));
  }

  @Test
  void a_fragment_id_spent_before_the_reset_is_not_handed_out_again() {
    Manifest reset = apply(backedManifest(), new ResetTable());

    assertThat(reset.maxFragmentId()).isEqualTo(OptionalLong.of(0));
    assertThat(fragmentIds(apply(reset, addFragment(0, 1)))).containsExactly(1L);
  }

  @Test
  void a_token_minted_before_the_reset_points_at_something_discarded() {
    // Token bindings survive the reset (as upstream), so a later action using the token
    // fails on the missing fragment rather than silently landing elsewhere.
    ApplyException e = failure(backedManifest(),
        addFragment(0, 5), new ResetTable(), addDataFile(local(0), "x.lance", committed(0)));

    assertThat(e.problem()).isEqualTo("AddDataFile targets fragment 1, which does not exist");
    assertThat(e.where()).contains("action 3 (AddDataFile)");
  }

  @Test
  void a_base_minted_before_the_reset_survives_it() {
    Manifest next = apply(decorated(),
        new AddBase(0, new BasePath(0, Optional.of("new"), false, "/new")), new ResetTable());

    assertThat(next.basePaths()).containsExactly(ARCHIVE,
        new BasePath(2, Optional.of("new"), false, "/new"));
  }

  @Test
  void resetting_is_a_data_change() {
    assertThat(new ResetTable().isDataChange()).isTrue();
  }
}
