package dev.lancet.core.conflict;

import static dev.lancet.core.conflict.Sets.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.conflict.legacy.LegacyVerdict;
import dev.lancet.format.model.Field;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The seed's §5.2 guard in V2 form: making a field non-nullable (AlterField nullable=false, or
 * AddField of a non-nullable field) conflicts, in either order, with a concurrent set that adds
 * rows or removes values without data for that field, so a rebase never produces a non-nullable
 * field with no data in some fragment. And the conflicts it must not create.
 */
class NullabilityGuardTest {

  private static AlterField requireValues(long field) {
    return new AlterField(c(field), Optional.empty(), Optional.empty(), Optional.of(false));
  }

  private static AlterField allowNulls(long field) {
    return new AlterField(c(field), Optional.empty(), Optional.empty(), Optional.of(true));
  }

  private static AddField addRequiredField(int token, String name) {
    return AddField.topLevel(token, Field.builder(0, name, "int64").nullable(false).build());
  }

  /** An AddField of a non-nullable column with its backfill into committed fragment 7. */
  private static Action[] addRequiredColumnInto7() {
    return new Action[] {addRequiredField(0, "c"), addDataFile(c(7), List.of(l(0)))};
  }

  private static void conflictsBothWays(Footprint a, Footprint b) {
    for (ConflictResult r : List.of(Conflicts.check(a, b), Conflicts.check(b, a))) {
      assertThat(r.collisions()).as(r.describe()).extracting(Collision::kind).contains(Collision.Kind.NULLABILITY);
    }
  }

  private static void noNullabilityConflictEitherWay(Footprint a, Footprint b) {
    for (ConflictResult r : List.of(Conflicts.check(a, b), Conflicts.check(b, a))) {
      assertThat(r.collisions()).as(r.describe()).extracting(Collision::kind).doesNotContain(Collision.Kind.NULLABILITY);
    }
  }

  // ---- conflicts -----------------------------------------------------------------------------

  /** Seen before the fix: no conflict either way, and the rebased append left field 1 null. */
  @Test
  void makingAFieldNonNullableConflictsWithAnAppendWithoutItsData() {
    conflictsBothWays(fp(requireValues(1)), fp((Object) append(0)));
  }

  @Test
  void addingANonNullableFieldConflictsWithAnyConcurrentAppend() {
    conflictsBothWays(fp((Object) addRequiredColumnInto7()), fp((Object) append(0, 1)));
  }

  @Test
  void makingAFieldNonNullableConflictsWithTombstoningItsData() {
    conflictsBothWays(fp(requireValues(1)), fp(tombstone(7, 1)));
  }

  @Test
  void makingAFieldNonNullableConflictsWithACompactionThatDropsItsData() {
    conflictsBothWays(fp(requireValues(1)),
        fp(compactedFragment(0), addDataFile(l(0), committed(0)), remove(3)));
  }

  @Test
  void aFieldMintedAndMadeNonNullableInOneSetCountsAsMinted() {
    conflictsBothWays(fp(addField(0, "c"), new AlterField(l(0), Optional.empty(), Optional.empty(), Optional.of(false))),
        fp((Object) append(0)));
  }

  // ---- the conflicts it must not create ------------------------------------------------------

  @Test
  void anAppendThatBacksTheFieldIsNoNullabilityConflict() {
    noNullabilityConflictEitherWay(fp(requireValues(1)), fp((Object) append(0, 1)));
    // The alter landing after such an append commutes outright (the reverse order is the
    // existing definition rule: data written for a field requires its definition).
    assertThat(Conflicts.check(fp(requireValues(1)), fp((Object) append(0, 1))).conflicts()).isFalse();
  }

  @Test
  void allowingNullsOrRenamingIsNoNullabilityConflict() {
    noNullabilityConflictEitherWay(fp(allowNulls(1)), fp((Object) append(0)));
    noNullabilityConflictEitherWay(fp(rename(1, "x")), fp((Object) append(0)));
    assertThat(Conflicts.check(fp(allowNulls(1)), fp((Object) append(0))).conflicts()).isFalse();
    assertThat(Conflicts.check(fp((Object) append(0)), fp(allowNulls(1))).conflicts()).isFalse();
  }

  @Test
  void addingANullableFieldIsNoConflictWithAnAppend() {
    Action[] nullableColumn = {addField(0, "c"), addDataFile(c(7), List.of(l(0)))};
    assertThat(Conflicts.check(fp((Object) nullableColumn), fp((Object) append(0))).conflicts()).isFalse();
    assertThat(Conflicts.check(fp((Object) append(0)), fp((Object) nullableColumn)).conflicts()).isFalse();
  }

  @Test
  void aColumnRewriteWritesNewDataAndIsNoNullabilityConflict() {
    noNullabilityConflictEitherWay(fp(requireValues(1)), fp(tombstone(7, 1), rewrite(7, 1)));
    assertThat(Conflicts.check(fp(requireValues(1)), fp(tombstone(7, 1), rewrite(7, 1))).conflicts()).isFalse();
  }

  @Test
  void deletionsRemovalsOverlaysAndOtherFieldsAreNoNullabilityConflict() {
    Footprint tighten = fp(requireValues(1));
    for (Footprint other : List.of(fp(deletion(7)), fp(remove(7)), fp(overlay(7, 1)), fp(tombstone(7, 2)),
        fp(setConfig("a")), fp(compactedFragment(0), addDataFile(l(0), committed(0, 1)), remove(3)))) {
      noNullabilityConflictEitherWay(tighten, other);
      assertThat(Conflicts.check(tighten, other).conflicts()).as(Conflicts.check(tighten, other).describe()).isFalse();
    }
    Footprint required = fp((Object) addRequiredColumnInto7());
    for (Footprint other : List.of(fp(deletion(3)), fp(setConfig("a")), fp(tombstone(7, 2)), fp(addField(0, "d")))) {
      assertThat(Conflicts.check(required, other).conflicts()).as(Conflicts.check(required, other).describe()).isFalse();
      assertThat(Conflicts.check(other, required).conflicts()).isFalse();
    }
  }

  @Test
  void twoTighteningsOfDifferentFieldsDoNotConflict() {
    assertThat(Conflicts.check(fp(requireValues(1)), fp(requireValues(2))).conflicts()).isFalse();
  }

  // ---- against legacy operations (the footprint route) ---------------------------------------

  private static Transaction composite(Action... actions) {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("step", List.of(actions))));
    return Transaction.newBuilder().setReadVersion(1).setUuid("ours")
        .setCompositeOperation(ActionCodec.encode(op)).build();
  }

  private static Transaction legacyAppend(int... fields) {
    TableProtos.DataFile.Builder file = TableProtos.DataFile.newBuilder().setPath("x.lance")
        .setFileMajorVersion(2).setFileMinorVersion(1);
    for (int i = 0; i < fields.length; i++) {
      file.addFields(fields[i]).addColumnIndices(i);
    }
    return Transaction.newBuilder().setReadVersion(1).setUuid("theirs").setAppend(Transaction.Append.newBuilder()
        .addFragments(TableProtos.DataFragment.newBuilder().setPhysicalRows(10).addFiles(file))).build();
  }

  @Test
  void aLegacyAppendWithoutTheFieldsDataConflictsInEitherOrder() {
    Transaction tighten = composite(requireValues(1));
    assertThat(LegacyConflicts.check(tighten, legacyAppend(0)).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(LegacyConflicts.check(legacyAppend(0), tighten).kind()).isEqualTo(LegacyVerdict.Kind.RETRYABLE);
    assertThat(LegacyConflicts.check(tighten, legacyAppend(0, 1)).isOk()).isTrue();
  }
}
