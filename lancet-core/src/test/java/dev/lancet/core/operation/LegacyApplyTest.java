package dev.lancet.core.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** LegacyApply's rebase rules and the legacy defects it fixes (each test fails under upstream). */
class LegacyApplyTest {
  private static final Schema AB = new Schema(List.of(Field.builder(0, "a", "int64").build(),
      Field.builder(1, "b", "int64").build()), Map.of());
  private static final Schema A = new Schema(List.of(Field.builder(0, "a", "int64").build()), Map.of());
  private static final DataFile FILE_A = new DataFile("a.lance", List.of(0), List.of(0), 2, 0, 10);
  private static final DataFile FILE_B = new DataFile("b.lance", List.of(1), List.of(0), 2, 0, 10);

  private static Manifest table(long version, Schema schema, Fragment... fragments) {
    return Manifest.builder().version(version).schema(schema).fragments(List.of(fragments))
        .maxFragmentId(OptionalLong.of(9)).build();
  }

  private static Fragment frag(long id, DataFile... files) {
    return Fragment.of(id, 100, List.of(files));
  }

  private static DeletionFile deletion(long readVersion) {
    return new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, readVersion, 42, 3);
  }

  private static DataOverlayFile overlay(long version) {
    return new DataOverlayFile(new DataFile("o.lance", List.of(1), List.of(0), 2, 1, 5),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(1L))), version,
        UnknownFieldSet.getDefaultInstance());
  }

  private static ManifestHistory historyOf(Manifest... manifests) {
    return new ManifestHistory() {
      @Override
      public Manifest manifestAt(long version) {
        for (Manifest m : manifests) {
          if (m.version() == version) {
            return m;
          }
        }
        throw new IllegalArgumentException("no version " + version);
      }

      @Override
      public List<IndexSegment> indicesAt(long version) {
        return List.of();
      }
    };
  }

  @Test
  void aLegacyDeleteDoesNotDropAConcurrentOverlay() {
    Manifest read = table(3, AB, frag(0, FILE_A, FILE_B));
    // A concurrent DataOverlay landed as version 4.
    Fragment overlaid = read.fragments().get(0).toBuilder().overlays(List.of(overlay(4))).build();
    Manifest current = table(4, AB, overlaid);
    Fragment postImage = read.fragments().get(0).toBuilder().deletionFile(Optional.of(deletion(3))).build();
    Delete delete = new Delete(List.of(postImage), List.of(), "a < 3");

    Fragment result = LegacyApply.apply(current, List.of(), delete, 3, historyOf(read, current))
        .manifest().fragments().get(0);

    assertThat(result.overlays()).containsExactly(overlay(4));
    assertThat(result.deletionFile()).contains(deletion(3));
  }

  @Test
  void aLegacyDeleteDoesNotReinstallAFilePrunedByAConcurrentProject() {
    Manifest read = table(3, AB, frag(0, FILE_A, FILE_B));
    Manifest current = table(4, A, frag(0, FILE_A)); // a concurrent Project dropped b
    Fragment postImage = read.fragments().get(0).toBuilder().deletionFile(Optional.of(deletion(3))).build();

    Manifest result = LegacyApply.apply(current, List.of(),
        new Delete(List.of(postImage), List.of(), "a < 3"), 3, historyOf(read, current)).manifest();

    assertThat(result.fragments().get(0).files()).containsExactly(FILE_A);
    assertThat(result.schema()).isEqualTo(A);
  }

  @Test
  void aLegacyUpdateDoesNotRevertAConcurrentTombstone() {
    Manifest read = table(3, AB, frag(0, FILE_A, FILE_B));
    Manifest current = table(4, A, frag(0, FILE_A)); // b dropped concurrently
    DataFile rewrittenA = new DataFile("a2.lance", List.of(0), List.of(0), 2, 0, 10);
    Fragment postImage = frag(0, FILE_A.withFields(List.of(DataFile.TOMBSTONED)), FILE_B, rewrittenA);
    Update update = new Update(List.of(), List.of(postImage), List.of(), List.of(0), List.of(),
        List.of(), Update.UpdateMode.REWRITE_COLUMNS, Optional.empty(), Map.of());

    Fragment result = LegacyApply.apply(current, List.of(), update, 3, historyOf(read, current))
        .manifest().fragments().get(0);

    // The update's own change (a rewritten into a2) lands; b stays dropped.
    assertThat(result.files()).containsExactly(rewrittenA);
  }

  @Test
  void updateMemWalStateKeepsTheTablesFragments() {
    Manifest current = table(4, AB, frag(0, FILE_A, FILE_B), frag(1, FILE_A));
    Manifest result = LegacyApply.apply(current, List.of(),
        new UpdateMemWalState(List.of()), 4, ManifestHistory.none()).manifest();
    assertThat(result.fragments()).isEqualTo(current.fragments());
    assertThat(result.version()).isEqualTo(5);
  }

  @Test
  void aRebasedAppendMintsIdsFromTheNewestHighWaterMark() {
    Manifest current = table(6, A, frag(0, FILE_A), frag(12, FILE_A)).toBuilder()
        .maxFragmentId(OptionalLong.of(12)).build();
    Manifest result = LegacyApply.apply(current, List.of(),
        new Append(List.of(frag(0, FILE_A), frag(0, FILE_A))), 3, ManifestHistory.none()).manifest();
    assertThat(result.fragments()).extracting(Fragment::id).containsExactly(0L, 12L, 13L, 14L);
    assertThat(result.maxFragmentId()).hasValue(14);
  }

  @Test
  void aDataOverlayIsStampedWithTheVersionItLandsAs() {
    Manifest current = table(7, AB, frag(0, FILE_A, FILE_B));
    Fragment result = LegacyApply.apply(current, List.of(),
        new DataOverlay(List.of(new DataOverlay.Group(0, List.of(overlay(0))))), 5,
        ManifestHistory.none()).manifest().fragments().get(0);
    assertThat(result.overlays()).containsExactly(overlay(8));
  }

  @Test
  void aDataOverlayOnAMissingFragmentFailsNamingIt() {
    Manifest current = table(7, AB, frag(0, FILE_A, FILE_B));
    assertThatThrownBy(() -> LegacyApply.apply(current, List.of(),
        new DataOverlay(List.of(new DataOverlay.Group(5, List.of(overlay(0))))), 7, ManifestHistory.none()))
        .isInstanceOf(ApplyException.class).hasMessageContaining("fragment 5");
  }

  @Test
  void reserveFragmentsRaisesTheHighWaterMark() {
    Manifest current = table(2, A, frag(3, FILE_A)).toBuilder().maxFragmentId(OptionalLong.empty()).build();
    Manifest result = LegacyApply.apply(current, List.of(), new ReserveFragments(4), 2,
        ManifestHistory.none()).manifest();
    assertThat(result.maxFragmentId()).hasValue(7);
  }

  @Test
  void updateBasesAssignsIdsAndRejectsADuplicatePath() {
    Manifest current = table(2, A, frag(0, FILE_A)).toBuilder()
        .basePaths(List.of(new BasePath(3, Optional.of("x"), true, "/x"))).build();
    Manifest result = LegacyApply.apply(current, List.of(),
        new UpdateBases(List.of(new BasePath(0, Optional.of("y"), false, "/y"))), 2,
        ManifestHistory.none()).manifest();
    assertThat(result.basePaths()).extracting(BasePath::id).containsExactly(3, 4);
    assertThatThrownBy(() -> LegacyApply.apply(current, List.of(),
        new UpdateBases(List.of(new BasePath(0, Optional.of("z"), false, "/x"))), 2, ManifestHistory.none()))
        .isInstanceOf(ApplyException.class).hasMessageContaining("/x");
  }

  @Test
  void restoreNeverLowersTheHighWaterMark() {
    Manifest old = table(2, A, frag(0, FILE_A)).toBuilder().maxFragmentId(OptionalLong.of(0)).build();
    Manifest current = table(5, AB, frag(7, FILE_A, FILE_B)).toBuilder().maxFragmentId(OptionalLong.of(7)).build();
    Manifest result = LegacyApply.apply(current, List.of(), new Restore(2), 5, historyOf(old, current)).manifest();
    assertThat(result.version()).isEqualTo(6);
    assertThat(result.fragments()).isEqualTo(old.fragments());
    assertThat(result.schema()).isEqualTo(A);
    assertThat(result.maxFragmentId()).hasValue(7);
  }

  @Test
  void updateConfigAppliesMapsAndRejectsAnUnknownField() {
    Manifest current = table(2, A, frag(0, FILE_A)).toBuilder().config(Map.of("k", "1", "gone", "2")).build();
    UpdateConfig op = new UpdateConfig(Optional.of(dev.lancet.core.action.UpdateMap.merge(
        Map.of("n", "3"), List.of("gone"))), Optional.of(dev.lancet.core.action.UpdateMap.set("t", "v")),
        Optional.empty(), Map.of());
    Manifest result = LegacyApply.apply(current, List.of(), op, 2, ManifestHistory.none()).manifest();
    assertThat(result.config()).isEqualTo(Map.of("k", "1", "n", "3"));
    assertThat(result.tableMetadata()).isEqualTo(Map.of("t", "v"));
    assertThat(result.fragments()).isEqualTo(current.fragments());
    assertThatThrownBy(() -> LegacyApply.apply(current, List.of(), new UpdateConfig(Optional.empty(),
        Optional.empty(), Optional.empty(), Map.of(9, dev.lancet.core.action.UpdateMap.set("a", "b"))),
        2, ManifestHistory.none())).isInstanceOf(ApplyException.class).hasMessageContaining("field 9");
  }

  @Test
  void anOverwriteNumbersIdsLeftZeroFromZeroAndKeepsTheHighWaterMark() {
    // Fragments 0..2, high-water mark 9 (table() sets it).
    Manifest current = table(3, A, frag(0, FILE_A), frag(1, FILE_A), frag(2, FILE_A));
    Manifest result = LegacyApply.apply(current, List.of(),
        new Overwrite(List.of(frag(0, FILE_B)), AB, Map.of(), List.of()), 3,
        ManifestHistory.none()).manifest();
    assertThat(result.fragments()).extracting(Fragment::id).containsExactly(0L);
    assertThat(result.fragments().get(0).files()).containsExactly(FILE_B);
    assertThat(result.maxFragmentId()).hasValue(9);
  }

  @Test
  void anOverwriteKeepsWriterSetIdsAndSortsTheFragments() {
    Manifest current = table(3, A, frag(0, FILE_A), frag(1, FILE_A), frag(2, FILE_A));
    Overwrite op = new Overwrite(List.of(frag(17, FILE_A), frag(0, FILE_B), frag(0, FILE_A)), A,
        Map.of(), List.of());
    Manifest result = LegacyApply.apply(current, List.of(), op, 3, ManifestHistory.none()).manifest();
    assertThat(result.fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 17L);
    assertThat(result.fragments()).extracting(f -> f.files().get(0)).containsExactly(FILE_B, FILE_A, FILE_A);
    assertThat(result.maxFragmentId()).hasValue(17);
  }

  @Test
  void anOverwriteOfATableWithoutAStoredHighWaterMarkStoresTheNewMaximum() {
    Manifest current = table(3, A, frag(0, FILE_A), frag(5, FILE_A)).toBuilder()
        .maxFragmentId(OptionalLong.empty()).build();
    Manifest result = LegacyApply.apply(current, List.of(),
        new Overwrite(List.of(frag(0, FILE_A), frag(0, FILE_A)), A, Map.of(), List.of()), 3,
        ManifestHistory.none()).manifest();
    assertThat(result.fragments()).extracting(Fragment::id).containsExactly(0L, 1L);
    assertThat(result.maxFragmentId()).hasValue(1);
  }

  @Test
  void anOverwriteWhoseNumberingReachesASetIdFailsNamingTheId() {
    Manifest current = table(3, A, frag(0, FILE_A));
    Overwrite op = new Overwrite(List.of(frag(1, FILE_A), frag(0, FILE_A), frag(0, FILE_A)), A,
        Map.of(), List.of());
    assertThatThrownBy(() -> LegacyApply.apply(current, List.of(), op, 3, ManifestHistory.none()))
        .isInstanceOf(ApplyException.class).hasMessageContaining("fragment id 1");
  }

  @Test
  void anOverwriteWithStableRowIdsContinuesTheRowIdCounterInTheOrderGiven() {
    Manifest current = table(3, A, frag(0, FILE_A)).toBuilder()
        .readerFeatureFlags(FeatureFlags.STABLE_ROW_IDS).writerFeatureFlags(FeatureFlags.STABLE_ROW_IDS)
        .nextRowId(400).build();
    Overwrite op = new Overwrite(List.of(frag(7, FILE_A), frag(0, FILE_A)), A, Map.of(), List.of());
    Manifest result = LegacyApply.apply(current, List.of(), op, 3, ManifestHistory.none()).manifest();
    assertThat(result.nextRowId()).isEqualTo(600);
    assertThat(result.fragments()).extracting(Fragment::id).containsExactly(0L, 7L);
    // Row ids follow the transaction's order (7 first), not the manifest's.
    assertThat(rowIds(result.fragments().get(1))).isEqualTo(RowIdSequence.ofRange(400, 100));
    assertThat(rowIds(result.fragments().get(0))).isEqualTo(RowIdSequence.ofRange(500, 100));
  }

  private static RowIdSequence rowIds(Fragment f) {
    StoredSequence.Inline in = (StoredSequence.Inline) f.rowIds().orElseThrow();
    return RowIdSequence.decode(in.bytes().toByteArray(), "row ids");
  }

  /**
   * Bit 128 is covered index metadata now, not MemWAL catch-up (lance-format/lance#8680 removed
   * the catch-up flag and its restore guard). Seen before the fix: restoring a version without
   * the bit from one with it was refused as "requires MemWAL index catch-up".
   */
  @Test
  void restoringAVersionWithoutBit128FromOneWithItIsAllowed() {
    Manifest old = table(2, A, frag(0, FILE_A));
    Manifest current = table(5, A, frag(0, FILE_A)).toBuilder()
        .readerFeatureFlags(dev.lancet.format.model.FeatureFlags.COVERED_INDEX_METADATA)
        .writerFeatureFlags(dev.lancet.format.model.FeatureFlags.COVERED_INDEX_METADATA).build();
    Manifest result = LegacyApply.apply(current, List.of(), new Restore(2), 5, historyOf(old, current)).manifest();
    assertThat(result.version()).isEqualTo(6);
    assertThat(result.fragments()).isEqualTo(old.fragments());
  }
}
