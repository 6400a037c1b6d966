package dev.lancet.bench;

import dev.lancet.core.store.FaultInjectingStore.Operation;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.ReadOptions;

/**
 * Where a single-writer append commit spends its time (plain loop, not JMH): the same commit as
 * {@link CommitLatencyBenchmark}, alternating Lancet on {@link LocalObjectStore}, Lancet on the
 * diagnostic {@link NoSyncLocalStore} and lance-core, each store call timed by {@link TimingStore}.
 * Prints medians per side and the mean time and count per store operation.
 *
 * <p>Usage: {@code CommitBreakdown [fragments=100] [rounds=200]}
 */
public final class CommitBreakdown {
  private CommitBreakdown() {}

  public static void main(String[] args) throws IOException {
    int fragments = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Path scratch = Files.createTempDirectory("lancet-bench-breakdown-");
    try (BufferAllocator alloc = new RootAllocator()) {
      CommitFixture fixture = CommitFixture.create(scratch, "t", fragments, alloc);
      ReadOptions options = new ReadOptions.Builder().build();
      long[] tLocal = new long[rounds];
      long[] tNoSync = new long[rounds];
      long[] tLance = new long[rounds];
      long[][] opsLocal = new long[Operation.values().length][2];
      long[][] opsNoSync = new long[Operation.values().length][2];
      int warmup = rounds / 4;
      for (int r = -warmup; r < rounds; r++) {
        TimingStore local = new TimingStore(new LocalObjectStore(fixture.dir));
        long t = commit(fixture, local);
        if (r >= 0) {
          tLocal[r] = t;
          add(opsLocal, local);
        }
        TimingStore noSync = new TimingStore(new NoSyncLocalStore(fixture.dir));
        t = commit(fixture, noSync);
        if (r >= 0) {
          tNoSync[r] = t;
          add(opsNoSync, noSync);
        }
        long s = System.nanoTime();
        fixture.commitWithLance(alloc, options);
        t = System.nanoTime() - s;
        fixture.reset();
        if (r >= 0) {
          tLance[r] = t;
        }
      }
      System.out.printf("fragments %d, %d measured rounds (after %d warm-up), medians:%n",
          fragments, rounds, warmup);
      System.out.printf("  lancet (LocalObjectStore)   %8.0f us%n", median(tLocal) / 1e3);
      System.out.printf("  lancet (no fsync)           %8.0f us%n", median(tNoSync) / 1e3);
      System.out.printf("  lance-core                  %8.0f us%n", median(tLance) / 1e3);
      print("Lancet on LocalObjectStore", opsLocal, rounds);
      print("Lancet on NoSyncLocalStore", opsNoSync, rounds);
    } finally {
      BenchTables.deleteRecursively(scratch);
    }
  }

  private static long commit(CommitFixture fixture, ObjectStore store) {
    long s = System.nanoTime();
    fixture.commitWithLancet(store);
    long t = System.nanoTime() - s;
    fixture.reset();
    return t;
  }

  private static void add(long[][] acc, TimingStore store) {
    for (Operation op : Operation.values()) {
      acc[op.ordinal()][0] += store.calls(op);
      acc[op.ordinal()][1] += store.nanos(op);
    }
  }

  private static void print(String title, long[][] acc, int rounds) {
    System.out.println(title + ": per commit, store calls and mean time");
    long total = 0;
    for (Operation op : Operation.values()) {
      long calls = acc[op.ordinal()][0];
      long nanos = acc[op.ordinal()][1];
      total += nanos;
      if (calls > 0) {
        System.out.printf("  %-14s %5.2f calls  %8.0f us%n", op, (double) calls / rounds,
            nanos / 1e3 / rounds);
      }
    }
    System.out.printf("  %-14s              %8.0f us%n", "all store", total / 1e3 / rounds);
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
