package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.MemoryObjectStore;
import dev.lancet.core.store.ObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Randomized torture test of the commit path: several writer threads commit a mixed workload
 * (appends with and without key assertions, row deletions with real deletion files, fragment
 * removals, added and dropped columns, renames, config updates, overlays, compactions) while
 * the store fails calls at every step of a commit and adds latency; at the end the table must
 * equal an independent replay of its history, every acknowledged commit must be in it exactly
 * once, and nothing else (see {@link TortureRun#verify}).
 *
 * <p>System properties:
 * <ul>
 *   <li>{@code -Dlancet.torture.commits=5000}: acknowledged commits on the in-memory store
 *       (default 300; the local-directory run does a third of it).
 *   <li>{@code -Dlancet.torture.seed=<long>}: replay a seed printed by a failure.
 *   <li>{@code -Dlancet.torture.writers=<n>}: writer threads (default 4).
 * </ul>
 * e.g. {@code mvn -o -pl lancet-core test -Dtest=CommitTortureTest -Dlancet.torture.commits=5000}.
 */
class CommitTortureTest {
  private static final int COMMITS = Integer.getInteger("lancet.torture.commits", 300);
  private static final int WRITERS = Integer.getInteger("lancet.torture.writers", 4);
  private static final CommitPolicy POLICY = new CommitPolicy(8, Duration.ofSeconds(30), Duration.ofMillis(1));

  @TempDir Path dir;

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void memoryStoreWithFaults() throws Exception {
    run(new MemoryObjectStore(), "memory://torture", COMMITS, 0.05);
  }

  /** The object-store path: overlapped requests and winners read ahead (as on S3). */
  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void memoryStoreOverlappingRequestsWithFaults() throws Exception {
    run(new MemoryObjectStore(true), "memory://torture-overlapped", COMMITS, 0.05);
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void localDirectoryWithFaults() throws Exception {
    run(new LocalObjectStore(dir.resolve("table")), dir.resolve("table").toString(), Math.max(30, COMMITS / 3), 0.05);
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void memoryStoreWithoutFaultsHasNoUnknownOutcome() throws Exception {
    TortureRun run = run(new MemoryObjectStore(), "memory://calm", Math.max(30, COMMITS / 3), 0);
    assertThat(run.ledger().unknownOutcomes()).isZero();
    assertThat(run.ledger().storeFailures()).isZero();
  }

  private static TortureRun run(ObjectStore store, String location, int commits, double faultRate) throws Exception {
    long seed = Long.getLong("lancet.torture.seed", ThreadLocalRandom.current().nextLong());
    TortureTables.seed(store, 4, 20);
    TortureWorkload workload = new TortureWorkload(EnumSet.allOf(TortureWorkload.Kind.class), store,
        TortureWorkload.fakeDataFiles(store));
    TortureRun run = new TortureRun(store, location, workload,
        new TortureRun.Settings(seed, WRITERS, commits, faultRate, POLICY));
    try {
      run.run();
      run.verify(1);
    } catch (Throwable t) {
      throw new AssertionError("torture run failed; replay with -Dlancet.torture.seed=" + seed + "\n"
          + run.summary(), t);
    }
    System.out.println("[torture] " + location + ": " + run.summary());
    if (faultRate > 0) {
      assertThat(run.store().injectedFaultCount()).as("faults were injected").isPositive();
    }
    return run;
  }
}
