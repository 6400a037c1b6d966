package dev.lancet.spark.bench;

import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.spark.SparkSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.MetadataBuilder;

import org.lance.WriteParams;
import org.lance.ipc.ScanOptions;

/**
 * The Spark connector's write and read throughput against lance-core in the same JVM
 * (BENCHMARKS.md "Spark connector"). Rows: {@code id int64, name string, score float64,
 * embedding fixed_size_list<float32>[128]}.
 *
 * <ol>
 *   <li>Spark generates the rows and writes them to the {@code noop} sink: what generating them
 *       costs in Spark, on local[1] and local[2];
 *   <li>the same into a Lance table with {@code format("lancet")} on local[1] and local[2];
 *   <li>lance-core's {@code Dataset.create} of the same rows generated as Arrow batches;
 *   <li>reads with a projection ({@code id, score}): Spark over the connector on local[2] against
 *       lance-core's scanner.
 * </ol>
 *
 * Run: {@code java <spark opens> -cp <lancet-spark test class path> dev.lancet.spark.bench.SparkBenchmark DIR ROWS}
 * (BENCHMARKS.md has the full command).
 */
public final class SparkBenchmark {
  private static final int DIM = 128;

  private SparkBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long rows = Long.parseLong(args[1]);
    Files.createDirectories(dir);
    double[] noop = new double[3];
    double[] lancet = new double[3];
    for (int cores : new int[] {1, 2}) {
      SparkSession spark = SparkSession.builder().master("local[" + cores + "]")
          .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
          .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      noop[cores] = rate(rows, () -> frame(spark, rows, cores).write().format("noop").mode("overwrite").save());
      String uri = dir.resolve("spark-local" + cores + ".lance").toString();
      lancet[cores] = rate(rows, () -> frame(spark, rows, cores).write().format("lancet")
          .mode("append").save(uri));
      System.out.printf("local[%d]: generate+noop %.0f rows/s, generate+lancet %.0f rows/s%n",
          cores, noop[cores], lancet[cores]);
      if (cores == 2) {
        double read = rate(rows, () -> {
          Row r = spark.read().format("lancet").load(uri).select("id", "score")
              .agg(functions.sum("id"), functions.sum("score")).first();
          if (r.getLong(0) != rows * (rows - 1) / 2) {
            throw new IllegalStateException("wrong sum " + r);
          }
        });
        System.out.printf("read id,score: Spark local[2] %.0f rows/s%n", read);
        double core = rate(rows, () -> lanceCoreScan(Path.of(uri), rows));
        System.out.printf("read id,score: lance-core scanner %.0f rows/s (Spark/lance-core %.2f)%n",
            core, read / core);
      }
      spark.stop();
    }
    double lance = rate(rows, () -> lanceCoreWrite(dir.resolve("lance-core.lance"), rows));
    System.out.printf("lance-core Dataset.create %.0f rows/s%n", lance);
    System.out.printf("scaling local[2]/local[1] %.2f; Spark local[1]/lance-core %.2f, "
        + "local[2]/lance-core %.2f%n", lancet[2] / lancet[1], lancet[1] / lance, lancet[2] / lance);
  }

  static Dataset<Row> frame(SparkSession spark, long rows, int partitions) {
    Column embedding = functions.expr("transform(sequence(0, " + (DIM - 1)
        + "), i -> cast(id + i as float))");
    return spark.range(0, rows, 1, Math.max(partitions, (int) (rows / 1_000_000)))
        .select(functions.col("id"),
            functions.concat(functions.lit("name-"), functions.col("id").cast("string")).as("name"),
            functions.col("id").multiply(0.25).as("score"),
            embedding.as("embedding", new MetadataBuilder().putLong(SparkSchemas.FIXED_SIZE, DIM)
                .build()));
  }

  private static double rate(long rows, Runnable r) {
    long t = System.nanoTime();
    r.run();
    return rows / ((System.nanoTime() - t) / 1e9);
  }

  /** The same rows as Arrow batches of 8192, written by lance-core in one JVM. */
  static void lanceCoreWrite(Path table, long rows) {
    Schema schema = SparkSchemas.toArrow(frame(SparkSession.builder().master("local[1]")
        .config("spark.ui.enabled", "false").getOrCreate(), 1, 1).schema());
    SparkSession.active().stop();
    try (BufferAllocator a = new RootAllocator();
        ArrowReader reader = new Generated(a, schema, rows);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(a)) {
      Data.exportArrayStream(a, reader, stream);
      try (org.lance.Dataset ds = org.lance.Dataset.create(a, stream, table.toString(),
          new WriteParams.Builder().build())) {
        if (ds.countRows() != rows) {
          throw new IllegalStateException("lance-core wrote " + ds.countRows());
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static void lanceCoreScan(Path table, long rows) {
    long[] sum = new long[1];
    LanceDatasets.withDataset(table, Optional.empty(), ds -> {
      LanceDatasets.scanBatches(ds, new ScanOptions.Builder().columns(List.of("id", "score")).build(),
          root -> {
            BigIntVector id = (BigIntVector) root.getVector("id");
            for (int i = 0; i < root.getRowCount(); i++) {
              sum[0] += id.get(i);
            }
          });
      return null;
    });
    if (sum[0] != rows * (rows - 1) / 2) {
      throw new IllegalStateException("wrong sum " + sum[0]);
    }
  }

  /** Generated batches of the benchmark's rows. */
  private static final class Generated extends ArrowReader {
    private final Schema schema;
    private final long rows;
    private long next;

    Generated(BufferAllocator a, Schema schema, long rows) {
      super(a);
      this.schema = schema;
      this.rows = rows;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
      if (next >= rows) {
        return false;
      }
      VectorSchemaRoot root = getVectorSchemaRoot();
      int n = (int) Math.min(8192, rows - next);
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector name = (VarCharVector) root.getVector("name");
      Float8Vector score = (Float8Vector) root.getVector("score");
      FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
      Float4Vector values = (Float4Vector) emb.getDataVector();
      for (int i = 0; i < n; i++) {
        long v = next + i;
        id.setSafe(i, v);
        name.setSafe(i, ("name-" + v).getBytes());
        score.setSafe(i, v * 0.25);
        emb.setNotNull(i);
        for (int j = 0; j < DIM; j++) {
          values.setSafe(i * DIM + j, v + j);
        }
      }
      root.setRowCount(n);
      next += n;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
    }

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
