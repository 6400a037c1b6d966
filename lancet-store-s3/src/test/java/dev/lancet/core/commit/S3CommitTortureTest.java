package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.store.s3.S3ObjectStore;
import dev.lancet.store.s3.S3ProxyServer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The randomized torture test of the commit path (see {@link TortureRun}) on a real S3 server:
 * writer threads commit a mixed workload through a fault-injecting wrapper around the S3 store
 * (calls failing before and after they run, at every step of a commit, and random latency), and
 * the final table must equal an independent replay of its history with every acknowledged
 * commit exactly once. {@code -Dlancet.s3.torture.commits=N} (default 150), {@code
 * -Dlancet.torture.seed}, {@code -Dlancet.torture.writers} as in the local torture test.
 */
class S3CommitTortureTest {
  private static final int COMMITS = Integer.getInteger("lancet.s3.torture.commits", 150);
  private static final int WRITERS = Integer.getInteger("lancet.torture.writers", 4);
  private static final CommitPolicy POLICY = new CommitPolicy(8, Duration.ofSeconds(60), Duration.ofMillis(5));

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void s3WithFaults() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String location = "s3://" + server.newBucket("torture") + "/table";
    long seed = Long.getLong("lancet.torture.seed", ThreadLocalRandom.current().nextLong());
    try (S3ObjectStore store = S3ObjectStore.open(location, server.storageOptions(), Map.of(),
        S3ObjectStore.Settings.DEFAULT)) {
      TortureTables.seed(store, 4, 20);
      TortureWorkload workload = new TortureWorkload(EnumSet.allOf(TortureWorkload.Kind.class), store,
          TortureWorkload.fakeDataFiles(store));
      TortureRun run = new TortureRun(store, location, workload,
          new TortureRun.Settings(seed, WRITERS, COMMITS, 0.05, POLICY));
      try {
        run.run();
        run.verify(1);
      } catch (Throwable t) {
        throw new AssertionError("S3 torture run failed; replay with -Dlancet.torture.seed=" + seed + "\n"
            + run.summary(), t);
      }
      System.out.println("[torture] " + location + ": " + run.summary());
      assertThat(run.store().injectedFaultCount()).as("faults were injected").isPositive();
      assertThat(run.ledger().acknowledged()).hasSizeGreaterThanOrEqualTo(COMMITS);
    }
  }
}
