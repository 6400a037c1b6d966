package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitAttempt.Outcome;
import dev.lancet.core.store.FaultInjectingStore;
import dev.lancet.core.store.FaultInjectingStore.Operation;
import dev.lancet.core.store.FaultInjectingStore.Timing;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit loop's promises: a winner is loaded once however many attempts; an unknown
 * outcome is resolved by finding the transaction's uuid; a re-submission never commits twice;
 * budgets and deadlines end in typed errors.
 */
class CommitLoopTest {
  private static final CommitPolicy FAST = new CommitPolicy(10, Duration.ofSeconds(30), Duration.ofMillis(1));

  @TempDir Path dir;
  LocalObjectStore disk;
  FaultInjectingStore store;

  @BeforeEach
  void createTable() throws Exception {
    Manifest v1 = Manifest.builder()
        .version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").nullable(false).build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of(new DataFile("a.lance", List.of(0), List.of(0), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(0))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    disk = new LocalObjectStore(dir);
    disk.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    store = FaultInjectingStore.wrap(disk);
  }

  private TransactionBuilder append(ObjectStoreView view, String file, List<CommitAttempt> seen) {
    return Table.open(dir.toString(), view.store()).newTransaction()
        .policy(FAST)
        .onAttempt(seen::add)
        .step("append " + file, s -> s.addFragment(0, 5)
            .addDataFile(dev.lancet.core.action.Ref.local(0),
                dev.lancet.core.TestDataFiles.placed(disk, new DataFile(file, List.of(0), List.of(0), 2, 1, 10)),
                dev.lancet.core.action.Ref.committed(0)));
  }

  /** Which store a writer goes through: the faulty one under test, or the plain disk. */
  private interface ObjectStoreView {
    dev.lancet.core.store.ObjectStore store();
  }

  private List<String> uuidsInHistory() throws IOException {
    List<String> out = new ArrayList<>();
    for (VersionEntry e : Versions.list(disk)) {
      Snapshot s = Snapshot.load(disk, e);
      s.transaction().ifPresent(t -> out.add(t.getUuid()));
    }
    return out;
  }

  @Test
  void aPublishThatLandedButFailedIsFoundByUuidAndNotCommittedTwice() throws Exception {
    // The manifest put lands, but the caller sees an error: the outcome is unknown.
    store.failNth(Operation.PUT_IF_ABSENT, 1, Timing.AFTER, "_versions/");
    List<CommitAttempt> seen = new ArrayList<>();

    CommitResult r = append(() -> store, "x.lance", seen).commit();

    assertThat(store.injectedFaultCount()).isEqualTo(1);
    assertThat(r.version()).isEqualTo(2);
    assertThat(seen).extracting(CommitAttempt::outcome)
        .containsExactly(Outcome.STORE_ERROR, Outcome.ALREADY_COMMITTED);
    assertThat(Versions.list(disk)).extracting(VersionEntry::version).containsExactly(1L, 2L);
    assertThat(Collections.frequency(uuidsInHistory(), r.transactionUuid())).isEqualTo(1);
  }

  @Test
  void reSubmittingACommittedTransactionReturnsItsVersionWithoutPublishing() throws Exception {
    List<CommitAttempt> seen = new ArrayList<>();
    CommitResult first = append(() -> store, "x.lance", seen).commit();
    // Another writer lands on top, then the first writer re-submits (e.g. after a crash).
    append(() -> disk, "y.lance", new ArrayList<>()).commit();

    CommitResult again = append(() -> store, "x.lance", seen).uuid(first.transactionUuid()).readVersion(1).commit();

    assertThat(again.version()).isEqualTo(first.version());
    assertThat(seen).extracting(CommitAttempt::outcome).containsExactly(Outcome.COMMITTED, Outcome.ALREADY_COMMITTED);
    assertThat(Versions.list(disk)).hasSize(3);
    assertThat(Collections.frequency(uuidsInHistory(), first.transactionUuid())).isEqualTo(1);
  }

  @Test
  void aVersionWhoseTxnFileWasLostInACrashIsStillRecognisedAndOthersFailClosed() throws Exception {
    CommitResult first = append(() -> store, "x.lance", new ArrayList<>()).commit();
    // A machine crash lost the (advisory, unsynced) .txn file; the manifest survived.
    disk.delete("_transactions/" + first.manifest().transactionFile());
    List<CommitAttempt> seen = new ArrayList<>();

    CommitResult again = append(() -> store, "x.lance", seen).uuid(first.transactionUuid()).readVersion(1).commit();

    assertThat(again.version()).isEqualTo(first.version());
    assertThat(seen).extracting(CommitAttempt::outcome).containsExactly(Outcome.ALREADY_COMMITTED);
    assertThat(Versions.list(disk)).hasSize(2);
    // A different writer that read version 1 cannot be checked against version 2: fail closed.
    assertThatThrownBy(append(() -> store, "y.lance", new ArrayList<>()).readVersion(1)::commit)
        .isInstanceOf(ConflictingCommitException.class)
        .hasMessageContaining("cannot be read");
    assertThat(append(() -> store, "y.lance", new ArrayList<>()).commit().version()).isEqualTo(3);
  }

  @Test
  void anOutcomeStillUnknownWhenTheBudgetRunsOutIsTypedAndResolvedByReSubmission() throws Exception {
    AtomicBoolean published = new AtomicBoolean();
    store.onCall(Operation.PUT_IF_ABSENT, "_versions/", (op, path, n) -> published.set(true));
    store.failNth(Operation.PUT_IF_ABSENT, 1, Timing.AFTER, "_versions/");
    AtomicBoolean outage = new AtomicBoolean(true);
    // After the put, every read of the versions directory fails until the outage ends.
    for (Operation read : List.of(Operation.EXISTS, Operation.GET, Operation.SIZE, Operation.LIST)) {
      store.onCall(read, "_versions/", (op, path, n) -> {
        if (published.get() && outage.get()) {
          throw new IOException("injected outage");
        }
      });
    }
    TransactionBuilder txn = append(() -> store, "x.lance", new ArrayList<>())
        .policy(new CommitPolicy(3, Duration.ofSeconds(30), Duration.ofMillis(1)));

    assertThatThrownBy(txn::commit)
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("Re-submit the same transaction")
        .satisfies(e -> assertThat(((CommitStateUnknownException) e).transactionUuid())
            .isEqualTo(txn.toTransaction().getUuid()));

    outage.set(false);
    CommitResult r = txn.commit();
    assertThat(r.version()).isEqualTo(2);
    assertThat(Versions.list(disk)).hasSize(2);
    assertThat(Collections.frequency(uuidsInHistory(), r.transactionUuid())).isEqualTo(1);
  }

  @Test
  void aFailedTransactionFileWriteIsRetriedAndLandsOnce() throws Exception {
    store.failNth(Operation.PUT, 1, Timing.BEFORE, "_transactions/");
    List<CommitAttempt> seen = new ArrayList<>();

    CommitResult r = append(() -> store, "x.lance", seen).commit();

    assertThat(seen).extracting(CommitAttempt::outcome).containsExactly(Outcome.STORE_ERROR, Outcome.COMMITTED);
    assertThat(r.attempts()).isEqualTo(2);
    assertThat(Collections.frequency(uuidsInHistory(), r.transactionUuid())).isEqualTo(1);
  }

  @Test
  void eachWinnerIsLoadedOnceHoweverManyAttempts() throws Exception {
    // Three winners land after our read version; then, during our first publish, a fourth.
    for (String f : List.of("w1", "w2", "w3")) {
      append(() -> disk, f, new ArrayList<>()).commit();
    }
    AtomicInteger racing = new AtomicInteger();
    store.onCall(Operation.PUT_IF_ABSENT, "_versions/", (op, path, n) -> {
      if (racing.getAndIncrement() == 0) {
        append(() -> disk, "w4", new ArrayList<>()).commit();
      }
    });
    List<CommitAttempt> seen = new ArrayList<>();
    TransactionBuilder txn = append(() -> store, "x.lance", seen).readVersion(1);
    // Count from here: what the commit itself reads.
    Map<String, Integer> manifestReads = new ConcurrentHashMap<>();
    store.onCall(Operation.GET, "_versions/", (op, path, n) -> manifestReads.merge(path, 1, Integer::sum));
    store.onCall(Operation.GET_RANGE, "_versions/", (op, path, n) -> manifestReads.merge(path, 1, Integer::sum));

    CommitResult r = txn.commit();

    assertThat(r.version()).isEqualTo(6);
    assertThat(seen).extracting(CommitAttempt::outcome).containsExactly(Outcome.LOST_RACE, Outcome.COMMITTED);
    for (long v = 2; v <= 5; v++) {
      assertThat(manifestReads).as("reads of version %d's manifest", v).containsEntry(ManifestNaming.V2.path(v), 1);
    }
  }

  @Test
  void aZeroBudgetGivesUpAfterOneLostRaceWithTheVersionThatBlockedIt() throws Exception {
    store.onCall(Operation.PUT_IF_ABSENT, "_versions/", (op, path, n) -> {
      if (n == 1) {
        append(() -> disk, "winner", new ArrayList<>()).commit();
      }
    });
    List<CommitAttempt> seen = new ArrayList<>();
    TransactionBuilder txn = append(() -> store, "x.lance", seen).policy(FAST.withMaxRetries(0));

    assertThatThrownBy(txn::commit)
        .isInstanceOf(RetriesExhaustedException.class)
        .hasMessageContaining("gave up after 1 attempt")
        .satisfies(e -> assertThat(((RetriesExhaustedException) e).version()).isEqualTo(2));
    assertThat(seen).extracting(CommitAttempt::outcome).containsExactly(Outcome.GAVE_UP);
  }

  @Test
  void aPassedDeadlineGivesUpEvenWithRetriesLeft() throws Exception {
    store.onCall(Operation.PUT_IF_ABSENT, "_versions/", (op, path, n) -> {
      if (n == 1) {
        append(() -> disk, "winner", new ArrayList<>()).commit();
      }
    });
    TransactionBuilder txn = append(() -> store, "x.lance", new ArrayList<>())
        .policy(new CommitPolicy(100, Duration.ZERO, Duration.ofMillis(1)));

    assertThatThrownBy(txn::commit).isInstanceOf(RetriesExhaustedException.class);
    assertThat(Versions.list(disk)).hasSize(2);
  }

  @Test
  void aConflictIsReportedToTheObserverAndCarriesTheWinner() {
    List<CommitAttempt> seen = new ArrayList<>();
    Table.open(dir.toString(), disk).newTransaction().step("delete fragment 0", s -> s.removeFragment(
        dev.lancet.core.action.Ref.committed(0))).commit();
    TransactionBuilder stale = Table.open(dir.toString(), store).newTransaction().readVersion(1)
        .onAttempt(seen::add)
        .step("also delete fragment 0", s -> s.removeFragment(dev.lancet.core.action.Ref.committed(0)));

    assertThatThrownBy(stale::commit)
        .isInstanceOf(ConflictingCommitException.class)
        .satisfies(e -> {
          ConflictingCommitException c = (ConflictingCommitException) e;
          assertThat(c.version()).isEqualTo(2);
          assertThat(c.winnerOperation()).isEqualTo("CompositeOperation");
          assertThat(c.collisions()).isNotEmpty();
        });
    assertThat(seen).singleElement().satisfies(a -> {
      assertThat(a.outcome()).isEqualTo(Outcome.CONFLICT);
      assertThat(a.version()).isEqualTo(2);
    });
  }
}
