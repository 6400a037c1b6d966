package dev.lancet.bench;

import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.expr.Predicate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
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
 * The filter evaluator ({@code dev.lancet.table.expr}) over 1,000,000 rows in 8,192-row Arrow
 * batches ({@code id int64}, {@code x int32} 0..999 with 10% nulls, {@code name utf8} with 10%
 * nulls), for three predicates, next to lance-core 7.0.0 scanning the same rows from a table it
 * wrote, with the same filter.
 *
 * <ul>
 *   <li>{@link #lancet}: evaluate the bound predicate on every in-memory batch (selection
 *       bitmaps; the data is already in memory).
 *   <li>{@link #lanceCoreFilter}: lance-core's {@code scan(filter)} (projecting {@code id}),
 *       counting the rows: reads, decodes and filters.
 *   <li>{@link #lanceCoreScan}: lance-core scanning the predicate's columns without a filter;
 *       the read cost to subtract from {@link #lanceCoreFilter} for its filter-only time.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xms2g", "-Xmx2g",
        "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FilterBenchmark {

  static final int ROWS = 1_000_000;
  static final int BATCH = 8_192;

  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("x", new ArrowType.Int(32, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  /** numeric: a comparison; compound: AND/OR with arithmetic; like: a LIKE prefix. */
  @Param({"numeric", "compound", "like"})
  public String predicate;

  private BufferAllocator alloc;
  private List<VectorSchemaRoot> batches;
  private BoundPredicate bound;
  private String sql;
  private Path dir;
  private Dataset dataset;

  static String sql(String name) {
    return switch (name) {
      case "numeric" -> "x > 500";
      case "compound" -> "(x > 100 AND x < 200) OR (id % 7 = 0 AND x IS NOT NULL)";
      case "like" -> "name LIKE 'a1%'";
      default -> throw new IllegalArgumentException(name);
    };
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    alloc = new RootAllocator();
    batches = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(42);
    for (int start = 0; start < ROWS; start += BATCH) {
      int n = Math.min(BATCH, ROWS - start);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      IntVector x = (IntVector) root.getVector("x");
      VarCharVector name = (VarCharVector) root.getVector("name");
      for (int i = 0; i < n; i++) {
        id.setSafe(i, start + i);
        if (rnd.nextInt(10) == 0) {
          x.setNull(i);
        } else {
          x.setSafe(i, rnd.nextInt(1000));
        }
        if (rnd.nextInt(10) == 0) {
          name.setNull(i);
        } else {
          String s = (char) ('a' + rnd.nextInt(4)) + Integer.toString(rnd.nextInt(100_000));
          name.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(n);
      batches.add(root);
    }
    sql = sql(predicate);
    bound = Predicate.parse(sql).bind(SCHEMA);
    dir = Files.createTempDirectory("lancet-filter-bench");
    try (ArrowReader reader = new BatchReader(alloc, batches)) {
      Dataset.write().allocator(alloc).reader(reader)
          .uri(dir.resolve("t").toAbsolutePath().toString()).execute().close();
    }
    dataset = Dataset.open().allocator(alloc).uri(dir.resolve("t").toAbsolutePath().toString())
        .build();
    long a = lancet();
    long b = lanceCoreFilter();
    if (a != b) {
      throw new IllegalStateException(sql + ": Lancet selects " + a + " rows, lance-core " + b);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    dataset.close();
    for (VectorSchemaRoot r : batches) {
      r.close();
    }
    alloc.close();
    BenchTables.deleteRecursively(dir);
  }

  @Benchmark
  public long lancet() {
    long selected = 0;
    for (VectorSchemaRoot root : batches) {
      selected += bound.selection(root).getLongCardinality();
    }
    return selected;
  }

  @Benchmark
  public long lanceCoreFilter() {
    return count(new ScanOptions.Builder().columns(List.of("id")).filter(sql)
        .batchSize(BATCH).build());
  }

  @Benchmark
  public long lanceCoreScan() {
    return count(new ScanOptions.Builder().columns(List.copyOf(bound.columns()))
        .batchSize(BATCH).build());
  }

  @SuppressWarnings("try")
  private long count(ScanOptions options) {
    long rows = 0;
    try (LanceScanner scanner = dataset.newScan(options);
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }

  /** Hands the in-memory batches to lance-core (buffers stay Java-allocated and aligned). */
  static final class BatchReader extends ArrowReader {
    private final List<VectorSchemaRoot> batches;
    private int next;

    BatchReader(BufferAllocator alloc, List<VectorSchemaRoot> batches) {
      super(alloc);
      this.batches = batches;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (next == batches.size()) {
        return false;
      }
      try (ArrowRecordBatch b = new VectorUnloader(batches.get(next++)).getRecordBatch()) {
        loadRecordBatch(b);
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return SCHEMA;
    }
  }
}
