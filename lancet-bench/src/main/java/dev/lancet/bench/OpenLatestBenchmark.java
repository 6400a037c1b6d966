package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Open the latest version of a table and decode its manifest, Lancet against lance-core (JNI),
 * in the same JVM and on the same table files.
 *
 * <ul>
 *   <li>{@link #lancet}: {@code Table.open} (lists {@code _versions/}), {@code latest()} (reads
 *       the version hint, probes for a newer version, reads the manifest file, decodes it into the
 *       model, validates it), then touches every fragment.
 *   <li>{@link #lanceCore}: {@code Dataset.open} with no shared {@code Session} (lance-core then
 *       creates a fresh session, so no metadata cache survives between calls; with a shared
 *       session 7.0.0 still re-reads the manifest on every open, its session stays empty), the
 *       Rust side finding the latest version, reading and decoding the manifest; then {@code
 *       getFragments()}, which copies every fragment's metadata into Java objects over JNI, and
 *       touches every fragment.
 *   <li>{@link #lanceCoreOpenOnly}: diagnostic lower bound for lance-core: the same open, but the
 *       fragments never cross JNI (only {@code version()} is read back).
 * </ul>
 *
 * Neither side caches anything across invocations: every call re-reads the directory listing, the
 * hint and the manifest from disk (the OS page cache is warm for both).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 2,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      // A fixed, pre-touched heap: without AlwaysPreTouch every fork spends its whole run
      // faulting in fresh heap pages (eden is not recycled within a short fork), which on a VM
      // costs more than the work measured. See BENCHMARKS.md.
      "-Xms2g",
      "-Xmx2g",
      "-XX:+AlwaysPreTouch"
    })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class OpenLatestBenchmark {

  /** Fragments in the latest manifest. */
  @Param({"1", "1000", "100000"})
  public int fragments;

  /** How the table is built: {@code synthetic} or {@code native}; see {@link BenchTables}. */
  @Param({"synthetic"})
  public String layout;

  private Path scratch;
  private String uri;
  private BufferAllocator allocator;
  private ReadOptions readOptions;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    scratch = Files.createTempDirectory("lancet-bench-");
    allocator = new RootAllocator();
    Path table =
        BenchTables.create(scratch, fragments, BenchTables.Layout.parse(layout), allocator);
    uri = table.toAbsolutePath().toString();
    readOptions = new ReadOptions.Builder().build();
    // Both code paths must agree before anything is measured.
    long a = lancet();
    long b = lanceCore();
    if (a != b) {
      throw new IllegalStateException("Lancet and lance-core disagree on " + uri + ": " + a
          + " vs " + b);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      if (allocator != null) {
        allocator.close();
      }
    } finally {
      BenchTables.deleteRecursively(scratch);
    }
  }

  @Benchmark
  public long lancet() {
    try (Table table = Table.open(uri)) {
      Manifest m = table.latest().manifest();
      return digest(m.fragments().size(), sumLancet(m.fragments()));
    }
  }

  @Benchmark
  public long lanceCore() {
    try (Dataset ds = openWithLance()) {
      List<org.lance.Fragment> fs = ds.getFragments();
      long rows = 0;
      for (org.lance.Fragment f : fs) {
        rows += f.metadata().getPhysicalRows();
      }
      return digest(fs.size(), rows);
    }
  }

  @Benchmark
  public long lanceCoreOpenOnly() {
    try (Dataset ds = openWithLance()) {
      return ds.version();
    }
  }

  /**
   * lance-core's open as a Java user writes it: no {@code Session}, so the native side creates a
   * fresh one (handle 0) and nothing is cached across calls.
   */
  private Dataset openWithLance() {
    return Dataset.open().allocator(allocator).uri(uri).readOptions(readOptions).build();
  }

  private static long sumLancet(List<Fragment> fs) {
    long rows = 0;
    for (Fragment f : fs) {
      rows += f.physicalRows();
    }
    return rows;
  }

  private static long digest(int count, long rows) {
    return count * 1_000_003L + rows;
  }

  /** Runs the benchmark's setup once and prints what each side sees, without JMH. */
  public static void main(String[] args) throws IOException {
    OpenLatestBenchmark b = new OpenLatestBenchmark();
    b.fragments = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    b.layout = args.length > 1 ? args[1] : "synthetic";
    long t0 = System.nanoTime();
    b.setUp();
    System.out.printf("built %s in %d ms%n", b.uri, (System.nanoTime() - t0) / 1_000_000);
    try {
      for (int round = 0; round < 5; round++) {
        long s = System.nanoTime();
        b.lancet();
        long l = System.nanoTime();
        b.lanceCore();
        long o = System.nanoTime();
        b.lanceCoreOpenOnly();
        long e = System.nanoTime();
        System.out.printf("lancet %8d us  lanceCore %8d us  lanceCoreOpenOnly %8d us%n",
            (l - s) / 1000, (o - l) / 1000, (e - o) / 1000);
      }
    } finally {
      b.tearDown();
    }
  }
}
