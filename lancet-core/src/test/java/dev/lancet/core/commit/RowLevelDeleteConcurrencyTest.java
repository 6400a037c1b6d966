package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionVector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Real threads deleting random rows of shared fragments at the same time (docs/decisions/0016):
 * each round every thread reads the latest version, picks a fragment and a few rows (half the
 * threads from a small window of fragment 0, so deletes overlap often), writes a real deletion file and
 * commits; a barrier releases them together. Checked against an independent model built only
 * from what the writers were told: the final deletion vector of every fragment is exactly the
 * union of the acknowledged deletes; no two acknowledged deletes share a row; every loser got a
 * typed {@link Collision.FragmentDeletions} naming its fragment and rows it tried to delete that
 * an acknowledged delete deleted; and no loser's transaction is in the history. Longer runs:
 * {@code -Dlancet.rowDeletes.rounds=200}.
 */
class RowLevelDeleteConcurrencyTest {
  private static final int THREADS = 4;
  private static final int ROUNDS = Integer.getInteger("lancet.rowDeletes.rounds", 8);
  private static final int FRAGMENTS = 2;
  private static final int HOT_ROWS = 12;
  private static final int ROWS = Math.max(4000, HOT_ROWS * ROUNDS + 1000);
  private static final CommitPolicy POLICY = new CommitPolicy(500, Duration.ofSeconds(90), Duration.ofMillis(2));

  @TempDir Path dir;

  /** One planned delete: the fragment, the rows it adds to the deletion vector it read, and how it ended. */
  record Attempt(String uuid, long fragment, DeletionVector rows, ContractCommitter.Outcome outcome) {}

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void concurrentDeletesOfSharedFragmentsMergeOrConflictRowByRow() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    TortureTables.seed(store, FRAGMENTS, ROWS);
    DeletionFiles files = new DeletionFiles(store);
    Ledger ledger = new Ledger();
    ContractCommitter committer = new ContractCommitter(store, dir.toString(), POLICY, ledger);
    CyclicBarrier barrier = new CyclicBarrier(THREADS);
    ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Random random = new Random(0xD1E7E + t);
      boolean hot = t % 2 == 0;
      Thread thread = new Thread(() -> {
        try {
          for (int round = 0; round < ROUNDS; round++) {
            barrier.await(60, TimeUnit.SECONDS);
            Snapshot read = Snapshot.latest(store, dir.toString());
            // Hot writers share a small window of fragment 0 that moves on each round; the others
            // spread over every fragment above it.
            long fragment = hot ? 0 : random.nextInt(FRAGMENTS);
            int[] rows = new int[1 + random.nextInt(5)];
            for (int i = 0; i < rows.length; i++) {
              rows[i] = hot ? round * HOT_ROWS + random.nextInt(HOT_ROWS)
                  : HOT_ROWS * ROUNDS + random.nextInt(ROWS - HOT_ROWS * ROUNDS);
            }
            DeletionVector before = files.deleted(read, fragment);
            SetDeletionFile delete = files.delete(read, fragment, rows);
            DeletionVector added = DeletionVector.fromBitmap(
                RoaringBitmap.andNot(DeletionVector.of(rows).toBitmap(), before.toBitmap()));
            if (added.isEmpty()) {
              continue;
            }
            CompositeOperation op = new CompositeOperation(List.of(new UserStep("delete", List.of(delete))));
            ContractCommitter.Outcome outcome = committer.commit(read.version(), op);
            attempts.add(new Attempt(outcome.uuid(), fragment, added, outcome));
          }
        } catch (Throwable e) {
          ledger.surprise(e);
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(170));
      assertThat(t.isAlive()).as("writer thread finished").isFalse();
    }
    assertThat(ledger.surprises()).as(ledger.toString()).isEmpty();

    // The independent model: the union of acknowledged deletes, which must be pairwise disjoint.
    Map<Long, RoaringBitmap> expected = new HashMap<>();
    List<Attempt> losers = new ArrayList<>();
    int acknowledged = 0;
    for (Attempt a : attempts) {
      if (a.outcome().acknowledged()) {
        acknowledged++;
        RoaringBitmap sofar = expected.computeIfAbsent(a.fragment(), f -> new RoaringBitmap());
        assertThat(RoaringBitmap.intersects(sofar, a.rows().toBitmap()))
            .as("acknowledged delete %s deletes rows %s of fragment %d that another acknowledged delete deleted",
                a.uuid(), a.rows(), a.fragment()).isFalse();
        sofar.or(a.rows().toBitmap());
      } else {
        losers.add(a);
      }
    }
    Snapshot latest = Snapshot.latest(store, dir.toString());
    for (long f = 0; f < FRAGMENTS; f++) {
      RoaringBitmap want = expected.getOrDefault(f, new RoaringBitmap());
      assertThat(files.deleted(latest, f).toArray()).as("fragment %d: the union of acknowledged deletes", f)
          .containsExactly(want.toArray());
    }
    for (Attempt loser : losers) {
      RuntimeException rejection = loser.outcome().rejection().orElseThrow();
      assertThat(rejection).as("loser %s", loser.uuid()).isInstanceOf(ConflictingCommitException.class);
      List<Collision> conflicts = ((ConflictingCommitException) rejection).conflicts();
      assertThat(conflicts).as("loser %s: %s", loser.uuid(), conflicts).singleElement()
          .isInstanceOfSatisfying(Collision.FragmentDeletions.class, c -> {
            assertThat(c.fragment()).isEqualTo(loser.fragment());
            assertThat(c.rows().isEmpty()).isFalse();
            RoaringBitmap named = c.rows().toBitmap();
            assertThat(RoaringBitmap.andNot(named, loser.rows().toBitmap()).isEmpty())
                .as("the rows named are rows the loser tried to delete").isTrue();
            assertThat(RoaringBitmap.andNot(named, expected.get(loser.fragment())).isEmpty())
                .as("the rows named were deleted by an acknowledged delete").isTrue();
          });
    }
    History history = History.read(store, 1);
    assertThat(history.entries()).hasSize(acknowledged);
    List<String> loserUuids = losers.stream().map(Attempt::uuid).toList();
    assertThat(history.entries()).as("no loser published anything")
        .noneMatch(e -> loserUuids.contains(e.uuid()));
    history.replayAndCompare();
    // The run exercised both outcomes: rows were merged across writers, and some collided.
    assertThat(acknowledged).isGreaterThan(THREADS);
    assertThat(losers).as("overlapping deletes in the hot range").isNotEmpty();
    assertThat(history.entries().stream().filter(e -> e.manifest().version() > 1)
        .map(e -> e.transaction().getReadVersion() < e.version() - 1).filter(b -> b).count())
        .as("some acknowledged deletes were rebased over concurrent ones").isPositive();
    assertThat(Optional.of(ledger.conflicts())).contains((long) losers.size());
  }
}
