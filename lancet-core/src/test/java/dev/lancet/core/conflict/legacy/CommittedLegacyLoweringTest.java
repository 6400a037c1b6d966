package dev.lancet.core.conflict.legacy;

import static dev.lancet.core.conflict.legacy.LegacyTxns.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.AddField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Committed legacy operations lowered against the manifests around them
 * ({@link LegacyFootprints#ofCommitted}, {@link LegacyLowering}; issue 15 points 2 and 3).
 */
class CommittedLegacyLoweringTest {
  private static final DataFile FILE_I = new DataFile("i.lance", List.of(0), List.of(0), 2, 0, 10);
  private static final DataFile FILE_J = new DataFile("j.lance", List.of(1), List.of(0), 2, 0, 10);
  private static final DataFile FILE_K = new DataFile("k.lance", List.of(2), List.of(0), 2, 0, 10);

  private static Field field(int id, String name) {
    return Field.builder(id, name, "int64").nullable(true).build();
  }

  private static Manifest table(long version, List<Field> fields, Fragment... fragments) {
    return Manifest.builder().version(version).schema(new Schema(fields, Map.of()))
        .fragments(List.of(fragments)).maxFragmentId(OptionalLong.of(9)).build();
  }

  private static CompositeOperation op(dev.lancet.core.action.Action... actions) {
    return new CompositeOperation(List.of(new UserStep("ours", List.of(actions))));
  }

  private static Footprint footprint(Transaction t, Manifest before, Manifest landed, Optional<Manifest> read) {
    LegacyFootprints.Lowering l = LegacyFootprints.ofCommitted(t,
        new CommittedVersions(before, List.of(), landed, List.of(), read));
    assertThat(l.footprint()).as(l.whyNot()).isPresent();
    return l.footprint().get();
  }

  private static ConflictResult check(CompositeOperation ours, Footprint theirs) {
    return Footprint.of(ours).checkAgainst(theirs);
  }

  /**
   * The seed's worked example (§3): v3 is {i:0}; A = Merge{0,1} read v3, landed v4; B =
   * Merge{0,1,2} read v4, landed v5. Against their own read versions A adds field 1 and B adds
   * field 2; against the newest manifest (v5) A would "drop" field 2, which it never saw, and B
   * would add nothing: that base is refused (no faithful lowering), never guessed.
   */
  @Test
  void twoMergesInARowEachLowerAgainstTheirOwnReadVersion() {
    Manifest v3 = table(3, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)));
    Manifest v4 = table(4, List.of(field(0, "i"), field(1, "j")), Fragment.of(0, 10, List.of(FILE_I, FILE_J)));
    Manifest v5 = table(5, List.of(field(0, "i"), field(1, "j"), field(2, "k")),
        Fragment.of(0, 10, List.of(FILE_I, FILE_J, FILE_K)));

    CompositeOperation a = LegacyLowering.merge(v3, v4).operation().orElseThrow();
    CompositeOperation b = LegacyLowering.merge(v4, v5).operation().orElseThrow();
    assertThat(a.actions()).filteredOn(x -> x instanceof AddField).extracting(x -> ((AddField) x).def().name())
        .containsExactly("j");
    assertThat(b.actions()).filteredOn(x -> x instanceof AddField).extracting(x -> ((AddField) x).def().name())
        .containsExactly("k");
    // Each applied to its read version gives the manifest it landed.
    assertThat(CompositeApply.apply(v3, List.of(), a, 3).manifest().schema()).isEqualTo(v4.schema());
    assertThat(CompositeApply.apply(v3, List.of(), a, 3).manifest().fragments()).isEqualTo(v4.fragments());
    assertThat(CompositeApply.apply(v4, List.of(), b, 4).manifest().schema()).isEqualTo(v5.schema());
    assertThat(CompositeApply.apply(v4, List.of(), b, 4).manifest().fragments()).isEqualTo(v5.fragments());
    // The wrong base: A's post-image diffed against v5 would fabricate a removal of field 2.
    assertThat(LegacyLowering.merge(v5, v4).operation()).isEmpty();
    assertThat(LegacyLowering.merge(v5, v4).whyNot()).contains("drops field 2");
    assertThat(LegacyLowering.merge(v5, v5).operation().orElseThrow().actions()).isEmpty();

    // A composite adding a column named "k" collides with B, not with A.
    CompositeOperation addK = op(AddField.topLevel(0, field(0, "k")));
    assertThat(check(addK, footprint(mg(true), v3, v4, Optional.of(v3))).conflicts()).isFalse();
    ConflictResult withB = check(addK, footprint(mg(true), v4, v5, Optional.of(v4)));
    assertThat(withB.conflicts()).isTrue();
    assertThat(withB.collisions()).anyMatch(c -> c instanceof Collision.Schema);
  }

  @Test
  void aMergeOrProjectWhoseReadVersionIsGoneFailsClosedSayingWhy() {
    Manifest v3 = table(3, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)));
    Manifest v4 = table(4, List.of(field(0, "i"), field(1, "j")), Fragment.of(0, 10, List.of(FILE_I, FILE_J)));
    Transaction merge = mg(true).toBuilder().setReadVersion(3).build();
    LegacyFootprints.Lowering l = LegacyFootprints.ofCommitted(merge,
        new CommittedVersions(v3, List.of(), v4, List.of(), Optional.empty()));
    assertThat(l.footprint()).isEmpty();
    assertThat(l.whyNot()).contains("read version 3 was cleaned up");
  }

  @Test
  void aProjectLowersToDropsAndRenamesAndCollidesOnlyWithWritersOfThoseFields() {
    Manifest read = table(3, List.of(field(0, "i"), field(1, "j"), field(2, "k")),
        Fragment.of(0, 10, List.of(FILE_I, FILE_J, FILE_K)));
    Manifest landed = table(4, List.of(field(0, "i"), field(2, "kk")), Fragment.of(0, 10, List.of(FILE_I, FILE_K)));
    CompositeOperation lowered = LegacyLowering.project(read, landed).operation().orElseThrow();
    assertThat(lowered.actions()).hasSize(2).first().isEqualTo(new DropField(Ref.committed(1)));
    Manifest applied = CompositeApply.apply(read, List.of(), lowered, 3).manifest();
    assertThat(applied.schema()).isEqualTo(landed.schema());

    Footprint theirs = footprint(pj(), read, landed, Optional.of(read));
    assertThat(check(op(new SetDeletionFile(0, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 3, 1, 1)), true)),
        theirs).conflicts()).as("a delete commutes with a drop").isFalse();
    assertThat(check(op(new dev.lancet.core.action.AddDataFile(Ref.committed(0), FILE_J, List.of(Ref.committed(1)), true)),
        theirs).conflicts()).as("a rewrite of the dropped column collides").isTrue();
  }

  /**
   * A compaction removes what it rewrote and mints no data change: a composite that deletes
   * rows of a rewritten fragment collides, one that deletes rows of another fragment, appends,
   * or asserts unique keys does not.
   */
  @Test
  void aCompactionCollidesOnlyWithWritersOfTheFragmentsItRewrote() {
    Manifest before = table(5, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(1, 10, List.of(FILE_I)), Fragment.of(2, 10, List.of(FILE_I)));
    Manifest landed = table(6, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(10, 20, List.of(FILE_I)));
    Footprint theirs = footprint(rw(1, 2), before, landed, Optional.of(before));
    assertThat(theirs.insertsRows()).as("compaction is no data change").isFalse();
    DeletionFile df = new DeletionFile(DeletionFile.Kind.BITMAP, 5, 1, 1);
    ConflictResult rewritten = check(op(new SetDeletionFile(1, Optional.of(df), true)), theirs);
    assertThat(rewritten.conflicts()).isTrue();
    assertThat(rewritten.collisions()).anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == 1
        || c instanceof Collision.FragmentDeletions d && d.fragment() == 1);
    assertThat(check(op(new SetDeletionFile(0, Optional.of(df), true)), theirs).conflicts()).isFalse();
    CompositeOperation append = op(dev.lancet.core.action.AddFragment.local(0, 10),
        new dev.lancet.core.action.AddDataFile(Ref.local(0), FILE_I, List.of(Ref.committed(0)), true),
        new dev.lancet.core.action.AssertUniqueKeys(List.of(Ref.committed(0)),
            new dev.lancet.core.action.KeyExistenceFilter.Exact(List.of(1L, 2L))));
    assertThat(check(append, theirs).conflicts()).as("an append with a key assertion").isFalse();
  }

  /**
   * Point 3: a compaction whose version also dropped fragment 3 (all its rows deleted, outside
   * its groups) removes it too, so a composite naming fragment 3 collides. An Append, a Delete
   * (whose read version is restamped, seed §3 constraint 3) and the other payload kinds are
   * lowered from the transaction alone: the manifests around them are never consulted (a
   * fragment lance-core's Append dropped is found when the commit is re-applied, see
   * LanceMaintenanceInteropTest).
   */
  @Test
  void aVersionThatDroppedMoreThanItsPayloadSaysRemovesThatTooAndPayloadKindsAreNeverDiffed() {
    Manifest before = table(5, List.of(field(0, "i")), Fragment.of(1, 10, List.of(FILE_I)),
        Fragment.of(2, 10, List.of(FILE_I)), Fragment.of(3, 10, List.of(FILE_I)));
    Manifest landed = table(6, List.of(field(0, "i")), Fragment.of(10, 20, List.of(FILE_I)));
    Footprint compaction = footprint(rw(1, 2), before, landed, Optional.of(before));
    CompositeOperation addColumn = op(AddField.topLevel(0, field(0, "s")),
        new dev.lancet.core.action.AddDataFile(Ref.committed(3), FILE_J, List.of(Ref.local(0)), true));
    ConflictResult r = check(addColumn, compaction);
    assertThat(r.conflicts()).isTrue();
    assertThat(r.collisions()).anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == 3);
    assertThat(check(addColumn, LegacyFootprints.of(rw(1, 2)).orElse(Footprint.builder().build()))
        .conflicts()).as("the payload alone does not name fragment 3").isFalse();

    // A payload kind claims the step V-1 -> V too when the manifests are at hand, but its
    // recorded read version is never diffed (restamped for Delete/Update/DataOverlay): the read
    // manifest below holds fragment 4, which neither V-1 nor V has, and it is not claimed.
    Manifest staleRead = table(4, List.of(field(0, "i")), Fragment.of(4, 10, List.of(FILE_I)));
    CompositeOperation addColumnTo4 = op(AddField.topLevel(0, field(0, "s")),
        new dev.lancet.core.action.AddDataFile(Ref.committed(4), FILE_J, List.of(Ref.local(0)), true));
    for (Transaction payloadOnly : List.of(ap(), dl(1), up(1), uc("k"), rf(), ci(), mw())) {
      String kind = payloadOnly.getOperationCase().name();
      assertThat(LegacyFootprints.readsVersions(payloadOnly)).as(kind).isFalse();
      Footprint diffed = footprint(payloadOnly, before, landed, Optional.of(staleRead));
      assertThat(check(addColumn, diffed).collisions()).as(kind)
          .anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == 3);
      assertThat(check(addColumnTo4, diffed).conflicts()).as(kind + ": the read version is not a base").isFalse();
      Footprint alone = LegacyFootprints.ofCommitted(payloadOnly).footprint().orElseThrow();
      assertThat(check(addColumn, alone).conflicts()).as(kind + " from its payload alone").isFalse();
      // With nothing dropped, the manifests add nothing.
      assertThat(LegacyFootprints.ofCommitted(payloadOnly, new CommittedVersions(landed, List.of(), landed,
          List.of(), Optional.of(staleRead)))).as(kind).isEqualTo(LegacyFootprints.ofCommitted(payloadOnly));
    }
    assertThat(LegacyFootprints.ofCommitted(cl(), new CommittedVersions(before, List.of(), landed, List.of(),
        Optional.empty())).footprint()).as("a kind without a footprint stays without one").isEmpty();
    assertThat(LegacyFootprints.ofCommitted(dl(1)).footprint()).isEqualTo(LegacyFootprints.of(dl(1)));
  }

  /**
   * A compaction lowered to actions (LegacyLowering.rewrite): applied to the version before it,
   * it gives the manifest it landed, with a reserved new id (lance-core's compact() reserves it
   * first) and a minted one; it refuses what actions cannot say, with the reason.
   */
  @Test
  void aCompactionLowersToNoDataChangeActionsAndRefusesWhatActionsCannotSay() {
    DataFile compactedA = new DataFile("c9.lance", List.of(0), List.of(0), 2, 0, 10);
    DataFile compactedB = new DataFile("c10.lance", List.of(0), List.of(0), 2, 0, 10);
    Manifest before = table(5, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(1, 10, List.of(FILE_I)), Fragment.of(2, 10, List.of(FILE_I)));
    // max_fragment_id 9 in table(): id 9 was reserved, 10 is the next the apply mints.
    Manifest landed = table(6, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(9, 12, List.of(compactedA)), Fragment.of(10, 8, List.of(compactedB)));
    landed = landed.toBuilder().maxFragmentId(OptionalLong.of(10)).build();
    LegacyLowering.Result r = LegacyLowering.rewrite(rw(1, 2), before, List.of(), landed, List.of());
    CompositeOperation lowered = r.operation().orElseThrow(() -> new AssertionError(r.whyNot()));
    assertThat(lowered.actions()).noneMatch(dev.lancet.core.action.Action::isDataChange);
    Manifest applied = CompositeApply.apply(before, List.of(), lowered, 5).manifest();
    assertThat(applied.fragments()).isEqualTo(landed.fragments());
    assertThat(applied.maxFragmentId()).isEqualTo(landed.maxFragmentId());

    // A minted new fragment with a deletion file: no action reaches it by id.
    Manifest withDeletions = landed.toBuilder().fragments(List.of(Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(9, 12, List.of(compactedA)), Fragment.of(10, 8, List.of(compactedB)).toBuilder()
            .deletionFile(Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 6, 1, 1))).build())).build();
    assertThat(LegacyLowering.rewrite(rw(1, 2), before, List.of(), withDeletions, List.of()).whyNot())
        .contains("deletion file");
    // New fragments placed among the kept ones (lance-core keeps a group's position).
    Manifest reordered = landed.toBuilder().fragments(List.of(Fragment.of(9, 12, List.of(compactedA)),
        Fragment.of(0, 10, List.of(FILE_I)), Fragment.of(10, 8, List.of(compactedB)))).build();
    assertThat(LegacyLowering.rewrite(rw(1, 2), before, List.of(), reordered, List.of()).whyNot())
        .contains("orders fragments by id");
    // A kept fragment that changed, and a rewritten one that stayed.
    Manifest changed = landed.toBuilder().fragments(List.of(Fragment.of(0, 11, List.of(FILE_I)),
        Fragment.of(9, 12, List.of(compactedA)), Fragment.of(10, 8, List.of(compactedB)))).build();
    assertThat(LegacyLowering.rewrite(rw(1, 2), before, List.of(), changed, List.of()).operation()).isEmpty();
    Manifest kept = landed.toBuilder().fragments(List.of(Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(1, 10, List.of(FILE_I)), Fragment.of(9, 12, List.of(compactedA)))).build();
    assertThat(LegacyLowering.rewrite(rw(1, 2), before, List.of(), kept, List.of()).operation()).isEmpty();
    // An id neither reserved nor the next minted one.
    Manifest skipped = landed.toBuilder().fragments(List.of(Fragment.of(0, 10, List.of(FILE_I)),
        Fragment.of(11, 20, List.of(compactedA)))).build();
    assertThat(LegacyLowering.rewrite(rw(1, 2), before, List.of(), skipped, List.of()).whyNot())
        .contains("neither a reserved id");
  }

  @Test
  void configReservationsAndWholeTableReplacements() {
    Manifest m = table(5, List.of(field(0, "i")), Fragment.of(0, 10, List.of(FILE_I)));
    Footprint config = footprint(uc("k"), m, m, Optional.of(m));
    ConflictResult same = check(op(dev.lancet.core.action.ConfigUpdate.ofConfig(
        dev.lancet.core.action.UpdateMap.set("k", "v"))), config);
    assertThat(same.collisions()).anyMatch(c -> c instanceof Collision.Config);
    assertThat(check(op(dev.lancet.core.action.ConfigUpdate.ofConfig(
        dev.lancet.core.action.UpdateMap.set("other", "v"))), config).conflicts()).isFalse();

    Footprint reserve = footprint(rf(), m, m, Optional.of(m));
    assertThat(check(op(new RemoveFragment(Ref.committed(0), true)), reserve).conflicts()).isFalse();

    for (Transaction whole : List.of(rs(), ow())) {
      ConflictResult r = check(op(dev.lancet.core.action.AddFragment.local(0, 10)), footprint(whole, m, m, Optional.of(m)));
      assertThat(r.collisions()).anyMatch(c -> c instanceof Collision.WholeTable);
    }
  }
}
