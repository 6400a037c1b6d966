package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.keys.KeyHasher;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent merge-inserts of keys from an overlapping pool, each a composite transaction
 * AddFragment + AddDataFile + AssertUniqueKeys (exact key-hash set, v2-semantics §4.4). A
 * writer inserts only the keys absent from the version it read; the assertion must stop it
 * from landing on top of a concurrent insert of the same key, after which it re-reads and
 * re-plans. The kernel treats data files as opaque, so the keys of each file are kept in a
 * side map keyed by the file's path. Final table: no key twice, every key of every batch
 * present, every acknowledged insert present. Seed: {@code -Dlancet.mergeinsert.seed=<long>}.
 */
class MergeInsertUniqueKeysTest {
  private static final int THREADS = 4;
  private static final int BATCHES = 6;
  private static final int BATCH_SIZE = 6;
  private static final int POOL = 40;
  private static final int ROUNDS = 3;
  private static final CommitPolicy POLICY = new CommitPolicy(100, Duration.ofSeconds(60), Duration.ofMillis(1));
  private static final Ref KEY = Ref.committed(0);

  @TempDir Path dir;

  /** The keys each data file holds. */
  private final Map<String, List<Long>> keysByFile = new ConcurrentHashMap<>();

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void concurrentMergeInsertsNeverDuplicateAKey() throws Exception {
    long seed = Long.getLong("lancet.mergeinsert.seed", ThreadLocalRandom.current().nextLong());
    long conflicts = 0;
    for (int round = 0; round < ROUNDS; round++) {
      try {
        conflicts += round(seed + round, dir.resolve("round-" + round));
      } catch (Throwable t) {
        throw new AssertionError("merge-insert round " + round + " failed; replay with -Dlancet.mergeinsert.seed=" + seed, t);
      }
    }
    System.out.println("[merge-insert] seed=" + seed + " rounds=" + ROUNDS + " key conflicts=" + conflicts);
  }

  private long round(long seed, Path tableDir) throws Exception {
    Seeded table = seeded(tableDir);
    LocalObjectStore store = table.store();
    String location = table.location();
    Ledger ledger = table.ledger();
    ContractCommitter committer = table.committer();
    Set<Long> wanted = ConcurrentHashMap.newKeySet();
    List<String> acknowledgedFiles = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < THREADS; w++) {
      Random rnd = new Random(seed * 17 + w);
      String writer = "w" + w;
      Thread t = new Thread(() -> {
        try {
          go.await();
          for (int b = 0; b < BATCHES; b++) {
            Set<Long> batch = new TreeSet<>();
            while (batch.size() < BATCH_SIZE) {
              batch.add((long) rnd.nextInt(POOL));
            }
            wanted.addAll(batch);
            for (int attempt = 0; ; attempt++) {
              assertThat(attempt).as("%s batch %d re-planned too often", writer, b).isLessThan(100);
              Manifest read = Snapshot.latest(store, location).manifest();
              Set<Long> toInsert = new TreeSet<>(batch);
              toInsert.removeAll(keysIn(read));
              if (toInsert.isEmpty()) {
                break;
              }
              String path = writer + "-" + b + "-" + attempt + ".lance";
              keysByFile.put(path, List.copyOf(toInsert));
              ContractCommitter.Outcome o = committer.commit(read.version(), mergeInsert(store, path, toInsert, true));
              if (o.acknowledged()) {
                synchronized (acknowledgedFiles) {
                  acknowledgedFiles.add(path);
                }
                break;
              }
              RuntimeException why = o.rejection().orElseThrow();
              if (why instanceof ConflictingCommitException c) {
                assertThat(String.join("; ", c.collisions())).contains("KEY_ASSERTION");
              } else {
                assertThat(why).isInstanceOf(RetriesExhaustedException.class);
              }
            }
          }
        } catch (Throwable e) {
          ledger.surprise(e);
        }
      }, writer);
      threads.add(t);
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(120));
      assertThat(t.isAlive()).isFalse();
    }
    assertThat(ledger.surprises()).as(ledger.toString()).isEmpty();

    Manifest latest = Snapshot.latest(store, location).manifest();
    List<Long> all = keyList(latest);
    assertThat(new HashSet<>(all)).as("no key twice").hasSameSizeAs(all);
    assertThat(new TreeSet<>(all)).as("every key of every batch is present").isEqualTo(new TreeSet<>(wanted));
    List<String> files = latest.fragments().stream().flatMap(f -> f.files().stream()).map(DataFile::path).toList();
    assertThat(files).as("every acknowledged insert is present").containsAll(acknowledgedFiles);
    History history = History.read(store, 1);
    history.checkAgainst(ledger);
    history.replayAndCompare();
    return ledger.conflicts();
  }

  @Test
  void stalePlansWithSharedKeysConflictAndDisjointOnesBothLand() throws Exception {
    Seeded table = seeded(dir.resolve("t"));
    LocalObjectStore store = table.store();
    String location = table.location();
    Ledger ledger = table.ledger();
    ContractCommitter committer = table.committer();

    assertThat(committer.commit(1, mergeInsert(store, "a.lance", Set.of(1L, 2L, 3L), true)).acknowledged()).isTrue();
    ContractCommitter.Outcome shared = committer.commit(1, mergeInsert(store, "b.lance", Set.of(3L, 4L), true));
    assertThat(shared.rejection()).containsInstanceOf(ConflictingCommitException.class);
    ConflictingCommitException c = (ConflictingCommitException) shared.rejection().orElseThrow();
    assertThat(c.version()).isEqualTo(2);
    assertThat(String.join("; ", c.collisions())).contains("KEY_ASSERTION");
    assertThat(committer.commit(1, mergeInsert(store, "c.lance", Set.of(5L, 6L), true)).acknowledged()).isTrue();
    // An unqualified insert cannot be checked: a stale assertion conflicts with it.
    assertThat(committer.commit(3, mergeInsert(store, "d.lance", Set.of(7L), false)).acknowledged()).isTrue();
    assertThat(committer.commit(3, mergeInsert(store, "e.lance", Set.of(8L), true)).rejection())
        .containsInstanceOf(ConflictingCommitException.class);
    assertThat(ledger.surprises()).isEmpty();
    assertThat(keyList(Snapshot.latest(store, location).manifest())).containsExactlyInAnyOrder(1L, 2L, 3L, 5L, 6L, 7L);
  }

  /**
   * A key does not have to arrive in a new row: a column rewrite of the key column in place can
   * put any value in it. Upstream's rule (assert_unique_keys.rs @6d18f6ee): such a write violates
   * a concurrent assertion over that column whichever commits first. Both orders, against a
   * stale plan on a real table; the final table never holds a key twice.
   */
  @Test
  void anInPlaceRewriteOfTheKeyColumnConflictsWithAMergeInsertInEitherOrder() throws Exception {
    for (boolean rewriteFirst : new boolean[] {false, true}) {
      Path tableDir = dir.resolve("rewrite-" + rewriteFirst);
      Seeded table = seeded(tableDir);
      LocalObjectStore store = table.store();
      String location = table.location();
      keysByFile.put("seed-0.lance", List.of(10L));
      Ledger ledger = table.ledger();
      ContractCommitter committer = table.committer();
      CompositeOperation insert = mergeInsert(store, "insert-" + rewriteFirst + ".lance", Set.of(20L), true);
      CompositeOperation rewrite = rewriteKeyColumn(store, "rewrite-" + rewriteFirst + ".lance", 20L);

      ContractCommitter.Outcome first = committer.commit(1, rewriteFirst ? rewrite : insert);
      ContractCommitter.Outcome second = committer.commit(1, rewriteFirst ? insert : rewrite);

      assertThat(first.acknowledged()).isTrue();
      assertThat(second.rejection()).as("rewrite first: %s", rewriteFirst)
          .containsInstanceOf(ConflictingCommitException.class);
      assertThat(String.join("; ", ((ConflictingCommitException) second.rejection().orElseThrow()).collisions()))
          .contains("KEY_ASSERTION").contains("in place");
      List<Long> all = keyList(Snapshot.latest(store, location).manifest());
      assertThat(new HashSet<>(all)).as("no key twice").hasSameSizeAs(all);
      assertThat(ledger.surprises()).isEmpty();
    }
  }

  /** A rewrite of a column other than the key does not collide with the merge insert. */
  @Test
  void anInPlaceRewriteOfAnotherColumnLandsAlongsideAMergeInsert() throws Exception {
    Seeded table = seeded(dir.resolve("other"));
    LocalObjectStore store = table.store();
    String location = table.location();
    Ledger ledger = table.ledger();
    ContractCommitter committer = table.committer();
    // Field 1 is added first (version 2), so both plans below read a table with two columns.
    CompositeOperation addColumn = new CompositeOperation(List.of(new UserStep("add column v", List.of(
        dev.lancet.core.action.AddField.topLevel(0, dev.lancet.format.model.Field.builder(0, "v", "int64").build()),
        new AddDataFile(Ref.committed(0), dev.lancet.core.TestDataFiles.placed(store,
            new DataFile("v-0.lance", List.of(-1), List.of(0), 2, 1, 10)), List.of(Ref.local(0)), true)))));
    assertThat(committer.commit(1, addColumn).acknowledged()).isTrue();
    CompositeOperation rewriteV = new CompositeOperation(List.of(new UserStep("rewrite v", List.of(
        new dev.lancet.core.action.TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(1)), true),
        new AddDataFile(Ref.committed(0), dev.lancet.core.TestDataFiles.placed(store,
            new DataFile("v-1.lance", List.of(-1), List.of(0), 2, 1, 10)), List.of(Ref.committed(1)), true)))));
    assertThat(committer.commit(2, mergeInsert(store, "k.lance", Set.of(30L), true)).acknowledged()).isTrue();
    assertThat(committer.commit(2, rewriteV).acknowledged()).isTrue();
    assertThat(ledger.surprises()).isEmpty();
  }

  /** Rewrites the key column of committed fragment 0 so that its one row holds {@code key}. */
  private CompositeOperation rewriteKeyColumn(LocalObjectStore store, String path, long key) {
    keysByFile.put(path, List.of(key));
    return new CompositeOperation(List.of(new UserStep("rewrite the key column", List.of(
        new dev.lancet.core.action.TombstoneFieldData(Ref.committed(0), List.of(KEY), true),
        new AddDataFile(Ref.committed(0), dev.lancet.core.TestDataFiles.placed(store,
            new DataFile(path, List.of(-1), List.of(0), 2, 1, 10)), List.of(KEY), true)))));
  }

  /** The duplicate check above can fail: without the assertion, two stale plans duplicate a key. */
  @Test
  void withoutTheAssertionStalePlansDuplicateAKey() throws Exception {
    Seeded table = seeded(dir.resolve("u"));
    LocalObjectStore store = table.store();
    String location = table.location();
    ContractCommitter committer = table.committer();
    assertThat(committer.commit(1, mergeInsert(store, "x.lance", Set.of(1L, 2L), false)).acknowledged()).isTrue();
    assertThat(committer.commit(1, mergeInsert(store, "y.lance", Set.of(2L, 3L), false)).acknowledged()).isTrue();
    List<Long> all = keyList(Snapshot.latest(store, location).manifest());
    assertThat(new HashSet<>(all)).hasSizeLessThan(all.size());
  }

  /** A table seeded with one fragment of one row, and a committer that records into a ledger. */
  private record Seeded(LocalObjectStore store, String location, Ledger ledger, ContractCommitter committer) {}

  private static Seeded seeded(Path tableDir) throws Exception {
    LocalObjectStore store = new LocalObjectStore(tableDir);
    TortureTables.seed(store, 1, 1);
    Ledger ledger = new Ledger();
    return new Seeded(store, tableDir.toString(), ledger,
        new ContractCommitter(store, tableDir.toString(), POLICY, ledger));
  }

  private CompositeOperation mergeInsert(LocalObjectStore store, String path, Set<Long> keys, boolean assertUnique) {
    keysByFile.put(path, List.copyOf(keys));
    List<Action> actions = new ArrayList<>();
    actions.add(AddFragment.local(0, keys.size()));
    actions.add(new AddDataFile(Ref.local(0), dev.lancet.core.TestDataFiles.placed(store,
        new DataFile(path, List.of(-1), List.of(0), 2, 1, 10)), List.of(KEY), true));
    if (assertUnique) {
      List<Long> hashes = new ArrayList<>();
      for (long k : keys) {
        hashes.add(KeyHasher.hash(KeyHasher.encodeSigned(k)));
      }
      actions.add(new AssertUniqueKeys(List.of(KEY), new KeyExistenceFilter.Exact(hashes)));
    }
    return new CompositeOperation(List.of(new UserStep("merge-insert " + keys, actions)));
  }

  private Set<Long> keysIn(Manifest m) {
    return new HashSet<>(keyList(m));
  }

  /** Every key of every file of the manifest, with repetitions. */
  private List<Long> keyList(Manifest m) {
    List<Long> out = new ArrayList<>();
    for (Fragment f : m.fragments()) {
      for (DataFile d : f.files()) {
        out.addAll(keysByFile.getOrDefault(d.path(), List.of()));
      }
    }
    return out;
  }
}
