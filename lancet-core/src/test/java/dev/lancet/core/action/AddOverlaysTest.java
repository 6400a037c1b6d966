package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.VERSION;
import static dev.lancet.core.action.IndexApplyFixtures.apply;
import static dev.lancet.core.action.IndexApplyFixtures.applyAt;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.dataFile;
import static dev.lancet.core.action.IndexApplyFixtures.fragment;
import static dev.lancet.core.action.IndexApplyFixtures.fragmentIds;
import static dev.lancet.core.action.IndexApplyFixtures.overlay;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** AddOverlays apply behaviour (v2-semantics §3.14, §7.16). */
class AddOverlaysTest {

  private static AddOverlays addOverlays(Ref fragment, DataOverlayFile... overlays) {
    return new AddOverlays(fragment, List.of(overlays), true);
  }

  /** backedManifest with an overlay committed at version 3 already on fragment 0. */
  private static Manifest overlaidManifest() {
    Manifest m = backedManifest();
    Fragment f = fragment(m, 0).toBuilder().overlays(List.of(overlay("old.lance", 3, 0))).build();
    return m.toBuilder().fragments(List.of(f)).build();
  }

  @Test
  void overlaysAreStampedWithTheVersionTheCommitProduces() {
    Manifest next = apply(backedManifest(), addOverlays(Ref.committed(0), overlay("new.lance", 0, 0)));

    List<DataOverlayFile> overlays = fragment(next, 0).overlays();
    assertThat(overlays).hasSize(1);
    assertThat(overlays.get(0).committedVersion()).isEqualTo(VERSION + 1).isEqualTo(next.version());
    assertThat(overlays.get(0).dataFile().path()).isEqualTo("new.lance");
    assertThat(overlays.get(0).dataFile().fields()).containsExactly(0);
  }

  @Test
  void whateverVersionTheWriterWroteIsReplaced() {
    Manifest next = apply(backedManifest(), addOverlays(Ref.committed(0), overlay("new.lance", 99, 0)));

    assertThat(fragment(next, 0).overlays().get(0).committedVersion()).isEqualTo(VERSION + 1);
  }

  @Test
  void aRetryRestampsTheOverlaysWithTheVersionTheRetryProduces() {
    // The writer read version 5, lost the race twice and is now applied to version 7.
    Manifest current = backedManifest().toBuilder().version(VERSION + 2).build();

    Manifest next = applyAt(current, VERSION, List.of(),
        addOverlays(Ref.committed(0), overlay("new.lance", 0, 0))).manifest();

    assertThat(next.version()).isEqualTo(VERSION + 3);
    assertThat(fragment(next, 0).overlays().get(0).committedVersion()).isEqualTo(VERSION + 3);
  }

  @Test
  void overlaysAreAppendedToTheOnesAlreadyThere() {
    Manifest read = overlaidManifest();
    DataOverlayFile old = fragment(read, 0).overlays().get(0);

    Manifest next = apply(read, addOverlays(Ref.committed(0), overlay("new.lance", 0, 0)));

    List<DataOverlayFile> overlays = fragment(next, 0).overlays();
    assertThat(overlays).extracting(o -> o.dataFile().path()).containsExactly("old.lance", "new.lance");
    // The existing overlay keeps the version that committed it.
    assertThat(overlays.get(0)).isEqualTo(old);
    assertThat(overlays.get(0).committedVersion()).isEqualTo(3);
    assertThat(overlays.get(1).committedVersion()).isEqualTo(VERSION + 1);
  }

  @Test
  void severalOverlaysKeepTheOrderTheyWereGivenIn() {
    Manifest next = apply(backedManifest(), addOverlays(Ref.committed(0),
        overlay("first.lance", 0, 0), overlay("second.lance", 0, 0)));

    List<DataOverlayFile> overlays = fragment(next, 0).overlays();
    assertThat(overlays).extracting(o -> o.dataFile().path()).containsExactly("first.lance", "second.lance");
    assertThat(overlays).extracting(DataOverlayFile::committedVersion).containsOnly(VERSION + 1);
  }

  @Test
  void twoActionsOnOneFragmentAppendInActionOrder() {
    Manifest next = apply(overlaidManifest(),
        addOverlays(Ref.committed(0), overlay("a.lance", 0, 0)),
        addOverlays(Ref.committed(0), overlay("b.lance", 0, 0)));

    assertThat(fragment(next, 0).overlays()).extracting(o -> o.dataFile().path())
        .containsExactly("old.lance", "a.lance", "b.lance");
  }

  @Test
  void anOverlayCanTargetAFragmentThisOperationMinted() {
    Manifest next = apply(backedManifest(),
        AddFragment.local(0, 10),
        addOverlays(Ref.local(0), overlay("new.lance", 0, 0)));

    assertThat(fragmentIds(next)).containsExactly(0L, 1L);
    assertThat(fragment(next, 1).overlays()).hasSize(1);
    assertThat(fragment(next, 1).overlays().get(0).committedVersion()).isEqualTo(VERSION + 1);
    assertThat(fragment(next, 0).overlays()).isEmpty();
  }

  @Test
  void theOverlaysDataFileAndCoverageAreKeptAsGiven() {
    DataOverlayFile given = overlay("new.lance", 0, 0);

    Manifest next = apply(backedManifest(), addOverlays(Ref.committed(0), given));

    assertThat(fragment(next, 0).overlays().get(0)).isEqualTo(given.withCommittedVersion(VERSION + 1));
  }

  @Test
  void overlayingLeavesTheFragmentsFilesAndRowsAlone() {
    Manifest read = backedManifest();

    Manifest next = apply(read, addOverlays(Ref.committed(0), overlay("new.lance", 0, 0)));

    Fragment before = fragment(read, 0);
    Fragment after = fragment(next, 0);
    assertThat(after.files()).isEqualTo(before.files());
    assertThat(after.physicalRows()).isEqualTo(before.physicalRows());
    assertThat(after.deletionFile()).isEqualTo(before.deletionFile());
  }

  @Test
  void aRewriteLaterInTheOperationTombstonesTheOverlaidFieldButNotTheReverse() {
    Manifest overlayThenRewrite = apply(backedManifest(),
        addOverlays(Ref.committed(0), overlay("new.lance", 0, 0)),
        new TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(0)), false),
        new AddDataFile(Ref.committed(0), dataFile("data/0b.lance", 0),
            List.of(Ref.committed(0)), false));
    Manifest rewriteThenOverlay = apply(backedManifest(),
        new TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(0)), false),
        new AddDataFile(Ref.committed(0), dataFile("data/0b.lance", 0),
            List.of(Ref.committed(0)), false),
        addOverlays(Ref.committed(0), overlay("new.lance", 0, 0)));

    // The rewrite replaces every cell, so an overlay from before it must not shadow the new data.
    assertThat(fragment(overlayThenRewrite, 0).overlays().get(0).dataFile().fields())
        .containsExactly(DataFile.TOMBSTONED);
    assertThat(fragment(rewriteThenOverlay, 0).overlays().get(0).dataFile().fields()).containsExactly(0);
  }

  @Test
  void anEmptyOverlayListChangesNothing() {
    Manifest read = overlaidManifest();

    Manifest next = apply(read, addOverlays(Ref.committed(0)));

    assertThat(fragment(next, 0)).isEqualTo(fragment(read, 0));
  }

  @Test
  void overlayingAFragmentThatIsNotThereIsRejected() {
    ApplyException e = applyError(() -> apply(backedManifest(),
        addOverlays(Ref.committed(42), overlay("new.lance", 0, 0))));

    assertThat(e.problem()).contains("AddOverlays targets fragment 42, which does not exist");
    assertThat(e.where()).isEqualTo(where(1, "AddOverlays"));
    assertThat(e.getMessage()).startsWith(e.where()).contains(e.problem());
  }

  @Test
  void overlayingAFragmentRemovedEarlierInTheOperationIsRejected() {
    ApplyException e = applyError(() -> apply(backedManifest(),
        new RemoveFragment(Ref.committed(0), true),
        addOverlays(Ref.committed(0), overlay("new.lance", 0, 0))));

    assertThat(e.problem()).contains("AddOverlays targets fragment 0, which does not exist");
    assertThat(e.where()).isEqualTo(where(2, "AddOverlays"));
  }

  @Test
  void aTokenNoEarlierActionMintedIsRejected() {
    ApplyException e = applyError(() -> apply(backedManifest(),
        addOverlays(Ref.local(3), overlay("new.lance", 0, 0))));

    assertThat(e.problem()).contains("local fragment token 3")
        .contains("no earlier action in this operation minted");
    assertThat(e.where()).isEqualTo(where(1, "AddOverlays"));
  }

  @Test
  void dataChangeIsTheWritersFlag() {
    assertThat(new AddOverlays(Ref.committed(0), List.of(), true).isDataChange()).isTrue();
    assertThat(new AddOverlays(Ref.committed(0), List.of(), false).isDataChange()).isFalse();
  }
}
