package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.store.FaultInjectingStore;
import dev.lancet.core.store.FaultInjectingStore.Operation;
import dev.lancet.core.store.FaultInjectingStore.Timing;
import dev.lancet.core.store.InjectedFaultException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One randomized torture run: writer threads plan random transactions ({@link TortureWorkload})
 * on the latest version and commit them through a {@link FaultInjectingStore} that fails calls
 * at every step of a commit (before and after the transaction-file put, before and after the
 * manifest put-if-absent, reads and listings during the conflict check) and adds random
 * latency. Writers follow the contract ({@link ContractCommitter}). {@link #verify} then checks
 * the table against the ledger and an independent replay of its history.
 *
 * <p>The seed fixes the workload of each writer and which store calls (by their number) fail;
 * the interleaving of the threads is not reproducible, so a replay with the same seed explores
 * the same neighbourhood rather than the identical run.
 */
public final class TortureRun {

  /** What to run. {@code faultRate} is the chance that a given store call fails (0 for none). */
  public record Settings(long seed, int writers, int commits, double faultRate, CommitPolicy policy) {}

  private final ObjectStore base;
  private final String location;
  private final TortureWorkload workload;
  private final Settings settings;
  private final FaultInjectingStore faulty;
  private final Ledger ledger = new Ledger();
  private final AtomicLong rowDelta = new AtomicLong();
  private final Map<TortureWorkload.Kind, AtomicLong> committedKinds = new ConcurrentHashMap<>();
  private long elapsedMillis;

  public TortureRun(ObjectStore base, String location, TortureWorkload workload, Settings settings) {
    this.base = base;
    this.location = location;
    this.workload = workload;
    this.settings = settings;
    this.faulty = FaultInjectingStore.wrap(base);
    if (settings.faultRate() > 0) {
      injectFaults();
    }
  }

  public Ledger ledger() {
    return ledger;
  }

  public FaultInjectingStore store() {
    return faulty;
  }

  /**
   * BEFORE faults come from hooks that fail a call when a hash of (seed, rule, call number)
   * falls under the rate; AFTER faults (the write lands, the caller sees an error) need fault
   * rules, drawn from the seed for the first calls of each kind.
   */
  private void injectFaults() {
    double rate = settings.faultRate();
    record Point(Operation op, String prefix) {}
    List<Point> before = List.of(
        new Point(Operation.PUT, "_transactions/"),
        new Point(Operation.PUT_IF_ABSENT, "_versions/"),
        new Point(Operation.GET, "_versions/"),
        new Point(Operation.GET, "_transactions/"),
        new Point(Operation.LIST, "_versions/"),
        new Point(Operation.EXISTS, "_versions/"));
    for (int i = 0; i < before.size(); i++) {
      Point p = before.get(i);
      long salt = settings.seed() * 1_000_003L + i;
      faulty.onCall(p.op(), p.prefix(), (op, path, call) -> {
        if (unit(salt, call) < rate) {
          throw new InjectedFaultException(op, path, Timing.BEFORE, call);
        }
      });
    }
    Random rnd = new Random(settings.seed());
    long horizon = (long) settings.commits() * 4L;
    for (Point p : List.of(new Point(Operation.PUT, "_transactions/"), new Point(Operation.PUT_IF_ABSENT, "_versions/"))) {
      for (long call = 1; call <= horizon; call++) {
        if (rnd.nextDouble() < rate) {
          faulty.inject(new FaultInjectingStore.Fault(p.op(), Timing.AFTER, p.prefix(), call, call));
        }
      }
    }
    faulty.latency((op, path) -> ThreadLocalRandom.current().nextInt(8) == 0
        ? Duration.ofNanos(ThreadLocalRandom.current().nextLong(1_000_000)) : Duration.ZERO);
  }

  /** A uniform number in [0, 1) from a seed and a call number (SplitMix64 finalizer). */
  private static double unit(long salt, long call) {
    long z = salt + call * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (z >>> 11) * 0x1.0p-53;
  }

  /** Runs the writers until {@code commits} transactions were acknowledged in total. */
  public void run() throws InterruptedException {
    long start = System.nanoTime();
    CountDownLatch go = new CountDownLatch(1);
    AtomicLong acknowledged = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    ContractCommitter committer = new ContractCommitter(faulty, location, settings.policy(), ledger);
    for (int w = 0; w < settings.writers(); w++) {
      Random rnd = new Random(settings.seed() * 31 + w);
      Thread t = new Thread(() -> {
        try {
          go.await();
          while (acknowledged.get() < settings.commits() && ledger.surprises().isEmpty()) {
            // Plans read the unfaulted store: the faults target the commit.
            Manifest read = Snapshot.latest(base, location).manifest();
            TortureWorkload.Plan plan = workload.plan(read, rnd);
            // Some commits get no retry budget, so that store errors reach the writer as
            // unknown outcomes and the re-submission path is exercised.
            CommitPolicy policy = rnd.nextInt(4) == 0 ? settings.policy().withMaxRetries(0) : settings.policy();
            ContractCommitter.Outcome o = committer.commit(plan.readVersion(), plan.operation(),
                UUID.randomUUID().toString(), policy);
            if (o.acknowledged()) {
              acknowledged.incrementAndGet();
              rowDelta.addAndGet(plan.rowDelta());
              committedKinds.computeIfAbsent(plan.kind(), k -> new AtomicLong()).incrementAndGet();
            }
          }
        } catch (Throwable e) {
          ledger.surprise(e);
        }
      }, "torture-writer-" + w);
      threads.add(t);
      t.start();
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(30));
      assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
    }
    elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  /**
   * Checks the table against what writers were told and against an independent replay:
   * no surprise; every acknowledged uuid exactly once at its version and nothing else;
   * every version equal to the model's replay of the history; the live rows equal to the seed's
   * plus the planned change of every acknowledged commit (no committed change lost); every
   * deletion file present, within its fragment and of the recorded size.
   */
  public History verify(long seedVersion) throws IOException {
    assertThat(ledger.surprises()).as("contract violations (seed %d)", settings.seed()).isEmpty();
    History history = History.read(base, seedVersion);
    history.checkAgainst(ledger);
    ModelState last = history.replayAndCompare();
    long seedRows = history.seed().liveRows();
    assertThat(last.liveRows()).as("live rows = seed rows + the change of every acknowledged commit")
        .isEqualTo(seedRows + rowDelta.get());
    Manifest latest = Snapshot.latest(base, location).manifest();
    assertThat(latest.version()).isEqualTo(history.latest().version());
    for (Fragment f : latest.fragments()) {
      DeletionVector dv = workload.existingDeletions(f);
      assertThat(dv.cardinality()).as("deletion file of fragment %d", f.id())
          .isEqualTo(f.numDeletedRows());
      for (int offset : dv) {
        assertThat((long) offset).as("deleted offset in fragment %d", f.id()).isLessThan(f.physicalRows());
      }
    }
    return history;
  }

  /** A one-paragraph summary for the test log. */
  public String summary() {
    Map<TortureWorkload.Kind, Long> kinds = new EnumMap<>(TortureWorkload.Kind.class);
    committedKinds.forEach((k, v) -> kinds.put(k, v.get()));
    return "seed=" + settings.seed() + " writers=" + settings.writers() + " elapsed=" + elapsedMillis + "ms "
        + ledger + " injectedFaults=" + faulty.injectedFaultCount() + " calls=" + faulty.counts()
        + " committedKinds=" + kinds;
  }

}
