package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The commit loop on any store: writer threads, each with its own store (its own connections),
 * released together, each appending fragments to one table. They race for every version; none
 * may conflict or run out of retries, every commit lands exactly once at the version it was told,
 * and the table holds exactly the appended data files (checked against what the writers meant to
 * add and against an independent replay of the history).
 */
public final class ConcurrentAppends {
  private static final CommitPolicy POLICY = new CommitPolicy(100, Duration.ofSeconds(120), Duration.ofMillis(20));

  private ConcurrentAppends() {}

  /** Seeds the table at {@code location} and runs {@code writers} x {@code appends}; returns the ledger. */
  public static Ledger run(String location, Supplier<ObjectStore> newStore, int writers, int appends) throws Exception {
    try (ObjectStore seedStore = newStore.get()) {
      TortureTables.seed(seedStore, 2, 10);
      // A commit checks that the files it adds exist (decision 0015): written before the race.
      for (int w = 0; w < writers; w++) {
        for (int i = 0; i < appends; i++) {
          dev.lancet.core.TestDataFiles.placed(seedStore, file("writer" + w + "-" + i + ".lance"));
        }
      }
    }
    Ledger ledger = new Ledger();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<ObjectStore> stores = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      ObjectStore store = newStore.get();
      stores.add(store);
      ContractCommitter committer = new ContractCommitter(store, location, POLICY, ledger);
      String name = "writer" + w;
      Thread t = new Thread(() -> {
        try {
          go.await();
          for (int i = 0; i < appends; i++) {
            long read = Snapshot.latest(store, location).version();
            CompositeOperation op = new CompositeOperation(List.of(new UserStep(name + " #" + i, List.of(
                AddFragment.local(0, 3),
                new AddDataFile(Ref.local(0), file(name + "-" + i + ".lance"),
                    List.of(Ref.committed(0)), true)))));
            ContractCommitter.Outcome o = committer.commit(read, op);
            if (!o.acknowledged()) {
              ledger.surprise(new AssertionError(name + " #" + i + " did not land", o.rejection().orElse(null)));
            }
          }
        } catch (Throwable e) {
          ledger.surprise(e);
        }
      }, name);
      threads.add(t);
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(170));
      assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
    }
    try (ObjectStore reader = newStore.get()) {
      assertThat(ledger.surprises()).as(ledger.toString()).isEmpty();
      assertThat(ledger.conflicts()).isZero();
      History history = History.read(reader, 1);
      history.checkAgainst(ledger);
      history.replayAndCompare();
      Manifest latest = history.latest();
      assertThat(latest.version()).isEqualTo(1 + (long) writers * appends);
      Set<String> expected = new TreeSet<>(List.of("seed-0.lance", "seed-1.lance"));
      for (int w = 0; w < writers; w++) {
        for (int i = 0; i < appends; i++) {
          expected.add("writer" + w + "-" + i + ".lance");
        }
      }
      Set<String> actual = new TreeSet<>();
      for (Fragment f : latest.fragments()) {
        f.files().forEach(d -> assertThat(actual.add(d.path())).as("data file %s once", d.path()).isTrue());
      }
      assertThat(actual).isEqualTo(expected);
    } finally {
      stores.forEach(ObjectStore::close);
    }
    return ledger;
  }

  private static DataFile file(String path) {
    return new DataFile(path, List.of(-1), List.of(0), 2, 1, 10);
  }
}
