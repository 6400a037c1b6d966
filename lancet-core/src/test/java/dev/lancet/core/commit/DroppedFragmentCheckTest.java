package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.Versions;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 point 3 (docs/decisions/0022, "payload kinds diffed in memory"): lance-core's Append
 * also drops fragments whose rows are all deleted. When the version before the Append is in
 * memory (the version a first attempt applied onto, or the previous winner), a composite that
 * names a dropped fragment collides at the check, as a typed removal of that fragment charged to
 * the Append, before any rebase; when it is not, the rebase finds the fragment gone (rule 5).
 */
class DroppedFragmentCheckTest {
  private static final Schema SCHEMA = new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of());

  @TempDir Path dir;
  LocalObjectStore store;

  private static Fragment fragment(long id) {
    return Fragment.of(id, 10, List.of(new DataFile("data/" + id + ".lance", List.of(0), List.of(0), 2, 1, 100)));
  }

  private void write(long version, long maxFragmentId, Fragment... fragments) throws Exception {
    Manifest m = Manifest.builder().version(version).schema(SCHEMA).fragments(List.of(fragments))
        .maxFragmentId(OptionalLong.of(maxFragmentId)).build();
    store.putIfAbsent(ManifestNaming.V2.path(version), ManifestFile.write(m, List.of(), Optional.empty()));
  }

  private Snapshot version(long v) throws Exception {
    return Snapshot.load(store, Versions.find(store, v).orElseThrow());
  }

  @BeforeEach
  void table() throws Exception {
    store = new LocalObjectStore(dir);
    write(1, 1, fragment(0), fragment(1));
    // Version 2, as lance-core's Append wrote it: fragment 2 appended, fragment 0 (every row
    // deleted) dropped although the Append's payload names only fragment 2.
    write(2, 2, fragment(1), fragment(2));
  }

  /** lance-core's Append at version 2 that read version 1: its payload is fragment 2 only. */
  private static Transaction append() {
    return Transaction.newBuilder().setReadVersion(1).setUuid("lance-append")
        .setAppend(Transaction.Append.newBuilder().addFragments(FragmentCodec.toProto(fragment(2)))).build();
  }

  /** A column addition planned on version 1: a new field and a data file for each of fragments 0 and 1. */
  private CompositeCommit addColumn() {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("add column s", List.of(
        AddField.topLevel(0, Field.builder(0, "s", "int64").nullable(true).build()),
        new AddDataFile(Ref.committed(0), new DataFile("s0.lance", List.of(-1), List.of(0), 2, 1, 10),
            List.of(Ref.local(0)), true),
        new AddDataFile(Ref.committed(1), new DataFile("s1.lance", List.of(-1), List.of(0), 2, 1, 10),
            List.of(Ref.local(0)), true)))));
    Transaction txn = Transaction.newBuilder().setReadVersion(1).setUuid("ours")
        .setCompositeOperation(ActionCodec.encode(op)).build();
    return new CompositeCommit(store, op, txn);
  }

  @Test
  void aCompositeNamingAFragmentTheAppendDroppedCollidesAtTheCheckWhenTheVersionBeforeIsInMemory()
      throws Exception {
    CompositeCommit ours = addColumn();
    // The first attempt applied onto version 1 (then lost the race to version 2).
    ours.applyTo(version(1));

    assertThatThrownBy(() -> ours.checkAgainst(version(2), append()))
        .isInstanceOfSatisfying(ConflictingCommitException.class, e -> {
          assertThat(e.version()).isEqualTo(2);
          assertThat(e.winnerOperation()).isEqualTo("Append");
          assertThat(e.conflicts()).anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == 0);
          assertThat(e.conflicts()).noneMatch(c -> c instanceof Collision.FailClosed);
          assertThat(e.getMessage()).contains("version 2 (Append)");
        });
  }

  @Test
  void aCompositeNamingOnlyKeptFragmentsPassesTheCheck() throws Exception {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("add column s to fragment 1", List.of(
        AddField.topLevel(0, Field.builder(0, "s", "int64").nullable(true).build()),
        new AddDataFile(Ref.committed(1), new DataFile("s1.lance", List.of(-1), List.of(0), 2, 1, 10),
            List.of(Ref.local(0)), true)))));
    CompositeCommit ours = new CompositeCommit(store, op, Transaction.newBuilder().setReadVersion(1)
        .setUuid("ours").setCompositeOperation(ActionCodec.encode(op)).build());
    ours.applyTo(version(1));
    PendingCommit checked = ours.checkAgainst(version(2), append());
    assertThat(checked.applyTo(version(2)).manifest().fragments()).extracting(Fragment::id).containsExactly(1L, 2L);
  }

  /** Without the version before in memory, no request is made for it: the rebase is the backstop. */
  @Test
  void withoutTheVersionBeforeInMemoryTheRebaseFindsTheFragmentGone() throws Exception {
    CompositeCommit ours = addColumn();
    PendingCommit checked = ours.checkAgainst(version(2), append());
    assertThatThrownBy(() -> checked.applyTo(version(2)))
        .isInstanceOfSatisfying(ApplyException.class, e -> assertThat(e.missingFragment()).hasValue(0));
  }
}
