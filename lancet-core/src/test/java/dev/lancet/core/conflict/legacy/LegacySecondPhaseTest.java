package dev.lancet.core.conflict.legacy;

import static dev.lancet.core.conflict.legacy.LegacyTxns.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The second phase and the row-level rebase on real deletion files: a table directory in a
 * temporary folder, deletion vectors written with the Lance format, read back by the seam.
 */
class LegacySecondPhaseTest {
  @TempDir Path dir;
  LocalObjectStore store;
  StoreDeletionVectors vectors;

  @BeforeEach
  void open() {
    store = new LocalObjectStore(dir);
    vectors = new StoreDeletionVectors(store);
  }

  /** Fragment {@code id} (100 rows) with a deletion file holding {@code rows}, written to disk. */
  TableProtos.DataFragment fragmentDeleting(long id, long version, int... rows) throws IOException {
    TableProtos.DataFragment f = fragment(id);
    if (rows.length == 0) {
      return f;
    }
    return f.toBuilder().setDeletionFile(vectors.write(id, version, DeletionVector.of(rows))).build();
  }

  static Transaction delete(TableProtos.DataFragment... updated) {
    return envelope().setDelete(Transaction.Delete.newBuilder().addAllUpdatedFragments(java.util.List.of(updated))).build();
  }

  static Transaction update(TableProtos.DataFragment... updated) {
    return envelope().setUpdate(upBuilder().addAllUpdatedFragments(java.util.List.of(updated))).build();
  }

  @Test
  void disjoint_deletes_of_one_fragment_are_rebased_into_a_union_deletion_file() throws IOException {
    TableProtos.DataFragment read = fragmentDeleting(0, 1, 1);                 // v1: row 1 deleted
    Transaction ours = delete(fragmentDeleting(0, 1, 1, 5, 6));                // we delete 5, 6
    Transaction theirs = delete(fragmentDeleting(0, 1, 1, 9));                 // they deleted 9 (now v2)
    LegacyVerdict v = LegacyConflicts.check(ours, theirs);
    assertThat(v.isOk()).isTrue();
    assertThat(v.obligations()).hasSize(1);
    FragmentStates states = new FragmentStates(Map.of(0L, read),
        Map.of(0L, theirs.getDelete().getUpdatedFragments(0)), 2);

    LegacyRebase.Result r = LegacyRebase.rebase(ours, v.obligations(), states, vectors);

    assertThat(r.verdict().isOk()).as(r.verdict().reason()).isTrue();
    Transaction rebased = r.transaction().orElseThrow();
    assertThat(rebased.getUuid()).isEqualTo(ours.getUuid());
    assertThat(rebased.getReadVersion()).isEqualTo(ours.getReadVersion());
    TableProtos.DeletionFile merged = rebased.getDelete().getUpdatedFragments(0).getDeletionFile();
    assertThat(merged.getFileType()).isEqualTo(TableProtos.DeletionFile.DeletionFileType.BITMAP);
    assertThat(merged.getReadVersion()).isEqualTo(2);
    assertThat(merged.getNumDeletedRows()).isEqualTo(4);
    assertThat(Files.exists(dir.resolve("_deletions/0-2-" + Long.toUnsignedString(merged.getId()) + ".bin"))).isTrue();
    assertThat(vectors.read(0, merged)).isEqualTo(DeletionVector.of(1, 5, 6, 9));
  }

  @Test
  void intersecting_deletes_are_retryable_and_name_the_rows() throws IOException {
    TableProtos.DataFragment read = fragmentDeleting(0, 1);
    Transaction ours = delete(fragmentDeleting(0, 1, 5, 6));
    Transaction theirs = update(fragmentDeleting(0, 1, 6, 7));
    LegacyVerdict v = LegacyConflicts.check(ours, theirs);
    FragmentStates states = new FragmentStates(Map.of(0L, read),
        Map.of(0L, theirs.getUpdate().getUpdatedFragments(0)), 2);

    LegacyRebase.Result r = LegacyRebase.rebase(ours, v.obligations(), states, vectors);

    assertThat(r.verdict().kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(r.verdict().reason()).contains("rows [6]").contains("fragment 0");
    assertThat(r.transaction()).isEmpty();
  }

  @Test
  void an_update_against_a_delete_is_decided_by_the_rows_it_moved() throws IOException {
    TableProtos.DataFragment read = fragmentDeleting(0, 1, 0);
    Transaction ours = update(fragmentDeleting(0, 1, 0, 3));                   // we moved row 3
    Transaction theirs = delete(fragmentDeleting(0, 1, 0, 4));
    FragmentStates states = new FragmentStates(Map.of(0L, read),
        Map.of(0L, theirs.getDelete().getUpdatedFragments(0)), 2);
    LegacyVerdict v = LegacyConflicts.check(ours, theirs);
    assertThat(LegacySecondPhase.check(ours, v.obligations(), states, vectors).isOk()).isTrue();

    Transaction clash = delete(fragmentDeleting(0, 1, 0, 3));
    FragmentStates clashing = new FragmentStates(Map.of(0L, read),
        Map.of(0L, clash.getDelete().getUpdatedFragments(0)), 2);
    assertThat(LegacySecondPhase.check(ours, LegacyConflicts.check(ours, clash).obligations(), clashing, vectors).kind())
        .isEqualTo(LegacyVerdict.Kind.RETRYABLE);
  }

  @Test
  void a_union_that_deletes_every_row_removes_the_fragment() throws IOException {
    int[] half = new int[50];
    int[] rest = new int[50];
    for (int i = 0; i < 50; i++) {
      half[i] = i;
      rest[i] = 50 + i;
    }
    TableProtos.DataFragment read = fragment(0);
    Transaction ours = delete(fragmentDeleting(0, 1, half));
    Transaction theirs = delete(fragmentDeleting(0, 1, rest));
    FragmentStates states = new FragmentStates(Map.of(0L, read),
        Map.of(0L, theirs.getDelete().getUpdatedFragments(0)), 2);
    LegacyRebase.Result r = LegacyRebase.rebase(ours, LegacyConflicts.check(ours, theirs).obligations(), states, vectors);
    Transaction rebased = r.transaction().orElseThrow();
    assertThat(rebased.getDelete().getUpdatedFragmentsList()).isEmpty();
    assertThat(rebased.getDelete().getDeletedFragmentIdsList()).containsExactly(0L);
  }

  @Test
  void changed_data_files_or_a_removed_fragment_fail_the_rebase() throws IOException {
    TableProtos.DataFragment read = fragmentDeleting(0, 1);
    Transaction ours = delete(fragmentDeleting(0, 1, 5));
    Transaction theirs = delete(fragmentDeleting(0, 1, 9));
    var obligations = LegacyConflicts.check(ours, theirs).obligations();
    TableProtos.DataFragment rewritten = theirs.getDelete().getUpdatedFragments(0).toBuilder().addFiles(file(2)).build();
    assertThat(LegacySecondPhase.check(ours, obligations,
        new FragmentStates(Map.of(0L, read), Map.of(0L, rewritten), 2), vectors).reason()).contains("data files");
    assertThat(LegacySecondPhase.check(ours, obligations,
        new FragmentStates(Map.of(0L, read), Map.of(), 2), vectors).reason()).contains("removed");
  }

  @Test
  void an_overlay_conflicts_only_with_moved_rows_it_covers() throws IOException {
    TableProtos.DataFragment read = fragmentDeleting(3, 1);
    Transaction ours = overlay(3, 1, 10, 11);
    Transaction movedOther = update(fragmentDeleting(3, 1, 20));
    Transaction movedCovered = update(fragmentDeleting(3, 1, 11));
    LegacyVerdict v = LegacyConflicts.check(ours, movedOther);
    assertThat(v.needsSecondPhase()).isTrue();
    assertThat(LegacySecondPhase.check(ours, v.obligations(), new FragmentStates(Map.of(3L, read),
        Map.of(3L, movedOther.getUpdate().getUpdatedFragments(0)), 2), vectors).isOk()).isTrue();
    LegacyVerdict hit = LegacySecondPhase.check(ours, LegacyConflicts.check(ours, movedCovered).obligations(),
        new FragmentStates(Map.of(3L, read), Map.of(3L, movedCovered.getUpdate().getUpdatedFragments(0)), 2), vectors);
    assertThat(hit.kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(hit.reason()).contains("[11]");
  }

  @Test
  void our_moved_rows_are_checked_against_their_overlay() throws IOException {
    TableProtos.DataFragment read = fragmentDeleting(3, 1);
    Transaction theirs = overlay(3, 1, 10, 11);
    Transaction missing = update(fragmentDeleting(3, 1, 20));
    Transaction hitting = update(fragmentDeleting(3, 1, 10));
    FragmentStates states = new FragmentStates(Map.of(3L, read), Map.of(3L, read), 2);
    assertThat(LegacySecondPhase.check(missing, LegacyConflicts.check(missing, theirs).obligations(), states, vectors)
        .isOk()).isTrue();
    assertThat(LegacySecondPhase.check(hitting, LegacyConflicts.check(hitting, theirs).obligations(), states, vectors)
        .kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
  }
}
