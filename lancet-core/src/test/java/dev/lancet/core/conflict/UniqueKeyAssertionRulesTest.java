package dev.lancet.core.conflict;

import static dev.lancet.core.conflict.Sets.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.conflict.legacy.LegacyVerdict;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The unique-key rule of upstream's {@code rust/lance-table/src/transaction/action/footprint.rs}
 * ({@code key_assertion_violated_by}) and the cases of
 * {@code rust/lance-table/src/transaction/action/assert_unique_keys.rs}, both at lance-format/lance
 * 6d18f6ee1838d5b2114f3a9ed53d429e06f652e2 (the newest stored version of each), replayed on
 * Lancet's footprints. The apply cases of that file are in {@code AssertUniqueKeysTest}.
 *
 * <p>The rule: an assertion is violated by any write into one of its key columns (a column
 * rewrite, an overlay), whoever lands first; and by inserted rows unless the inserting side
 * asserts over the same key-column set with a provably disjoint filter. Assertions are matched
 * per key-column set: each speaks for every row its set inserts.
 */
class UniqueKeyAssertionRulesTest {

  private static Action[] append() {
    return new Action[] {newFragment(0), addDataFile(l(0), committed(0, 1))};
  }

  private static Action assertion(long keyField, Long... hashes) {
    return assertKeys(committed(keyField), exact(hashes));
  }

  private static void conflictsBothWays(Footprint a, Footprint b) {
    assertThat(Conflicts.check(a, b).conflicts()).as(Conflicts.check(a, b).describe()).isTrue();
    assertThat(Conflicts.check(b, a).conflicts()).as(Conflicts.check(b, a).describe()).isTrue();
  }

  private static void commuteBothWays(Footprint a, Footprint b) {
    assertThat(Conflicts.check(a, b).collisions()).isEmpty();
    assertThat(Conflicts.check(b, a).collisions()).isEmpty();
  }

  // ---- upstream's cases --------------------------------------------------------------------

  @Test
  void insertsWithDisjointKeysDoNotConflict() {
    commuteBothWays(fp(append(), assertion(0, 1L, 2L)), fp(append(), assertion(0, 3L, 4L)));
  }

  @Test
  void insertsSharingAKeyConflict() {
    conflictsBothWays(fp(append(), assertion(0, 1L, 2L)), fp(append(), assertion(0, 2L, 3L)));
  }

  @Test
  void assertionsOverDifferentKeyColumnsConflict() {
    // Two filters over different columns hash different values; neither speaks for the other.
    conflictsBothWays(fp(append(), assertion(0, 1L)), fp(append(), assertion(1, 2L)));
  }

  /** upstream test_assertions_are_matched_by_key_column. */
  @Test
  void assertionsAreMatchedByKeyColumnSet() {
    Footprint ours = fp(append(), assertion(0, 1L), assertion(1, 5L));
    Footprint disjoint = fp(append(), assertion(0, 2L), assertion(1, 6L));
    Footprint overlappingOnTheSecond = fp(append(), assertion(0, 2L), assertion(1, 5L));
    Footprint silentOnTheSecond = fp(append(), assertion(0, 2L));

    commuteBothWays(ours, disjoint);
    conflictsBothWays(ours, overlappingOnTheSecond);
    // An insert that says nothing about one of our key columns could have put anything in it.
    assertThat(Conflicts.check(ours, silentOnTheSecond).conflicts()).isTrue();
    assertThat(Conflicts.check(ours, silentOnTheSecond).collisions())
        .extracting(Collision::kind).containsExactly(Collision.Kind.KEY_ASSERTION);
  }

  /** upstream test_an_assertion_conflicts_with_an_in_place_write_to_its_key_column. */
  @Test
  void anAssertionConflictsWithAnInPlaceTombstoneOfItsKeyColumn() {
    Footprint ours = fp(append(), assertion(0, 1L));
    conflictsBothWays(ours, fp(tombstone(0, 0)));
    commuteBothWays(ours, fp(tombstone(0, 1)));
  }

  @Test
  void anAssertionConflictsWithAnUnqualifiedInsert() {
    conflictsBothWays(fp(append(), assertion(0, 1L)), fp((Object) append()));
  }

  @Test
  void twoPlainAppendsStillDoNotConflict() {
    commuteBothWays(fp((Object) append()), fp((Object) append()));
  }

  @Test
  void anAssertionIgnoresAConcurrentChangeThatInsertsNoRows() {
    commuteBothWays(fp(append(), assertion(0, 1L)), fp(remove(3)));
  }

  @Test
  void aCompactionIsNotAnInsert() {
    commuteBothWays(fp(append(), assertion(0, 1L)),
        fp(compactedFragment(0), addDataFile(l(0), committed(0, 1)), remove(3)));
  }

  // ---- every in-place write of a key column -------------------------------------------------

  @Test
  void aColumnRewriteOfTheKeyColumnConflictsInEitherOrder() {
    Footprint ours = fp(append(), assertion(0, 1L));
    // TombstoneFieldData + AddDataFile: the column is replaced with values nobody checked.
    conflictsBothWays(ours, fp(tombstone(7, 0), rewrite(7, 0)));
    // An AddDataFile alone into a committed fragment is a rewrite of the column too.
    conflictsBothWays(ours, fp(rewrite(7, 0)));
    // Rewriting another column leaves the keys alone.
    commuteBothWays(ours, fp(tombstone(7, 1), rewrite(7, 1)));
  }

  @Test
  void anOverlayOnTheKeyColumnConflictsInEitherOrder() {
    Footprint ours = fp(append(), assertion(0, 1L));
    conflictsBothWays(ours, fp(overlay(7, 0)));
    commuteBothWays(ours, fp(overlay(7, 1)));
  }

  @Test
  void anInPlaceWriteOfOneOfSeveralKeyColumnsConflicts() {
    Footprint composite = fp(append(), assertKeys(committed(0, 1), exact(9L)));
    conflictsBothWays(composite, fp(overlay(3, 1)));
    commuteBothWays(composite, fp(overlay(3, 2)));
  }

  @Test
  void anAssertionOverAColumnItMintsIsNotWrittenByAnyoneElse() {
    // A concurrent writer cannot name a column this transaction mints, so its in-place writes
    // of committed columns never touch it; its inserts still do (they may carry any value).
    Footprint minted = fp(addField(5, "k"), newFragment(0), addDataFile(l(0), List.of(l(5))),
        assertKeys(List.of(l(5)), exact(1L)));
    commuteBothWays(minted, fp(overlay(7, 0), tombstone(7, 0)));
  }

  @Test
  void theCollisionNamesTheKeyColumnAndTheWrite() {
    ConflictResult r = Conflicts.check(fp(append(), assertion(0, 1L)), fp(overlay(7, 0)));
    assertThat(r.collisions()).extracting(Collision::kind).containsExactly(Collision.Kind.KEY_ASSERTION);
    assertThat(r.describe()).contains("field 0").contains("fragment 7");
  }

  // ---- legacy equivalents, through the footprint route -------------------------------------

  private static Transaction composite(Action... actions) {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("step", List.of(actions))));
    return Transaction.newBuilder().setReadVersion(1).setUuid("ours")
        .setCompositeOperation(dev.lancet.core.action.ActionCodec.encode(op)).build();
  }

  private static LegacyVerdict againstLegacy(Transaction ours, Transaction theirs) {
    return LegacyConflicts.check(ours, theirs);
  }

  private static TableProtos.DataFile legacyFile(int... fields) {
    TableProtos.DataFile.Builder b = TableProtos.DataFile.newBuilder().setPath("x.lance")
        .setFileMajorVersion(2).setFileMinorVersion(1);
    for (int i = 0; i < fields.length; i++) {
      b.addFields(fields[i]).addColumnIndices(i);
    }
    return b.build();
  }

  @Test
  void aLegacyDataReplacementOfTheKeyColumnConflictsInEitherOrder() {
    Transaction keyed = composite(newFragment(0), addDataFile(l(0), committed(0, 1)), assertion(0, 1L));
    Transaction replaceKey = Transaction.newBuilder().setReadVersion(1).setUuid("theirs")
        .setDataReplacement(Transaction.DataReplacement.newBuilder().addReplacements(
            Transaction.DataReplacementGroup.newBuilder().setFragmentId(7).setNewFile(legacyFile(0)))).build();
    Transaction replaceOther = replaceKey.toBuilder().setDataReplacement(Transaction.DataReplacement.newBuilder()
        .addReplacements(Transaction.DataReplacementGroup.newBuilder().setFragmentId(7).setNewFile(legacyFile(1))))
        .build();
    assertThat(againstLegacy(keyed, replaceKey).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(againstLegacy(replaceKey, keyed).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(againstLegacy(keyed, replaceOther).isOk()).isTrue();
    assertThat(againstLegacy(replaceOther, keyed).isOk()).isTrue();
  }

  @Test
  void aLegacyDataOverlayOnTheKeyColumnConflictsInEitherOrder() {
    Transaction keyed = composite(newFragment(0), addDataFile(l(0), committed(0, 1)), assertion(0, 1L));
    Transaction overlayKey = Transaction.newBuilder().setReadVersion(1).setUuid("theirs")
        .setDataOverlay(Transaction.DataOverlay.newBuilder().addGroups(Transaction.DataOverlayGroup.newBuilder()
            .setFragmentId(7).addOverlays(TableProtos.DataOverlayFile.newBuilder().setDataFile(legacyFile(0))
                .setSharedOffsetBitmap(dev.lancet.format.model.IndexSegment.fragmentBitmapOf(List.of(1L))))))
        .build();
    assertThat(againstLegacy(keyed, overlayKey).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(againstLegacy(overlayKey, keyed).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
  }

  @Test
  void aLegacyColumnRewritingUpdateOrMergeFailsClosed() {
    // Neither has a faithful lowering, so the pair is a retryable conflict whatever it touches.
    Transaction keyed = composite(newFragment(0), addDataFile(l(0), committed(0, 1)), assertion(0, 1L));
    Transaction rewriteColumns = Transaction.newBuilder().setReadVersion(1).setUuid("theirs")
        .setUpdate(Transaction.Update.newBuilder().setUpdateMode(Transaction.UpdateMode.REWRITE_COLUMNS)
            .addFieldsModified(0)).build();
    Transaction merge = Transaction.newBuilder().setReadVersion(1).setUuid("theirs")
        .setMerge(Transaction.Merge.getDefaultInstance()).build();
    assertThat(againstLegacy(keyed, rewriteColumns).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(againstLegacy(keyed, merge).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
  }
}
