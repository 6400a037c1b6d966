package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.LocalObjectStore.Durability;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Single-writer append commit latency on the local filesystem, Lancet against lance-core 7.0.0 in
 * the same JVM, on the same table files and the same pre-written fragment ({@link CommitFixture}).
 *
 * <ul>
 *   <li>{@link #lancetSync}: {@code Table.open} on a {@code LocalObjectStore} with Lancet's default
 *       {@link Durability#SYNC} + {@code newTransaction()} (reads the latest version) + one step
 *       {@code addFragment + addDataFile} + {@code commit()} (applies, writes the .txn file,
 *       put-if-absent of the manifest, writes the advisory version hint).
 *   <li>{@link #lancetNone}: the same with {@link Durability#NONE}: every publish still atomic,
 *       but no fsync, which is what lance-core's local store does. The like-for-like comparison.
 *   <li>{@link #lancetNoneUnverified}: {@link #lancetNone} with {@code verifyNewFiles(false)}: the
 *       difference is what looking up the new data file before publishing costs.
 *   <li>{@link #lanceCore}: {@code Dataset.open} (latest version, fresh session) + {@code
 *       newTransactionBuilder().operation(Append of the same FragmentMetadata).build().commit()}.
 * </ul>
 *
 * After every invocation the table is put back as it was ({@link CommitFixture#reset}, not
 * measured), so each commit goes from version 1 ({@code fragments} fragments) to version 2.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "-Xms2g",
      "-Xmx2g",
      "-XX:+AlwaysPreTouch"
    })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CommitLatencyBenchmark {

  /** Fragments in the table before the append. */
  @Param({"100"})
  public int fragments;

  private Path scratch;
  private CommitFixture fixture;
  private BufferAllocator allocator;
  private ReadOptions readOptions;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    scratch = Files.createTempDirectory("lancet-bench-commit-");
    allocator = new RootAllocator();
    readOptions = new ReadOptions.Builder().build();
    fixture = CommitFixture.create(scratch, "commit-" + fragments, fragments, allocator);
    // Both sides must produce the same table before anything is measured.
    CommitResult ours = fixture.commitWithLancet(Durability.SYNC);
    List<Fragment> lancetView = check(fixture.baseVersion + 1);
    fixture.reset();
    long theirs = fixture.commitWithLance(allocator, readOptions);
    List<Fragment> lanceView = check(fixture.baseVersion + 1);
    fixture.reset();
    if (ours.version() != theirs || !lancetView.equals(lanceView)) {
      throw new IllegalStateException("Lancet and lance-core committed different tables: "
          + "versions " + ours.version() + " / " + theirs + ", new fragment "
          + lancetView.get(lancetView.size() - 1) + " / " + lanceView.get(lanceView.size() - 1));
    }
  }

  /**
   * Checks with both libraries that {@code version} is the latest with {@code fragments + 1}
   * fragments, the last one holding the pre-written data file; returns the fragments without
   * their writer-specific parts (version metadata) for comparison.
   */
  private List<Fragment> check(long version) {
    try (Dataset ds = Dataset.open().allocator(allocator).uri(fixture.uri).readOptions(readOptions)
        .build()) {
      if (ds.version() != version || ds.getFragments().size() != fragments + 1
          || ds.countRows() != fragments + CommitFixture.APPEND_ROWS) {
        throw new IllegalStateException("lance-core sees version " + ds.version() + " with "
            + ds.getFragments().size() + " fragments and " + ds.countRows() + " rows; expected "
            + version + " with " + (fragments + 1) + " fragments");
      }
    }
    try (Table table = Table.open(fixture.uri)) {
      Manifest m = table.latest().manifest();
      Fragment added = m.fragments().get(m.fragments().size() - 1);
      if (m.version() != version || m.fragments().size() != fragments + 1 || added.id() != fragments
          || !added.files().get(0).path().equals(fixture.lancetFile.path())) {
        throw new IllegalStateException("Lancet sees version " + m.version() + " with last fragment "
            + added);
      }
      return m.fragments().stream().map(f -> Fragment.of(f.id(), f.physicalRows(), f.files()))
          .toList();
    }
  }

  @TearDown(Level.Invocation)
  public void resetTable() {
    fixture.reset();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      allocator.close();
    } finally {
      BenchTables.deleteRecursively(scratch);
    }
  }

  /** Lancet with its default durability: file and directory fsyncs on every publish. */
  @Benchmark
  public long lancetSync() {
    return fixture.commitWithLancet(Durability.SYNC).version();
  }

  /** Lancet without fsyncs, as lance-core's local store writes: the like-for-like comparison. */
  @Benchmark
  public long lancetNone() {
    return fixture.commitWithLancet(Durability.NONE).version();
  }

  /** {@link #lancetNone} without looking up the new data file before publishing (the check's cost). */
  @Benchmark
  public long lancetNoneUnverified() {
    return fixture.commitWithLancetUnverified(Durability.NONE).version();
  }

  @Benchmark
  public long lanceCore() {
    return fixture.commitWithLance(allocator, readOptions);
  }

  /**
   * Without JMH: set up, then time commits of each side. Args: [fragments] [rounds]
   * [sync|none|lance|all]: one side alone, e.g. to count its system calls under strace.
   */
  public static void main(String[] args) throws IOException {
    CommitLatencyBenchmark b = new CommitLatencyBenchmark();
    b.fragments = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    String side = args.length > 2 ? args[2] : "all";
    b.setUp();
    try {
      for (int round = 0; round < rounds; round++) {
        long sync = side.equals("all") || side.equals("sync") ? time(b::lancetSync, b) : 0;
        long none = side.equals("all") || side.equals("none") ? time(b::lancetNone, b) : 0;
        long lance = side.equals("all") || side.equals("lance") ? time(b::lanceCore, b) : 0;
        if (round % (rounds / 10 + 1) == 0 || round == rounds - 1) {
          System.out.printf("round %4d  lancet SYNC %6d us  lancet NONE %6d us  lanceCore %6d us%n",
              round, sync / 1000, none / 1000, lance / 1000);
        }
      }
    } finally {
      b.tearDown();
    }
  }

  private static long time(LongSupplier commit, CommitLatencyBenchmark b) {
    long start = System.nanoTime();
    commit.getAsLong();
    long t = System.nanoTime() - start;
    b.resetTable();
    return t;
  }
}
