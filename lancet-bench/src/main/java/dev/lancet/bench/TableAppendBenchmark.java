package dev.lancet.bench;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.Dataset;
import org.lance.WriteParams;
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
 * Appending 1,000,000 rows ({@code id int64, name string, score float64,
 * embedding fixed_size_list<float32>[128]}, about 540 MB of Arrow data) to an existing table:
 * Lancet's {@code LanceTable.append} (lance-core's file writer through the data-file seam, a
 * Transaction V2 commit) against lance-core's {@code Dataset.write(APPEND)}, from the same
 * prepared batches, each iteration into a fresh table.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xms4g", "-Xmx4g"})
public class TableAppendBenchmark {
  @Param({"1000000"})
  public long rows;

  @Param({"2.1"})
  public String storage;

  private BufferAllocator alloc;
  private List<VectorSchemaRoot> batches;
  private Path root;
  private Path lancet;
  private Path lance;

  @Setup(Level.Trial)
  public void prepare() throws IOException {
    alloc = new RootAllocator();
    batches = TableBenchData.prepare(alloc, rows);
    root = Files.createTempDirectory("lancet-append-bench");
  }

  @Setup(Level.Iteration)
  public void freshTables() throws IOException {
    lancet = root.resolve("lancet-" + System.nanoTime());
    lance = root.resolve("lance-" + System.nanoTime());
    try (LanceTable t = LanceTable.create(lancet.toString(), TableBenchData.schema(),
        CreateOptions.builder().storageVersion(storage).build())) {
      t.version();
    }
    try (org.apache.arrow.vector.ipc.ArrowReader empty = TableBenchData.replay(alloc, List.of());
        Dataset ds = Dataset.write().allocator(alloc).reader(empty).uri(lance.toString())
            .mode(WriteParams.WriteMode.CREATE).dataStorageVersion(storage).execute()) {
      ds.version();
    }
  }

  @TearDown(Level.Iteration)
  public void removeTables() throws IOException {
    delete(lancet);
    delete(lance);
  }

  @TearDown(Level.Trial)
  public void release() throws IOException {
    batches.forEach(VectorSchemaRoot::close);
    alloc.close();
    delete(root);
  }

  @Benchmark
  public long lancetAppend() throws IOException {
    try (org.apache.arrow.vector.ipc.ArrowReader data = TableBenchData.replay(alloc, batches);
        LanceTable t = LanceTable.open(lancet.toString())) {
      return t.append(data).version();
    }
  }

  @Benchmark
  public long lanceCoreAppend() throws IOException {
    try (org.apache.arrow.vector.ipc.ArrowReader data = TableBenchData.replay(alloc, batches);
        Dataset ds = Dataset.write().allocator(alloc).reader(data).uri(lance.toString())
            .mode(WriteParams.WriteMode.APPEND).execute()) {
      return ds.version();
    }
  }

  static void delete(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
