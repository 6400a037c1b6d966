package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.Ref;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.UnsupportedFeatureException;
import dev.lancet.core.version.Versions;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the commit loop does with winners written by other builds: the newest draft's layout is
 * read and checked; a composite this build cannot read in full fails closed as a conflict; a
 * version whose writer flags this build does not implement is never written on.
 */
class WinnersOnTheWireTest {
  private static final CommitPolicy FAST = new CommitPolicy(3, Duration.ofSeconds(10), Duration.ofMillis(1));

  @TempDir Path dir;
  LocalObjectStore store;
  Manifest v1;

  @BeforeEach
  void createTable() throws Exception {
    v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of()))
        .fragments(List.of(
            Fragment.of(0, 10, List.of(new DataFile("a.lance", List.of(0), List.of(0), 2, 1, 100))),
            Fragment.of(1, 10, List.of(new DataFile("b.lance", List.of(0), List.of(0), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(1))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    store = new LocalObjectStore(dir);
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
  }

  /** Publishes version 2 (fragment 0 removed) as another writer would, with {@code operation}. */
  private void publishWinner(ActionProtos.CompositeOperation operation) throws Exception {
    Manifest v2 = v1.toBuilder().version(2).fragments(List.of(v1.fragments().get(1))).build();
    Transaction txn = Transaction.newBuilder().setUuid("upstream-writer").setReadVersion(1)
        .setCompositeOperation(operation).build();
    new VersionPublisher(store).publish(v2, List.of(), txn, ManifestNaming.V2);
  }

  private TransactionBuilder removeFragmentZero() {
    return new TransactionBuilder(store, dir.toString(), 1).policy(FAST)
        .step("remove fragment 0", s -> s.removeFragment(Ref.committed(0)));
  }

  /** CompositeOperation{actions (1): [UserAction{description, actions: [RemoveFragment{0}]}]}. */
  private static byte[] upstreamRemoveFragmentZero() throws Exception {
    byte[] ref = bytes(out -> out.writeUInt64(1, 0));
    byte[] removal = bytes(out -> out.writeByteArray(1, ref));
    byte[] action = bytes(out -> out.writeByteArray(6, removal));
    byte[] step = bytes(out -> {
      out.writeString(1, "compact");
      out.writeByteArray(2, action);
    });
    return bytes(out -> out.writeByteArray(1, step));
  }

  private interface Writer {
    void write(CodedOutputStream out) throws Exception;
  }

  private static byte[] bytes(Writer w) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(b);
    w.write(out);
    out.flush();
    return b.toByteArray();
  }

  /**
   * Seen before the fix (held-out probe): a winner in upstream's newest layout read as zero
   * steps, so a commit removing the same fragment landed on top of it.
   */
  @Test
  void aWinnerInTheNewestDraftsLayoutIsCheckedAndItsConflictFound() throws Exception {
    publishWinner(ActionProtos.CompositeOperation.parseFrom(upstreamRemoveFragmentZero()));

    assertThatThrownBy(removeFragmentZero()::commit)
        .isInstanceOf(ConflictingCommitException.class)
        .hasMessageContaining("fragment 0");
    assertThat(Versions.list(store)).hasSize(2);
  }

  @Test
  void aWinnerWithAnUnknownFieldDeepInsideFailsClosedNamingThePath() throws Exception {
    ActionProtos.CompositeOperation winner = ActionProtos.CompositeOperation.parseFrom(upstreamRemoveFragmentZero());
    ActionProtos.UserAction step = winner.getActions(0);
    ActionProtos.Action action = step.getActions(0);
    ActionProtos.CompositeOperation poisoned = winner.toBuilder().setActions(0, step.toBuilder().setActions(0,
        action.toBuilder().setRemoveFragment(action.getRemoveFragment().toBuilder().setFragment(
            action.getRemoveFragment().getFragment().toBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
                .addField(3, UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build()))))).build();
    publishWinner(poisoned);

    // A commit that would not conflict with the winner as far as it can tell still fails closed.
    TransactionBuilder unrelated = new TransactionBuilder(store, dir.toString(), 1).policy(FAST)
        .step("set a config key", s -> s.setConfig("k", "v"));
    assertThatThrownBy(unrelated::commit)
        .isInstanceOf(ConflictingCommitException.class)
        .hasMessageContaining("cannot be read")
        .hasMessageContaining("CompositeOperation.actions[0].actions[0].remove_fragment.fragment")
        .hasMessageContaining("field 3");
    assertThat(Versions.list(store)).hasSize(2);
  }

  @Test
  void aWinnerInTheOldLayoutFailsClosed() throws Exception {
    // What earlier Lancet builds wrote: the steps in field 3.
    byte[] step = ActionProtos.UserAction.newBuilder().setDescription("append").build().toByteArray();
    byte[] old = bytes(out -> out.writeByteArray(3, step));
    publishWinner(ActionProtos.CompositeOperation.parseFrom(old));

    TransactionBuilder unrelated = new TransactionBuilder(store, dir.toString(), 1).policy(FAST)
        .step("set a config key", s -> s.setConfig("k", "v"));
    assertThatThrownBy(unrelated::commit)
        .isInstanceOf(ConflictingCommitException.class).hasMessageContaining("older layout");
  }

  /**
   * A newer writer may require every later writer to understand a bit (writer-only bits such as
   * upstream's clustering metadata). Seen before the fix: Lancet committed, and the bit vanished
   * from the next version's flags.
   */
  @Test
  void aVersionWhoseWriterFlagsThisBuildDoesNotKnowIsNeverWrittenOn() throws Exception {
    Manifest v2 = v1.toBuilder().version(2).writerFeatureFlags(1L << 12).build();
    store.put(ManifestNaming.V2.path(2), ManifestFile.write(v2, List.of(), Optional.empty()));
    Versions.writeHint(store, 2);

    TransactionBuilder commit = new TransactionBuilder(store, dir.toString(), 2).policy(FAST)
        .step("set a config key", s -> s.setConfig("k", "v"));
    assertThatThrownBy(commit::commit)
        .isInstanceOf(UnsupportedFeatureException.class)
        .hasMessageContaining("writer feature flags 0x1000").hasMessageContaining("upgrade Lancet");
    assertThat(Versions.list(store)).hasSize(2);
    try (Stream<Path> txns = Files.exists(dir.resolve("_transactions")) ? Files.list(dir.resolve("_transactions")) : Stream.empty()) {
      assertThat(txns).as("no .txn file written").isEmpty();
    }
    assertThat(Snapshot.latest(store, dir.toString()).manifest().writerFeatureFlags()).isEqualTo(1L << 12);
  }

  /** Top-level fields a newer writer put in its manifest are not carried into ours. */
  @Test
  void unknownTopLevelManifestFieldsAreNotCarriedIntoTheNextVersion() throws Exception {
    // Field 23 is an inline-transaction offset in upstream drafts: stale in any other file.
    Manifest v2 = v1.toBuilder().version(2).unknownFields(UnknownFieldSet.newBuilder()
        .addField(23, UnknownFieldSet.Field.newBuilder().addVarint(4242).build()).build()).build();
    store.put(ManifestNaming.V2.path(2), ManifestFile.write(v2, List.of(), Optional.empty()));
    Versions.writeHint(store, 2);
    assertThat(Snapshot.latest(store, dir.toString()).manifest().unknownFields().hasField(23)).isTrue();

    new TransactionBuilder(store, dir.toString(), 2).policy(FAST)
        .step("set a config key", s -> s.setConfig("k", "v")).commit();

    Manifest v3 = Snapshot.latest(store, dir.toString()).manifest();
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.unknownFields().asMap()).isEmpty();
  }
}
