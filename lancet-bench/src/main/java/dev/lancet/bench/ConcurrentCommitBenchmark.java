package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * <p>Retries: Lancet's are {@code CommitResult.attempts() - 1}, summed and printed per iteration.
 * lance-core 7.0.0 retries inside Rust and reports nothing to Java (no count, no log line, and it
 * rewrites the same {@code .txn} name on every attempt), so its retries are not observable.
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
@Warmup(iterations = 2, batchSize = 1)
@Measurement(iterations = 8, batchSize = 1)
public class ConcurrentCommitBenchmark {

  private static final CommitPolicy BACKOFF_2MS =
      new CommitPolicy(CommitPolicy.DEFAULT.maxRetries(), CommitPolicy.DEFAULT.deadline(),
          Duration.ofMillis(2));

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
    if (maxAttempts.get() > 0) {
      System.out.printf("%n  [lancet] %d commits, %d retries (attempts - 1), max attempts %d%n",
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

  @Benchmark
  public long lancet() throws Exception {
    return runWriters(() -> record(table.commitWithLancet()));
  }

  /** Diagnostic: {@link #lancet} without fsyncs ({@link NoSyncLocalStore}), as lance-core writes. */
  @Benchmark
  public long lancetNoFsync() throws Exception {
    return runWriters(() -> record(table.commitWithLancet(new NoSyncLocalStore(table.dir))));
  }

  /**
   * Diagnostic: {@link #lancet} with a 2 ms backoff unit instead of the default 20 ms (lance-core
   * derives its unit from the duration of the first attempt, which is a few ms locally).
   */
  @Benchmark
  public long lancetBackoff2ms() throws Exception {
    return runWriters(() -> record(table.commitWithLancet(BACKOFF_2MS)));
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
    start.countDown();
    long max = 0;
    for (Future<Long> f : done) {
      try {
        max = Math.max(max, f.get());
      } catch (ExecutionException e) {
        throw new IllegalStateException("a writer failed: " + e.getCause(), e.getCause());
      }
    }
    return max;
  }
}
