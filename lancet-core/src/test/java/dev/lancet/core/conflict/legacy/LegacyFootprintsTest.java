package dev.lancet.core.conflict.legacy;

import static dev.lancet.core.conflict.legacy.LegacyTxns.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The footprint lowering is faithful to the legacy apply: for each lowerable operation, against
 * composites of each kind, the footprint route gives the verdict reasoned from what the legacy
 * apply does (stated per row), in both commit orders; the rest fail closed.
 */
class LegacyFootprintsTest {

  record Row(String why, Transaction legacy, Transaction composite, boolean conflicts) {}

  static final List<Row> ROWS = List.of(
      new Row("an append only mints fragments", ap(), coAppend(), false),
      new Row("a reset replaces what the append appends to", ap(), coReset(), true),
      new Row("two deletions of one fragment cannot both land without a row merge", dl(0), coSetDeletionFile(0), true),
      new Row("deletions of different fragments commute", dl(0), coSetDeletionFile(1), false),
      new Row("two new deletion files of one fragment are decided row by row", dl(0), coDeleteRows(0), false),
      new Row("an overlay and a move of the overlaid rows collide", overlay(3, 1, 0, 1), coMove(3, 1), true),
      new Row("an overlay and a move of other rows are apart", overlay(3, 1, 0, 1), coMove(3, 5), false),
      new Row("a replacement of a field and a move of rows of its fragment collide", dr(2, 1), coMove(2, 5), true),
      new Row("the Delete takes only fragment 0's deletion file, so an overlay on it survives", dl(0), coOverlay(0, 1), false),
      new Row("a Delete needs its fragment, which a composite removed", dl(0), coRemove(0), true),
      new Row("an overlay on another fragment is untouched by the Delete", dl(0), coOverlay(2, 1), false),
      new Row("a Delete and a minting composite are apart", dl(0), coAppend(), false),
      new Row("a row-moving Update post-images fragment 0 too", up(0), coSetDeletionFile(0), true),
      new Row("a row-moving Update and a minting composite are apart", up(0), coAppend(), false),
      new Row("two bases with one name", ub(0, "b1", "/b1"), coAddBase("b1", "/x"), true),
      new Row("two bases at one location", ub(0, null, "/b1"), coAddBase(null, "/b1"), true),
      new Row("unrelated bases", ub(0, "b1", "/b1"), coAddBase("b2", "/b2"), false),
      new Row("overlays stack", overlay(3, 1, 0), coOverlay(3, 1), false),
      new Row("a replaced field and an overlay of it collide", dr(2, 1), coOverlay(2, 1), true),
      new Row("a replaced field and an overlay of another field are apart", dr(2, 1), coOverlay(2, 0), false),
      new Row("an index build and an unrelated minting composite are apart", ciDefault(), coAppend(), false),
      new Row("MemWAL progress and a reset collide", mw(sst(SHARD_A, 1)), coReset(), true));

  @Test
  void the_lowering_agrees_with_the_legacy_apply_in_both_orders() {
    for (Row r : ROWS) {
      assertThat(LegacyFootprints.of(r.legacy())).as(r.why()).isPresent();
      LegacyVerdict.Kind expected = r.conflicts() ? LegacyVerdict.Kind.RETRYABLE : LegacyVerdict.Kind.OK;
      assertThat(LegacyConflicts.check(r.legacy(), r.composite()).kind()).as("legacy after composite: " + r.why())
          .isEqualTo(expected);
      assertThat(LegacyConflicts.check(r.composite(), r.legacy()).kind()).as("composite after legacy: " + r.why())
          .isEqualTo(expected);
    }
  }

  @Test
  void operations_without_a_faithful_lowering_fail_closed() {
    // Tag 2 was require_index_catchup (removed upstream, lance-format/lance#8680): now an unknown field.
    Transaction memWalCatchup = mw(sst(SHARD_A, 1)).toBuilder().setUpdateMemWalState(
        mw(sst(SHARD_A, 1)).getUpdateMemWalState().toBuilder().setUnknownFields(
            com.google.protobuf.UnknownFieldSet.newBuilder().addField(2,
                com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build())).build();
    List<Transaction> none = List.of(ow(), rw(1), mg(true), rs(), rf(), pj(), uc("a"), cl(), upColumns(0, 1),
        memWalCatchup, ub(4, "b", "/b"), dr(2, -2));
    for (Transaction t : none) {
      assertThat(LegacyFootprints.of(t)).as(t.getOperationCase().toString()).isEmpty();
      assertThat(LegacyFootprints.whyNot(t)).isNotBlank();
      assertThat(LegacyConflicts.check(t, coAppend()).kind()).as(t.getOperationCase() + " vs composite")
          .isEqualTo(LegacyVerdict.Kind.RETRYABLE);
      assertThat(LegacyConflicts.check(coAppend(), t).kind()).as("composite vs " + t.getOperationCase())
          .isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    }
  }

  @Test
  void two_row_level_deletes_leave_the_rows_to_the_second_phase_in_both_orders() {
    for (LegacyVerdict v : List.of(LegacyConflicts.check(dl(0), coDeleteRows(0)),
        LegacyConflicts.check(coDeleteRows(0), dl(0)))) {
      assertThat(v.isOk()).as(v.reason()).isTrue();
      assertThat(v.obligations()).containsExactly(new SecondPhaseObligation.IntersectDeletions(java.util.Set.of(0L)));
    }
  }

  @Test
  void cells_a_composite_read_conflict_with_a_later_legacy_change_of_them_only_when_it_commits_second() {
    // The composite read field 1 of rows 0 and 1 of fragment 3 (and wrote nothing there).
    for (Transaction change : List.of(overlay(3, 1, 1), dr(3, 1))) {
      LegacyVerdict v = LegacyConflicts.check(coReadCells(3, 1, 0, 1), change);
      assertThat(v.kind()).as(change.getOperationCase().toString()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
      assertThat(v.collisions()).extracting(dev.lancet.core.conflict.Collision::kind)
          .contains(dev.lancet.core.conflict.Collision.Kind.CELLS_CHANGED);
      // Committed first, the read held when it committed: the change lands.
      assertThat(LegacyConflicts.check(change, coReadCells(3, 1, 0, 1)).isOk()).isTrue();
    }
    // Other rows, another field: apart.
    assertThat(LegacyConflicts.check(coReadCells(3, 1, 0, 1), overlay(3, 1, 7)).isOk()).isTrue();
    assertThat(LegacyConflicts.check(coReadCells(3, 1, 0, 1), dr(3, 0)).isOk()).isTrue();
  }

  @Test
  void an_update_carries_its_key_assertion() {
    Transaction merge = up(upBuilder(0).setInsertedRows(keys(7)));
    assertThat(LegacyFootprints.of(merge).orElseThrow().keyAssertions()).hasSize(1);
    // A composite that inserts rows without a key assertion may duplicate a key: conflict.
    assertThat(LegacyConflicts.check(merge, coAppend()).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
  }
}
