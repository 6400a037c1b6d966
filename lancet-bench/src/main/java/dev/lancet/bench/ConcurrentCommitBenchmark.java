package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.LocalObjectStore.Durability;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code writers} concurrent writer threads, {@code appends} appends each, to one fresh table
 * (a copy of the {@link CommitFixture} table, {@code fragments} fragments at version 1). Each
 * append is what one independent writer does: open the latest version, commit an Append of the
 * pre-written fragment, retrying on lost races as the library does by itself. One invocation is
 * all {@code writers * appends} commits (single-shot time); commits/s = commits / time.
 *
 * <p>Lancet runs at both durabilities: {@link #lancetSync} (the default, fsyncs) and
 * {@link #lancetNone} (no fsync, as lance-core's local store), next to {@link #lanceCore}.
 *
 * <p>Retries: Lancet's are {@code CommitResult.attempts() - 1}, summed and printed per iteration.
 * lance-core 7.0.0 retries inside Rust and reports nothing to Java (no count, no log line, and it
 * rewrites the same {@code .txn} name on every attempt), so its retries are not observable.
 * Each invocation also prints the process CPU time against the wall time ({@code [cpu]}), which
 * tells CPU-bound runs from runs that wait (fsyncs, backoff sleeps, other processes).
 *
 * <p>After every invocation both libraries must see exactly {@code fragments + writers * appends}
 * fragments at version {@code 1 + writers * appends} (checked in the tear-down, not measured).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "-Xms2g",
      "-Xmx2g",
      "-XX:+AlwaysPreTouch"
    })
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 10, batchSize = 1)
public class ConcurrentCommitBenchmark {

  @Param({"100"})
  public int fragments;

  @Param({"8"})
  public int writers;

  @Param({"10"})
  public int appends;

  private Path scratch;
  private CommitFixture template;
  private CommitFixture table;
  private BufferAllocator allocator;
  private ReadOptions readOptions;
  private ExecutorService pool;
  private int run;
  private final AtomicLong retries = new AtomicLong();
  private final AtomicLong maxAttempts = new AtomicLong();
  /** CPU time of the whole process and wall time while the writers ran (last invocation). */
  private long cpuNanos;
  private long wallNanos;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    scratch = Files.createTempDirectory("lancet-bench-concurrent-");
    allocator = new RootAllocator();
    readOptions = new ReadOptions.Builder().build();
    template = CommitFixture.create(scratch, "template", fragments, allocator);
    pool = Executors.newFixedThreadPool(writers);
  }

  @Setup(Level.Invocation)
  public void freshTable() {
    table = template.copyTo(scratch.resolve("run-" + run++));
    retries.set(0);
    maxAttempts.set(0);
  }

  @TearDown(Level.Invocation)
  public void checkAndDrop() {
    long commits = (long) writers * appends;
    long version = template.baseVersion + commits;
    try (Dataset ds = Dataset.open().allocator(allocator).uri(table.uri).readOptions(readOptions)
        .build()) {
      if (ds.version() != version || ds.getFragments().size() != fragments + commits) {
        throw new IllegalStateException("lance-core sees version " + ds.version() + " with "
            + ds.getFragments().size() + " fragments; expected " + version + " with "
            + (fragments + commits));
      }
    }
    try (Table t = Table.open(table.uri)) {
      Manifest m = t.latest().manifest();
      if (m.version() != version || m.fragments().size() != fragments + commits) {
        throw new IllegalStateException("Lancet sees version " + m.version() + " with "
            + m.fragments().size() + " fragments; expected " + version);
      }
    }
    // Process CPU (all threads: writers, lance-core's native runtime, JIT, GC) against the
    // 2 cores x wall time available: tells CPU-bound from waiting (fsync, backoff sleeps).
    System.out.printf("%n  [cpu] %d ms CPU in %d ms wall (%.2f cores busy)%n", cpuNanos / 1_000_000,
        wallNanos / 1_000_000, (double) cpuNanos / wallNanos);
    if (maxAttempts.get() > 0) {
      System.out.printf("  [lancet] %d commits, %d retries (attempts - 1), max attempts %d%n",
          commits, retries.get(), maxAttempts.get());
    }
    BenchTables.deleteRecursively(table.dir);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    try {
      allocator.close();
    } finally {
      BenchTables.deleteRecursively(scratch);
    }
  }

  /** Lancet with its default durability ({@link Durability#SYNC}: fsyncs on every publish). */
  @Benchmark
  public long lancetSync() throws Exception {
    return runWriters(() -> record(table.commitWithLancet(Durability.SYNC)));
  }

  /** Lancet without fsyncs ({@link Durability#NONE}), as lance-core writes: like for like. */
  @Benchmark
  public long lancetNone() throws Exception {
    return runWriters(() -> record(table.commitWithLancet(Durability.NONE)));
  }

  @Benchmark
  public long lanceCore() throws Exception {
    return runWriters(() -> table.commitWithLance(allocator, readOptions));
  }

  private long record(CommitResult r) {
    retries.addAndGet(r.attempts() - 1);
    maxAttempts.accumulateAndGet(r.attempts(), Math::max);
    return r.version();
  }

  /** Starts all writers together; each commits {@code appends} times. Returns the highest version. */
  private long runWriters(LongSupplier commit) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Long>> done = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      done.add(pool.submit(() -> {
        start.await();
        long last = 0;
        for (int i = 0; i < appends; i++) {
          last = Math.max(last, commit.getAsLong());
        }
        return last;
      }));
    }
    long cpu = processCpuNanos();
    long wall = System.nanoTime();
    start.countDown();
    long max = 0;
    for (Future<Long> f : done) {
      try {
        max = Math.max(max, f.get());
      } catch (ExecutionException e) {
        throw new IllegalStateException("a writer failed: " + e.getCause(), e.getCause());
      }
    }
    wallNanos = System.nanoTime() - wall;
    cpuNanos = processCpuNanos() - cpu;
    return max;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
