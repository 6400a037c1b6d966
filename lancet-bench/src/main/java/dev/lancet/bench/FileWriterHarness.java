package dev.lancet.bench;

import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.file.write.LanceFileWriter;
import dev.lancet.file.write.LocalFileOutput;
import dev.lancet.file.write.WriterOptions;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The file writer alone (a documented harness, not JMH): one data file of N rows of the benchmark
 * shape (id, name, score, embedding[128]) written from the same 8,192-row batches, made once
 * before timing, by the Java writer ({@code dev.lancet.file.write}) and by lance-core 7.0.0's JNI
 * {@code LanceFileWriter}, alternately in the same JVM. The first round of each is "cold"; the
 * median of the later rounds is "warm"; which writer goes first alternates by round. With
 * {@code -Dlancet.bench.dir=/dev/shm} the files are written to memory, which takes the disk's
 * writeback (0.4 to 5 s for 512 MiB on the 2-core box) out of the figures. The Java writer's peak
 * heap above the batches is sampled
 * every 10 ms (one page per column plus a batch is the bound).
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp lancet-bench/target/lancet-bench.jar \
 *     dev.lancet.bench.FileWriterHarness 1000000 6
 * </pre>
 */
public final class FileWriterHarness {
  private FileWriterHarness() {}

  static final int BATCH = 8192;

  static Schema schema() {
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("score", FieldType.nullable(
            new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("embedding", FieldType.nullable(new ArrowType.FixedSizeList(128)),
            List.of(new Field("item", FieldType.notNullable(
                new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
  }

  static VectorSchemaRoot batch(BufferAllocator alloc, long first, int rows, Random rnd) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), alloc);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    Float8Vector score = (Float8Vector) root.getVector("score");
    FixedSizeListVector emb = (FixedSizeListVector) root.getVector("embedding");
    Float4Vector items = (Float4Vector) emb.getDataVector();
    items.setInitialCapacity(rows * 128);
    items.allocateNew();
    for (int i = 0; i < rows; i++) {
      id.setSafe(i, first + i);
      name.setSafe(i, ("name-" + (first + i)).getBytes(StandardCharsets.UTF_8));
      score.setSafe(i, rnd.nextDouble());
      emb.setNotNull(i);
      for (int d = 0; d < 128; d++) {
        items.set(i * 128 + d, rnd.nextFloat());
      }
    }
    items.setValueCount(rows * 128);
    root.setRowCount(rows);
    return root;
  }

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    // "discard": the Java writer encodes but its bytes go nowhere (the encoding cost alone).
    boolean discard = args.length > 2 && args[2].equals("discard");
    // -Dlancet.bench.dir=/dev/shm: files in memory, so the disk's writeback does not decide.
    Path dir = Files.createTempDirectory(Path.of(System.getProperty("lancet.bench.dir",
        System.getProperty("java.io.tmpdir"))), "lancet-file-writer");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    try (BufferAllocator alloc = new RootAllocator()) {
      List<VectorSchemaRoot> batches = new ArrayList<>();
      Random rnd = new Random(1);
      for (long at = 0; at < rows; at += BATCH) {
        batches.add(batch(alloc, at, (int) Math.min(BATCH, rows - at), rnd));
      }
      dev.lancet.format.model.Schema lance = LanceSchemas.toLance(schema(), 0, Optional.empty());
      double[] javaMs = new double[rounds];
      double[] coreMs = new double[rounds];
      long javaSize = 0;
      long coreSize = 0;
      long javaPeak = 0;
      for (int r = 0; r < rounds; r++) {
        if (r % 2 == 1) {
          coreMs[r] = core(dir, r, batches, alloc);
        }
        Path j = dir.resolve("java-" + r + ".lance");
        System.gc();
        long heapBefore = memory.getHeapMemoryUsage().getUsed();
        AtomicLong peak = new AtomicLong();
        Thread sampler = new Thread(() -> {
          while (!Thread.currentThread().isInterrupted()) {
            peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
            try {
              Thread.sleep(10);
            } catch (InterruptedException e) {
              return;
            }
          }
        });
        sampler.setDaemon(true);
        sampler.start();
        long t0 = System.nanoTime();
        try (LanceFileWriter w = LanceFileWriter.open(discard ? new Discard()
            : LocalFileOutput.create(j), lance, WriterOptions.defaults())) {
          for (VectorSchemaRoot b : batches) {
            w.write(b);
          }
          javaSize = w.finish().sizeBytes();
        }
        javaMs[r] = (System.nanoTime() - t0) / 1e6;
        sampler.interrupt();
        sampler.join();
        javaPeak = Math.max(javaPeak, peak.get() - heapBefore);
        Files.deleteIfExists(j);

        if (r % 2 == 0) {
          coreMs[r] = core(dir, r, batches, alloc);
        }
        coreSize = lastCoreSize;
        System.out.printf(Locale.ROOT, "round %d: Java %.0f ms, lance-core %.0f ms%n", r,
            javaMs[r], coreMs[r]);
      }
      double jw = median(Arrays.copyOfRange(javaMs, 1, rounds));
      double cw = median(Arrays.copyOfRange(coreMs, 1, rounds));
      System.out.printf(Locale.ROOT, "%d rows: cold Java %.0f ms / lance-core %.0f ms = %.2f; "
          + "warm (median of %d) Java %.0f ms / lance-core %.0f ms = %.2f%n", rows, javaMs[0],
          coreMs[0], javaMs[0] / coreMs[0], rounds - 1, jw, cw, jw / cw);
      System.out.printf(Locale.ROOT, "file size: Java %d, lance-core %d bytes (%.3f); Java "
          + "writer peak heap above the batches %.1f MiB%n", javaSize, coreSize,
          (double) javaSize / coreSize, javaPeak / 1048576.0);
      for (VectorSchemaRoot b : batches) {
        b.close();
      }
    }
  }

  private static long lastCoreSize;

  /** Writes the batches with lance-core's writer; returns the milliseconds. */
  private static double core(Path dir, int r, List<VectorSchemaRoot> batches,
      BufferAllocator alloc) throws Exception {
    Path c = dir.resolve("core-" + r + ".lance");
    long t0 = System.nanoTime();
    try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(c.toString(),
        alloc, null, Optional.empty(), Map.of())) {
      for (VectorSchemaRoot b : batches) {
        w.write(b);
      }
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    lastCoreSize = Files.size(c);
    Files.delete(c);
    return ms;
  }

  /** An output that counts bytes and keeps none. */
  static final class Discard implements dev.lancet.file.write.FileOutput {
    private long position;

    @Override
    public void write(java.nio.ByteBuffer bytes) {
      position += bytes.remaining();
      bytes.position(bytes.limit());
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void complete(boolean durable) {}

    @Override
    public void abort() {}
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
