package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.store.FaultInjectingStore;
import dev.lancet.core.store.FaultInjectingStore.Operation;
import dev.lancet.core.store.FaultInjectingStore.Timing;
import dev.lancet.core.store.MemoryObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract for an unknown outcome, deterministically: the store fails the manifest
 * put-if-absent and then the read-back, so the writer gets {@link CommitStateUnknownException};
 * re-submitting the same transaction (same uuid, same read version) lands it exactly once,
 * whether the first publish landed or not, and even after other writers committed on top.
 */
class ResubmissionAfterUnknownOutcomeTest {
  private static final String LOCATION = "memory://resubmit";
  private static final CommitPolicy NO_RETRY = new CommitPolicy(0, Duration.ofSeconds(10), Duration.ofMillis(1));

  private final MemoryObjectStore base = new MemoryObjectStore();
  private final FaultInjectingStore store = FaultInjectingStore.wrap(base);

  private CompositeOperation append(String path) {
    DataFile file = dev.lancet.core.TestDataFiles.placed(base, new DataFile(path, List.of(-1), List.of(0), 2, 1, 10));
    return new CompositeOperation(List.of(new UserStep("append " + path, List.of(
        AddFragment.local(0, 5),
        new AddDataFile(Ref.local(0), file, List.of(Ref.committed(0)), true)))));
  }

  /** A deletion of fragment 0: its footprint collides with itself, so a re-check would be a conflict. */
  private CompositeOperation deleteInFragmentZero() throws java.io.IOException {
    DeletionFile file = new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, 1, 7, 2);
    base.put(dev.lancet.format.deletion.DeletionFileNames.DIRECTORY + "/" + file.fileName(0),
        dev.lancet.format.deletion.DeletionFileFormat.writeArrow(dev.lancet.format.deletion.DeletionVector.of(0, 1)));
    return new CompositeOperation(List.of(new UserStep("delete in fragment 0", List.of(
        new SetDeletionFile(0, Optional.of(file), true)))));
  }

  private TransactionBuilder submission(CompositeOperation op, String uuid, long readVersion) {
    return new TransactionBuilder(store, LOCATION, readVersion).uuid(uuid).policy(NO_RETRY).steps(op);
  }

  @ParameterizedTest(name = "publish fails {0}; a concurrent writer commits on top first: {1}")
  @ValueSource(strings = {"AFTER,false", "AFTER,true", "BEFORE,false", "BEFORE,true"})
  void sameTransactionResubmittedLandsExactlyOnce(String params) throws Exception {
    Timing timing = Timing.valueOf(params.split(",")[0]);
    boolean concurrentOnTop = Boolean.parseBoolean(params.split(",")[1]);
    TortureTables.seed(base, 2, 10);
    for (CompositeOperation op : List.of(append("a.lance"), deleteInFragmentZero())) {
      long read = history().latest().version();
      String uuid = UUID.randomUUID().toString();
      store.failNth(Operation.PUT_IF_ABSENT, 1, timing, "_versions/");
      // From the publish on, reads of _versions/ fail too: the read-back cannot tell.
      store.onCall(Operation.PUT_IF_ABSENT, "_versions/", (o, path, call) -> {
        store.failAlways(Operation.EXISTS, Timing.BEFORE, "_versions/");
        store.failAlways(Operation.GET, Timing.BEFORE, "_versions/");
        store.failAlways(Operation.LIST, Timing.BEFORE, "_versions/");
      });
      CommitStateUnknownException unknown = catchThrowableOfType(CommitStateUnknownException.class,
          () -> submission(op, uuid, read).commit());
      assertThat(unknown).as("%s: unknown outcome", op.steps().get(0).description()).isNotNull();
      assertThat(unknown.transactionUuid()).isEqualTo(uuid);
      store.clearInjections();
      boolean landed = timing == Timing.AFTER;
      assertThat(history().versionsByUuid().containsKey(uuid)).as("the first publish landed").isEqualTo(landed);

      long otherVersion = -1;
      if (concurrentOnTop) {
        otherVersion = new TransactionBuilder(store, LOCATION, history().latest().version())
            .step("other writer", s -> s.setConfig("other", uuid)).commit().version();
      }
      CommitResult again = submission(op, uuid, read).commit();

      History h = history();
      assertThat(h.versionsByUuid().get(uuid)).as("the transaction is in the table exactly once")
          .containsExactly(again.version());
      if (landed) {
        assertThat(again.version()).as("recognised at the version it landed at").isEqualTo(read + 1);
      } else {
        assertThat(again.version()).isEqualTo(concurrentOnTop ? otherVersion + 1 : read + 1);
      }
      h.replayAndCompare();
    }
  }

  @Test
  void resubmittingAnAcknowledgedTransactionReturnsItsVersion() throws Exception {
    TortureTables.seed(base, 1, 10);
    String uuid = UUID.randomUUID().toString();
    CommitResult first = submission(append("x.lance"), uuid, 1).commit();
    new TransactionBuilder(store, LOCATION, first.version()).step("on top", s -> s.setConfig("k", "v")).commit();
    CommitResult second = submission(append("x.lance"), uuid, 1).commit();
    assertThat(second.version()).isEqualTo(first.version());
    assertThat(history().versionsByUuid().get(uuid)).containsExactly(first.version());
  }

  private History history() throws Exception {
    return History.read(base, 1);
  }
}
