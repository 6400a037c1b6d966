package dev.lancet.interop.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.FaultInjectingStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.model.DataFile;
import dev.lancet.store.s3.S3ProxyServer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.FragmentMetadata;

/**
 * Request economy on S3, pinned: what Lancet sends for opening the latest version, for a
 * commit, and for a commit that meets a concurrent winner, counted by the server (s3proxy's own
 * per-request metrics, by operation) on the same table that lance-core 7.0.0 does the same work
 * on, in the same run. Lancet's counts are exact; each is at most lance-core's.
 *
 * <p>The one-off put-if-absent probe (see {@code S3ObjectStore.verifyConditionalWrites}) runs
 * before the measured commits: once per JVM and table root.
 */
class S3RequestCountsTest {
  private static final String LIST = "ListObjectsV2";
  private static final String GET = "GetObject";
  private static final String PUT = "PutObject";
  private static final String HEAD = "HeadObject";

  private static S3ProxyServer server;
  private static BufferAllocator alloc;
  private String bucket;
  private String uri;
  private Map<String, String> opts;

  @BeforeAll
  static void start() {
    server = S3ProxyServer.shared();
    alloc = new RootAllocator();
  }

  @AfterAll
  static void stop() {
    alloc.close();
  }

  @BeforeEach
  void table() throws Exception {
    bucket = server.newBucket("counts");
    uri = "s3://" + bucket + "/t";
    opts = server.storageOptions();
    LanceOnS3.create(uri, opts, alloc, 30, 10);
    // The probe, once for this table root in this JVM (2 requests: created, then refused).
    Map<String, Long> before = server.requestCounts(bucket);
    try (dev.lancet.store.s3.S3ObjectStore s3 = (dev.lancet.store.s3.S3ObjectStore) ObjectStores.forUri(uri, opts)) {
      s3.verifyConditionalWrites();
      s3.verifyConditionalWrites();
    }
    assertThat(server.requestsSince(bucket, before)).isEqualTo(Map.of(PUT, 2L));
  }

  private Map<String, Long> counted(Runnable work) {
    Map<String, Long> before = server.requestCounts(bucket);
    work.run();
    return server.requestsSince(bucket, before);
  }

  private static long total(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  @Test
  void openLatest() {
    Map<String, Long> lance = counted(() -> {
      try (Dataset ds = LanceOnS3.open(uri, opts, alloc)) {
        assertThat(ds.version()).isEqualTo(1);
      }
    });
    Map<String, Long> lancet = counted(() -> {
      try (Table t = Table.open(uri, opts)) {
        assertThat(t.latest().manifest().fragments()).hasSize(3);
      }
    });
    report("open latest", lancet, lance);
    // One listing (its first entry is the newest V2 manifest) and the manifest itself.
    assertThat(lancet).isEqualTo(Map.of(LIST, 1L, GET, 1L));
    assertThat(total(lancet)).isLessThanOrEqualTo(total(lance));
  }

  @Test
  void commitAnAppend() {
    FragmentMetadata forLance = LanceOnS3.prewrite(uri, opts, alloc, 1000, 10);
    DataFile forLancet = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 2000, 10));
    Map<String, Long> lance = counted(() -> {
      try (Dataset ds = LanceOnS3.open(uri, opts, alloc)) {
        assertThat(LanceOnS3.commitAppend(ds, forLance)).isEqualTo(2);
      }
    });
    Map<String, Long> lancet = counted(() -> {
      try (Table t = Table.open(uri, opts)) {
        CommitResult r = t.newTransaction().step("append", s -> s.addFragment(0, 10)
            .addDataFile(Ref.local(0), forLancet, Ref.committed(0))).commit();
        assertThat(r.version()).isEqualTo(3);
        assertThat(r.attempts()).isEqualTo(1);
      }
    });
    report("open + commit an append", lancet, lance);
    // newTransaction: one listing (the latest version's entry); the commit starts from that
    // entry: its manifest, then at once the new data file's size (decision 0015: a commit checks
    // the files it adds exist) and the .txn file, then the new manifest with If-None-Match. No
    // version hint on S3.
    assertThat(lancet).isEqualTo(Map.of(LIST, 1L, GET, 1L, HEAD, 1L, PUT, 2L));
    assertThat(total(lancet)).isLessThanOrEqualTo(total(lance));
  }

  @Test
  void commitAfterAConcurrentWinner() {
    FragmentMetadata winner1 = LanceOnS3.prewrite(uri, opts, alloc, 1000, 10);
    FragmentMetadata lanceStale = LanceOnS3.prewrite(uri, opts, alloc, 2000, 10);
    FragmentMetadata winner2 = LanceOnS3.prewrite(uri, opts, alloc, 3000, 10);
    DataFile lancetStale = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 4000, 10));

    // lance-core: a Dataset read at v1, a winner lands (v2), then the stale commit (v3).
    Map<String, Long> lance;
    try (Dataset stale = LanceOnS3.open(uri, opts, alloc)) {
      try (Dataset other = LanceOnS3.open(uri, opts, alloc)) {
        LanceOnS3.commitAppend(other, winner1);
      }
      lance = counted(() -> assertThat(LanceOnS3.commitAppend(stale, lanceStale)).isEqualTo(3));
    }
    // Lancet: a transaction planned at v3, a winner lands (v4), then its commit (v5).
    Map<String, Long> lancet;
    try (Table t = Table.open(uri, opts)) {
      // Planned from an earlier read, as lance-core's stale Dataset: the plan names its read version.
      long read = t.latest().version();
      TransactionBuilder planned = t.newTransaction().readVersion(read).step("append", s -> s.addFragment(0, 10)
          .addDataFile(Ref.local(0), lancetStale, Ref.committed(0)));
      assertThat(planned.readVersion()).isEqualTo(3);
      try (Dataset other = LanceOnS3.open(uri, opts, alloc)) {
        LanceOnS3.commitAppend(other, winner2);
      }
      lancet = counted(() -> {
        CommitResult r = planned.commit();
        assertThat(r.version()).isEqualTo(5);
        assertThat(r.attempts()).isEqualTo(1);
      });
    }
    report("commit after one concurrent winner", lancet, lance);
    // The listing shows v4 first; its manifest carries lance-core's transaction inline (a
    // Lancet composite winner would cost one more GET, its .txn file); then the new file's size
    // with our .txn file, and our manifest. The doomed put-if-absent of v4 is never sent.
    assertThat(lancet).isEqualTo(Map.of(LIST, 1L, GET, 1L, HEAD, 1L, PUT, 2L));
    // lance-core's Dataset was opened before, so its commit needs no open: 4 requests. Lancet's
    // one more is the new data file's size lookup (decision 0015), which lance-core does not
    // make; every other request has its lance-core counterpart.
    assertThat(total(lancet) - lancet.get(HEAD)).isLessThanOrEqualTo(total(lance));
  }

  @Test
  void aHeadStartThatMissesAWinnerCostsTwoRequests() {
    DataFile ours = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 1000, 10));
    FragmentMetadata theirs = LanceOnS3.prewrite(uri, opts, alloc, 2000, 10);
    Map<String, Long> lancet;
    try (Table t = Table.open(uri, opts)) {
      // newTransaction() reads the latest entry (v1); a winner lands before commit().
      TransactionBuilder planned = t.newTransaction().step("append", s -> s.addFragment(0, 10)
          .addDataFile(Ref.local(0), ours, Ref.committed(0)));
      try (Dataset other = LanceOnS3.open(uri, opts, alloc)) {
        LanceOnS3.commitAppend(other, theirs);
      }
      lancet = counted(() -> {
        CommitResult r = planned.commit();
        assertThat(r.version()).isEqualTo(3);
        assertThat(r.attempts()).isEqualTo(2);
      });
    }
    report("head start missed a winner (newTransaction, winner, commit)", lancet, Map.of());
    // v1's manifest, the new file's size with our .txn, the refused put of v2; then v2's manifest
    // (known to exist from the refusal) with the listing, the put of v3. The file is not looked
    // up again.
    assertThat(lancet).isEqualTo(Map.of(LIST, 1L, GET, 2L, HEAD, 1L, PUT, 3L));
  }

  @Test
  void retryAfterALostRace() {
    FragmentMetadata theirs = LanceOnS3.prewrite(uri, opts, alloc, 2000, 10);
    Map<String, Long> afterLoss = requestsAfterLosingTo(() -> {
      try (Dataset other = LanceOnS3.open(uri, opts, alloc)) {
        LanceOnS3.commitAppend(other, theirs);
      }
    });
    report("lost race: the failed put-if-absent and the retry", afterLoss, Map.of());
    // The refused put (412), then: the listing with, at once, v2's manifest (known to exist from
    // the refusal; lance-core's transaction is inline), and the put of v3. Our .txn file is not
    // written again: the rebase did not change the transaction.
    assertThat(afterLoss).isEqualTo(Map.of(LIST, 1L, GET, 1L, PUT, 2L));
  }

  @Test
  void retryAfterLosingToALancetCompositeCommitOfAnotherProcess() {
    DataFile theirs = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 2000, 10));
    // Another Lancet writer wins the version with a composite commit (transaction only in its .txn).
    Map<String, Long> afterLoss = requestsAfterLosingTo(() -> asAnotherProcess(() -> appendWithLancet(theirs, 2)));
    report("lost race to another process's composite commit, and the retry", afterLoss, Map.of());
    // The refused put (412); then the listing with, at once, the winner's manifest and then its
    // .txn file, one GET each (a bounded read is one request); the put of v3.
    assertThat(afterLoss).isEqualTo(Map.of(LIST, 1L, GET, 2L, PUT, 2L));
  }

  @Test
  void retryAfterLosingToACompositeCommitOfThisProcess() {
    DataFile theirs = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 2000, 10));
    // A writer thread of this process wins with a composite commit: this process wrote its .txn.
    Map<String, Long> afterLoss = requestsAfterLosingTo(() -> appendWithLancet(theirs, 2));
    report("lost race to this process's composite commit, and the retry", afterLoss, Map.of());
    // As after losing to lance-core: the winner's transaction is the one this process wrote
    // (KnownTransactions), so its .txn file is not read back.
    assertThat(afterLoss).isEqualTo(Map.of(LIST, 1L, GET, 1L, PUT, 2L));
  }

  @Test
  void commitOnTopOfACompositeCommit() {
    DataFile first = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 1000, 10));
    DataFile second = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 2000, 10));
    DataFile third = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 3000, 10));
    FragmentMetadata forLance = LanceOnS3.prewrite(uri, opts, alloc, 4000, 10);
    Map<String, Long> lance = counted(() -> {
      try (Dataset ds = LanceOnS3.open(uri, opts, alloc)) {
        assertThat(LanceOnS3.commitAppend(ds, forLance)).isEqualTo(2);
      }
    });
    // v3 by "another process", then v4 on top of it, then v5 on top of this process's v4.
    asAnotherProcess(() -> appendWithLancet(first, 3));
    Map<String, Long> onAnother = counted(() -> appendWithLancet(second, 4));
    Map<String, Long> onOurs = counted(() -> appendWithLancet(third, 5));
    report("open + commit on another process's composite commit", onAnother, lance);
    report("open + commit on this process's composite commit", onOurs, lance);
    // On top of another process's composite commit, decision 0015's readability check reads
    // its .txn file (no transaction inline), in the round trip of the HEAD and our .txn PUT.
    assertThat(onAnother).isEqualTo(Map.of(LIST, 1L, GET, 2L, HEAD, 1L, PUT, 2L));
    // On top of this process's own, the transaction is known (KnownTransactions): as many as lance-core.
    assertThat(onOurs).isEqualTo(Map.of(LIST, 1L, GET, 1L, HEAD, 1L, PUT, 2L));
    assertThat(total(onOurs)).isLessThanOrEqualTo(total(lance));
  }

  private void appendWithLancet(DataFile file, long expectedVersion) {
    try (Table t = Table.open(uri, opts)) {
      CommitResult r = t.newTransaction().step("append", s -> s.addFragment(0, 10)
          .addDataFile(Ref.local(0), file, Ref.committed(0))).commit();
      assertThat(r.version()).isEqualTo(expectedVersion);
      assertThat(r.attempts()).isEqualTo(1);
    }
  }

  /**
   * Runs {@code work} as a Lancet writer in another process would: this process does not
   * remember the composite transactions it writes there, so later commits read their .txn files.
   */
  private static void asAnotherProcess(Runnable work) {
    System.setProperty("lancet.knownTransactions", "false");
    try {
      work.run();
    } finally {
      System.clearProperty("lancet.knownTransactions");
    }
  }

  /**
   * Commits an append whose first manifest put loses to {@code winner} (run between our read and
   * our put-if-absent, so the put is refused with 412) and returns the requests from the refused
   * put on: the put and the retry.
   */
  private Map<String, Long> requestsAfterLosingTo(Runnable winner) {
    DataFile ours = LanceOnS3.lancetFile(LanceOnS3.prewrite(uri, opts, alloc, 1000, 10));
    AtomicBoolean raced = new AtomicBoolean();
    Map<String, Long>[] beforeLoss = new Map[1];
    FaultInjectingStore store = FaultInjectingStore.wrap(ObjectStores.forUri(uri, opts));
    store.onCall(FaultInjectingStore.Operation.PUT_IF_ABSENT, "_versions/", (op, path, call) -> {
      if (raced.compareAndSet(false, true)) {
        winner.run();
        beforeLoss[0] = server.requestCounts(bucket);
      }
    });
    try (Table t = Table.open(uri, store)) {
      CommitResult r = t.newTransaction().step("append", s -> s.addFragment(0, 10)
          .addDataFile(Ref.local(0), ours, Ref.committed(0))).commit();
      Map<String, Long> afterLoss = server.requestsSince(bucket, beforeLoss[0]);
      assertThat(r.version()).isEqualTo(3);
      assertThat(r.attempts()).isEqualTo(2);
      return afterLoss;
    }
  }

  private static void report(String what, Map<String, Long> lancet, Map<String, Long> lance) {
    System.out.printf("[s3-requests] %-52s Lancet %2d %s | lance-core %2d %s%n", what, total(lancet), lancet,
        total(lance), lance);
  }
}
