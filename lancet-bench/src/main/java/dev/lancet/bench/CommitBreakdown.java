package dev.lancet.bench;

import dev.lancet.bench.TimingStore.Call;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.LocalObjectStore.Durability;
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
 * {@link CommitLatencyBenchmark}, alternating Lancet on a {@link LocalObjectStore} with
 * {@link Durability#SYNC} (the default), Lancet with {@link Durability#NONE} (no fsync, as
 * lance-core) and lance-core, each of Lancet's store calls timed by {@link TimingStore}.
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
      long[] tSync = new long[rounds];
      long[] tNone = new long[rounds];
      long[] tLance = new long[rounds];
      long[][] opsSync = new long[Call.values().length][2];
      long[][] opsNone = new long[Call.values().length][2];
      int warmup = rounds / 4;
      for (int r = -warmup; r < rounds; r++) {
        TimingStore sync = new TimingStore(new LocalObjectStore(fixture.dir, Durability.SYNC));
        long t = commit(fixture, sync);
        if (r >= 0) {
          tSync[r] = t;
          add(opsSync, sync);
        }
        TimingStore none = new TimingStore(new LocalObjectStore(fixture.dir, Durability.NONE));
        t = commit(fixture, none);
        if (r >= 0) {
          tNone[r] = t;
          add(opsNone, none);
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
      System.out.printf("  lancet (Durability.SYNC)    %8.0f us%n", median(tSync) / 1e3);
      System.out.printf("  lancet (Durability.NONE)    %8.0f us%n", median(tNone) / 1e3);
      System.out.printf("  lance-core                  %8.0f us%n", median(tLance) / 1e3);
      print("Lancet, Durability.SYNC", opsSync, rounds);
      print("Lancet, Durability.NONE", opsNone, rounds);
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
    for (Call op : Call.values()) {
      acc[op.ordinal()][0] += store.calls(op);
      acc[op.ordinal()][1] += store.nanos(op);
    }
  }

  private static void print(String title, long[][] acc, int rounds) {
    System.out.println(title + ": per commit, store calls and mean time");
    long total = 0;
    for (Call op : Call.values()) {
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
