package dev.lancet.bench;

import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * Scanning the 1,000,000-row benchmark table (written once by lance-core, so both read the same
 * files): every column, and a 2-column projection ({@code id, score}). Lancet's
 * {@code newScan().open()} against lance-core's {@code Dataset.newScan(...).scanBatches()}, both
 * consuming every batch in Java with the same batch size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xms4g", "-Xmx4g"})
public class TableScanBenchmark {
  @Param({"1000000"})
  public long rows;

  @Param({"all", "id,score"})
  public String columns;

  private BufferAllocator alloc;
  private Path dir;
  private LanceTable lancet;
  private Dataset lance;
  private List<String> projection;

  @Setup
  public void prepare() throws IOException {
    alloc = new RootAllocator();
    dir = Files.createTempDirectory("lancet-scan-bench").resolve("t");
    List<VectorSchemaRoot> batches = TableBenchData.prepare(alloc, rows);
    try (org.apache.arrow.vector.ipc.ArrowReader data = TableBenchData.replay(alloc, batches);
        Dataset ds = Dataset.write().allocator(alloc).reader(data).uri(dir.toString())
            .mode(WriteParams.WriteMode.CREATE).execute()) {
      ds.version();
    }
    batches.forEach(VectorSchemaRoot::close);
    projection = columns.equals("all") ? List.of("id", "name", "score", "embedding")
        : List.of(columns.split(","));
    lancet = LanceTable.open(dir.toString());
    lance = Dataset.open().allocator(alloc).uri(dir.toString()).build();
  }

  @TearDown
  public void release() throws IOException {
    lancet.close();
    lance.close();
    alloc.close();
    TableAppendBenchmark.delete(dir.getParent());
  }

  @Benchmark
  public long lancetScan() throws IOException {
    long n = 0;
    try (ArrowReader r = lancet.newScan().select(projection).batchSize(8192).open()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  @Benchmark
  @SuppressWarnings("try")
  public long lanceCoreScan() throws Exception {
    long n = 0;
    try (LanceScanner s = lance.newScan(new ScanOptions.Builder().columns(projection)
            .batchSize(8192).build());
        ArrowReader r = s.scanBatches()) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }
}
