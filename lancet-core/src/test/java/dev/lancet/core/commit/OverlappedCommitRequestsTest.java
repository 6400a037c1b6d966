package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.TestDataFiles;
import dev.lancet.core.action.Ref;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.store.MemoryObjectStore;
import dev.lancet.core.store.ObjectStore;
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
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * On a store that overlaps requests ({@link ObjectStore#overlapsRequests()}, as S3 does), a
 * commit sends the latest version's .txn read, the new file's lookup and its own .txn write at
 * once, and keeps the sequential path's promises: what a check refuses leaves no .txn file
 * behind, a damaged latest version is reported as such, and the published version names the
 * .txn file that holds its transaction.
 */
class OverlappedCommitRequestsTest {
  private static final CommitPolicy FAST = new CommitPolicy(5, Duration.ofSeconds(30), Duration.ofMillis(1));

  private MemoryObjectStore memory;

  @BeforeEach
  void createTable() throws Exception {
    memory = new MemoryObjectStore(true);
    Manifest v1 = Manifest.builder()
        .version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").nullable(false).build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of(new DataFile("a.lance", List.of(0), List.of(0), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(0))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    memory.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    // Version 2, a composite commit by a writer in another process: its transaction is only in
    // its .txn file, so a commit on top of it reads that file to check it is readable.
    asAnotherProcess(() -> append(memory, placed("b.lance")).commit());
  }

  /**
   * Runs {@code commit} as a writer in another process would: this process does not remember the
   * transaction it writes ({@link KnownTransactions}), so later commits read its .txn file.
   */
  static CommitResult asAnotherProcess(java.util.function.Supplier<CommitResult> commit) {
    String was = System.getProperty("lancet.knownTransactions");
    System.setProperty("lancet.knownTransactions", "false");
    try {
      return commit.get();
    } finally {
      if (was == null) {
        System.clearProperty("lancet.knownTransactions");
      } else {
        System.setProperty("lancet.knownTransactions", was);
      }
    }
  }

  private DataFile placed(String name) {
    return TestDataFiles.placed(memory, new DataFile(name, List.of(0), List.of(0), 2, 1, 10));
  }

  private static TransactionBuilder append(ObjectStore store, DataFile file) {
    return Table.open("memory://t", store).newTransaction().policy(FAST)
        .step("append " + file.path(), s -> s.addFragment(0, 5)
            .addDataFile(Ref.local(0), file, Ref.committed(0)));
  }

  private Set<String> txnFiles() throws IOException {
    Set<String> names = new java.util.TreeSet<>();
    memory.list("_transactions/").forEach(o -> names.add(o.path()));
    return names;
  }

  @Test
  void theLatestTxnReadTheFileLookupAndTheTxnWriteAreInFlightTogether() throws Exception {
    // Each of the three requests waits until the other two have arrived: sent one after the
    // other, the first would wait alone and time out, failing the commit.
    CyclicBarrier allThree = new CyclicBarrier(3);
    Set<String> met = ConcurrentHashMap.newKeySet();
    ObjectStore store = (ObjectStore) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> {
          String name = method.getName();
          boolean latestTxnRead = name.equals("get") && args.length == 2 && ((String) args[0]).startsWith("_transactions/");
          boolean fileLookup = name.equals("size") && ((String) args[0]).startsWith("data/");
          boolean txnWrite = name.equals("putAdvisory") && ((String) args[0]).startsWith("_transactions/");
          if (latestTxnRead || fileLookup || txnWrite) {
            allThree.await(20, TimeUnit.SECONDS);
            met.add(name);
          }
          try {
            return method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });

    CommitResult r = append(store, placed("c.lance")).commit();

    assertThat(r.version()).isEqualTo(3);
    assertThat(r.attempts()).isEqualTo(1);
    assertThat(met).containsExactlyInAnyOrder("get", "size", "putAdvisory");
    Snapshot v3 = Snapshot.load(memory, Versions.find(memory, 3).orElseThrow());
    assertThat(v3.transaction()).hasValueSatisfying(t -> assertThat(t.getUuid()).isEqualTo(r.transactionUuid()));
  }

  @Test
  void aListingThatIsBehindAfterALostRaceIsRetriedNotTakenForAMissingTable() throws Exception {
    // A store that lists in pages, as S3 does. On our first manifest put another writer wins the
    // version first; then the retry's listing comes back empty once (a store not yet consistent).
    DataFile theirs = placed("theirs.lance");
    java.util.concurrent.atomic.AtomicBoolean raced = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicBoolean behind = new java.util.concurrent.atomic.AtomicBoolean();
    ObjectStore store = (ObjectStore) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> {
          String name = method.getName();
          if (name.equals("listsInPages")) {
            return true;
          }
          if (name.equals("putIfAbsent") && ((String) args[0]).startsWith("_versions/") && raced.compareAndSet(false, true)) {
            append(memory, theirs).commit();
            behind.set(true);
          }
          if (name.equals("listFirst") && behind.compareAndSet(true, false)) {
            return List.of();
          }
          try {
            return method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    List<CommitAttempt> seen = new java.util.ArrayList<>();

    CommitResult r = append(store, placed("c.lance")).onAttempt(seen::add).commit();

    assertThat(r.version()).isEqualTo(4);
    // The empty page is checked with a whole listing (Versions.latest), so the retry sees the
    // winner at once instead of spending an attempt on it.
    assertThat(seen).extracting(CommitAttempt::outcome).containsExactly(
        CommitAttempt.Outcome.LOST_RACE, CommitAttempt.Outcome.COMMITTED);
    assertThat(Versions.list(memory)).extracting(VersionEntry::version).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  void aCommitFarBehindIsCheckedAgainstEveryWinnerReadAheadOrNot() throws Exception {
    // Planned at version 2; 23 winners land, more than are read at once (16). Version 20, beyond
    // the read-ahead, removes the fragment ours removes too: the conflict is found there.
    TransactionBuilder ours = Table.open("memory://t", memory).newTransaction().policy(FAST)
        .step("remove fragment 0", s -> s.removeFragment(Ref.committed(0)));
    for (int i = 0; i < 17; i++) {
      append(memory, placed("w" + i + ".lance")).commit();
    }
    Table.open("memory://t", memory).newTransaction().policy(FAST)
        .step("their removal", s -> s.removeFragment(Ref.committed(0))).commit();
    for (int i = 17; i < 22; i++) {
      append(memory, placed("w" + i + ".lance")).commit();
    }

    assertThatThrownBy(ours::commit)
        .isInstanceOfSatisfying(ConflictingCommitException.class, e -> assertThat(e.version()).isEqualTo(20));
    assertThat(Versions.list(memory)).hasSize(25);
  }

  @Test
  void aCommitFarBehindLandsOnTopOfEveryWinner() throws Exception {
    TransactionBuilder ours = append(memory, placed("ours.lance"));
    for (int i = 0; i < 24; i++) {
      append(memory, placed("w" + i + ".lance")).commit();
    }

    CommitResult r = ours.commit();

    assertThat(r.version()).isEqualTo(27);
    assertThat(r.manifest().fragments()).hasSize(27);
  }

  @Test
  void aMissingNewFileRefusesTheCommitAndLeavesNoTxnFile() throws Exception {
    Set<String> before = txnFiles();
    DataFile missing = new DataFile("never-written.lance", List.of(0), List.of(0), 2, 1, 10);

    assertThatThrownBy(() -> append(memory, missing).commit())
        .isInstanceOf(ApplyException.class)
        .hasMessageContaining("never-written.lance");

    assertThat(Versions.list(memory)).extracting(VersionEntry::version).containsExactly(1L, 2L);
    assertThat(txnFiles()).isEqualTo(before);
  }

  @Test
  void aDamagedLatestTxnIsReportedAndLeavesNoTxnFile() throws Exception {
    Snapshot v2 = Snapshot.load(memory, Versions.find(memory, 2).orElseThrow());
    memory.put("_transactions/" + v2.manifest().transactionFile(), "not a transaction".getBytes(StandardCharsets.UTF_8));
    Set<String> before = txnFiles();

    assertThatThrownBy(() -> append(memory, placed("c.lance")).commit())
        .isInstanceOf(DamagedTableException.class);

    assertThat(Versions.list(memory)).extracting(VersionEntry::version).containsExactly(1L, 2L);
    assertThat(txnFiles()).isEqualTo(before);
  }

  /** A store over {@code memory} that counts the reads of .txn files. */
  private ObjectStore countingTxnReads(java.util.concurrent.atomic.AtomicInteger txnReads) {
    return (ObjectStore) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ObjectStore.class}, (proxy, method, args) -> {
          if (method.getName().startsWith("get") && args != null && ((String) args[0]).startsWith("_transactions/")) {
            txnReads.incrementAndGet();
          }
          try {
            return method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void aCompositeCommitThisProcessWroteIsNotReadBackByTheNextCommit() throws Exception {
    java.util.concurrent.atomic.AtomicInteger txnReads = new java.util.concurrent.atomic.AtomicInteger();
    ObjectStore store = countingTxnReads(txnReads);
    // On top of another process's composite commit (version 2): its .txn file is read.
    append(store, placed("c.lance")).commit();
    assertThat(txnReads).hasValue(1);

    // On top of our own (version 3): the transaction this process wrote is known, not read.
    CommitResult r = append(store, placed("d.lance")).commit();
    assertThat(r.version()).isEqualTo(4);
    assertThat(txnReads).hasValue(1);

    // With the memory off, the same commit reads it, as a writer in another process does.
    asAnotherProcess(() -> append(store, placed("e.lance")).commit());
    assertThat(txnReads).hasValue(2);
  }

  @Test
  void aWinnerThisProcessWroteIsCheckedWithItsTransactionWithoutReadingIt() throws Exception {
    java.util.concurrent.atomic.AtomicInteger txnReads = new java.util.concurrent.atomic.AtomicInteger();
    ObjectStore store = countingTxnReads(txnReads);
    // Ours reads version 2 (another process's; its .txn is read once, on the first attempt).
    TransactionBuilder ours = Table.open("memory://t", store).newTransaction().readVersion(2).policy(FAST)
        .step("remove fragment 0", s -> s.removeFragment(Ref.committed(0)));
    // A winner from this process removes the same fragment.
    Table.open("memory://t", memory).newTransaction().policy(FAST)
        .step("their removal", s -> s.removeFragment(Ref.committed(0))).commit();

    assertThatThrownBy(ours::commit)
        .isInstanceOfSatisfying(ConflictingCommitException.class, e -> assertThat(e.version()).isEqualTo(3));
    // The conflict was found with the winner's transaction as this process wrote it.
    assertThat(txnReads).hasValue(0);
    assertThat(Versions.list(memory)).hasSize(3);
  }

  @Test
  void aDamagedTxnOfThisProcesssOwnCommitIsSeenByOtherProcesses() throws Exception {
    // What KnownTransactions does not prove: a .txn file changed outside the protocol after
    // this process wrote it. This process trusts its write; another process sees the damage.
    append(memory, placed("c.lance")).commit();
    Snapshot v3 = Snapshot.load(memory, Versions.find(memory, 3).orElseThrow());
    memory.put("_transactions/" + v3.manifest().transactionFile(), "not a transaction".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> asAnotherProcess(() -> append(memory, placed("d.lance")).commit()))
        .isInstanceOf(DamagedTableException.class);
    assertThat(append(memory, placed("d.lance")).commit().version()).isEqualTo(4);
  }
}
