package dev.lancet.bench;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.DistanceMetric;
import dev.lancet.table.LanceTable;
import dev.lancet.table.Scan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * Exact vector search (issue 27), Lancet vs lance-core 7.0.0 ({@code ScanOptions.nearest} with
 * {@code useIndex(false)}) on the same table in the same run: 1,000,000 rows of 128 float32
 * values ({@code vec}), {@code id} (int64) and {@code cat} ({@code id % 100}), k = 10, L2.
 * A documented harness, not JMH, because the cold case needs a new JVM per call.
 *
 * <ul>
 *   <li>{@code single}: one query vector per call;</li>
 *   <li>{@code batch100}: 100 query vectors: Lancet's one call with all of them
 *       ({@code nearest(column, List, k)}) against lance-core's 100 calls, one per vector
 *       (lance-core 7.0.0's Java API takes one query vector);</li>
 *   <li>{@code prefilter}: one query vector among the 1% of rows {@code cat = 7}, pre-filter.</li>
 * </ul>
 *
 * <p>Wall time is reported with the process's CPU time per call beside it (all threads, Java
 * and native, so lance-core's Rust threads count): on a shared machine the CPU time is the
 * steadier figure.
 *
 * <p>Warm: one JVM, the two sides alternating (which goes first alternates too), warm-up runs
 * first ({@code -Dwarmup}, default 5), then {@code runs} measured; each run checks both sides
 * found the same row ids. Cold: every call in a new JVM (this class's {@code once} mode) that
 * opens the table, searches and reads the result; the time is measured inside that JVM from
 * before the open to the last batch read (JVM start-up left out, reported separately as the
 * process's wall time). The OS page cache is warm in both (the table is read once first).
 *
 * <pre>
 * mvn -B -Pbench -pl lancet-bench -am package -DskipTests
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx6g -cp lancet-bench/target/lancet-bench.jar \
 *     dev.lancet.bench.VectorSearchHarness /tmp/vector-bench warm,cold single,batch100,prefilter 10
 * </pre>
 */
public final class VectorSearchHarness {
  static final int ROWS = Integer.getInteger("rows", 1_000_000);
  static final int DIM = 128;
  static final int K = 10;
  static final int WARMUP = Integer.getInteger("warmup", 5);
  static final String FILTER = "cat = 7";

  private VectorSearchHarness() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    if (args[1].equals("once")) {
      once(dir, args[2], args[3], Long.parseLong(args[4]));
      return;
    }
    List<String> modes = List.of(args[1].split(","));
    List<String> workloads = List.of(args[2].split(","));
    int runs = Integer.parseInt(args[3]);
    Path table = ensureTable(dir);
    System.out.printf(Locale.ROOT, "table %s: %,d rows x %d float32, k=%d, %d cores%n", table,
        ROWS, DIM, K, Runtime.getRuntime().availableProcessors());
    for (String w : workloads) {
      if (modes.contains("warm")) {
        warm(table, w, runs);
      }
      if (modes.contains("cold")) {
        cold(table, w, runs);
      }
    }
  }

  static Path ensureTable(Path dir) throws IOException {
    Path table = dir.resolve("vectors-" + ROWS);
    if (Files.exists(table.resolve("_versions")) || Files.exists(table.resolve("_latest.manifest"))) {
      return table;
    }
    Files.createDirectories(dir);
    long t0 = System.nanoTime();
    try (BufferAllocator a = new RootAllocator(); Rows rows = new Rows(a, ROWS);
        LanceTable t = LanceTable.create(table.toString(), rows, CreateOptions.defaults())) {
      System.out.printf(Locale.ROOT, "created %s (%d fragments) in %.1f s%n", table,
          t.newScan().planTasks().size(), (System.nanoTime() - t0) / 1e9);
    }
    return table;
  }

  /** The table's rows: vectors uniform in [-1, 1) from a fixed seed. */
  static final class Rows extends ArrowReader {
    static final Schema SCHEMA = new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.notNullable("cat", new ArrowType.Int(32, true)),
        new Field("vec", FieldType.notNullable(new ArrowType.FixedSizeList(DIM)), List.of(
            Field.notNullable("item",
                new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));
    private final int total;
    private final SplittableRandom rnd = new SplittableRandom(42);
    private int next;

    Rows(BufferAllocator a, int total) {
      super(a);
      this.total = total;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (next >= total) {
        return false;
      }
      int n = Math.min(65_536, total - next);
      VectorSchemaRoot root = getVectorSchemaRoot();
      BigIntVector id = (BigIntVector) root.getVector("id");
      IntVector cat = (IntVector) root.getVector("cat");
      FixedSizeListVector vec = (FixedSizeListVector) root.getVector("vec");
      id.allocateNew(n);
      cat.allocateNew(n);
      vec.setInitialCapacity(n);
      vec.allocateNew();
      Float4Vector values = (Float4Vector) vec.getDataVector();
      values.allocateNew(n * DIM);
      for (int r = 0; r < n; r++) {
        id.set(r, next + r);
        cat.set(r, (next + r) % 100);
        vec.setNotNull(r);
        for (int j = 0; j < DIM; j++) {
          values.set(r * DIM + j, (float) (rnd.nextDouble() * 2 - 1));
        }
      }
      values.setValueCount(n * DIM);
      id.setValueCount(n);
      cat.setValueCount(n);
      vec.setValueCount(n);
      root.setRowCount(n);
      next += n;
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

  /** The query vectors of run {@code run}: {@code n} vectors from a seed of their own. */
  static List<float[]> queries(long run, int n) {
    SplittableRandom rnd = new SplittableRandom(1000 + run);
    List<float[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] q = new float[DIM];
      for (int j = 0; j < DIM; j++) {
        q[j] = (float) (rnd.nextDouble() * 2 - 1);
      }
      out.add(q);
    }
    return out;
  }

  static int queryCount(String workload) {
    return workload.equals("batch100") ? 100 : 1;
  }

  /** Lancet's search: the row ids found, per query. */
  static List<long[]> lancet(LanceTable t, String workload, List<float[]> qs) throws IOException {
    Scan s;
    if (qs.size() == 1) {
      s = t.newScan().select("id").nearest("vec", qs.get(0), K).withRowId().useIndex(false);
    } else {
      s = t.newScan().select("id").nearest("vec", qs, K).withRowId().useIndex(false);
    }
    s.metric(DistanceMetric.L2);
    if (workload.equals("prefilter")) {
      s.filter(FILTER).prefilter(true);
    }
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < qs.size(); i++) {
      out.add(new long[0]);
    }
    try (ArrowReader r = s.open()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        UInt8Vector ids = (UInt8Vector) root.getVector("_rowid");
        IntVector qi = (IntVector) root.getVector("_query_index");
        long[] found = new long[root.getRowCount()];
        for (int i = 0; i < found.length; i++) {
          found[i] = ids.get(i);
        }
        out.set(qi == null ? 0 : qi.get(0), found);
      }
    }
    return out;
  }

  /** lance-core's search: one call per query vector. */
  @SuppressWarnings("try")
  static List<long[]> lanceCore(Dataset ds, String workload, List<float[]> qs) throws Exception {
    List<long[]> out = new ArrayList<>();
    for (float[] q : qs) {
      Query query = new Query.Builder().setColumn("vec").setKey(q).setK(K).setUseIndex(false)
          .setDistanceType(DistanceType.L2).build();
      ScanOptions.Builder o = new ScanOptions.Builder().nearest(query).withRowId(true)
          .columns(List.of("id"));
      if (workload.equals("prefilter")) {
        o.filter(FILTER).prefilter(true);
      }
      List<Long> found = new ArrayList<>();
      try (LanceScanner sc = ds.newScan(o.build()); ArrowReader r = sc.scanBatches()) {
        while (r.loadNextBatch()) {
          VectorSchemaRoot root = r.getVectorSchemaRoot();
          UInt8Vector ids = (UInt8Vector) root.getVector("_rowid");
          for (int i = 0; i < root.getRowCount(); i++) {
            found.add(ids.get(i));
          }
        }
      }
      out.add(found.stream().mapToLong(Long::longValue).toArray());
    }
    return out;
  }

  static void warm(Path table, String workload, int runs) throws Exception {
    int n = queryCount(workload);
    List<Double> ours = new ArrayList<>();
    List<Double> theirs = new ArrayList<>();
    List<Double> oursCpu = new ArrayList<>();
    List<Double> theirsCpu = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator();
        LanceTable t = LanceTable.open(table.toString());
        Dataset ds = Dataset.open(table.toString(), a)) {
      for (int run = 0; run < WARMUP + runs; run++) {
        List<float[]> qs = queries(run, n);
        boolean lancetFirst = run % 2 == 0;
        double tl = 0;
        double tc = 0;
        double cl = 0;
        double cc = 0;
        List<long[]> l = null;
        List<long[]> c = null;
        for (int side = 0; side < 2; side++) {
          long t0 = System.nanoTime();
          long c0 = cpuNanos();
          if ((side == 0) == lancetFirst) {
            l = lancet(t, workload, qs);
            tl = (System.nanoTime() - t0) / 1e6;
            cl = (cpuNanos() - c0) / 1e6;
          } else {
            c = lanceCore(ds, workload, qs);
            tc = (System.nanoTime() - t0) / 1e6;
            cc = (cpuNanos() - c0) / 1e6;
          }
        }
        for (int i = 0; i < n; i++) {
          if (!Arrays.equals(l.get(i), c.get(i))) {
            throw new IllegalStateException(workload + " run " + run + " query " + i
                + ": Lancet found " + Arrays.toString(l.get(i)) + ", lance-core "
                + Arrays.toString(c.get(i)));
          }
        }
        if (run >= WARMUP) {
          ours.add(tl);
          theirs.add(tc);
          oursCpu.add(cl);
          theirsCpu.add(cc);
        }
      }
    }
    report("warm", workload, ours, theirs);
    System.out.printf(Locale.ROOT, "  warm %s process CPU time per call (every thread, Java and "
        + "native): Lancet median %.0f ms, lance-core median %.0f ms, ratio %.2f%n", workload,
        median(oursCpu), median(theirsCpu), median(oursCpu) / median(theirsCpu));
  }

  static void cold(Path table, String workload, int runs) throws Exception {
    List<Double> ours = new ArrayList<>();
    List<Double> theirs = new ArrayList<>();
    List<Double> oursProc = new ArrayList<>();
    List<Double> theirsProc = new ArrayList<>();
    List<Double> oursCpu = new ArrayList<>();
    List<Double> theirsCpu = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      for (String side : run % 2 == 0 ? List.of("lancet", "lance-core")
          : List.of("lance-core", "lancet")) {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(javaBin(), "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-Xmx4g", "-cp", System.getProperty("java.class.path"),
            VectorSearchHarness.class.getName(), table.getParent().toString(), "once", side,
            workload, String.valueOf(run)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
          throw new IllegalStateException(side + " failed: " + out);
        }
        double proc = (System.nanoTime() - t0) / 1e6;
        double ms = out.lines().filter(x -> x.startsWith("elapsed-ms "))
            .mapToDouble(x -> Double.parseDouble(x.substring(11))).findFirst()
            .orElseThrow(() -> new IllegalStateException(side + " printed no time: " + out));
        double cpu = out.lines().filter(x -> x.startsWith("cpu-ms "))
            .mapToDouble(x -> Double.parseDouble(x.substring(7))).findFirst().orElse(0);
        (side.equals("lancet") ? ours : theirs).add(ms);
        (side.equals("lancet") ? oursCpu : theirsCpu).add(cpu);
        (side.equals("lancet") ? oursProc : theirsProc).add(proc);
      }
    }
    report("cold", workload, ours, theirs);
    System.out.printf(Locale.ROOT, "  cold %s whole process (JVM start-up included): Lancet "
        + "median %.0f ms, lance-core median %.0f ms%n", workload, median(oursProc),
        median(theirsProc));
    System.out.printf(Locale.ROOT, "  cold %s process CPU time of the call (JIT compiler threads "
        + "included): Lancet median %.0f ms, lance-core median %.0f ms, ratio %.2f%n", workload,
        median(oursCpu), median(theirsCpu), median(oursCpu) / median(theirsCpu));
  }

  /** One call in this (new) JVM: open, search, read; prints the time. */
  static void once(Path dir, String side, String workload, long run) throws Exception {
    Path table = dir.resolve("vectors-" + ROWS);
    List<float[]> qs = queries(run, queryCount(workload));
    long t0 = System.nanoTime();
    long c0 = cpuNanos();
    if (side.equals("lancet")) {
      try (LanceTable t = LanceTable.open(table.toString())) {
        lancet(t, workload, qs);
      }
    } else {
      try (BufferAllocator a = new RootAllocator();
          Dataset ds = Dataset.open(table.toString(), a)) {
        lanceCore(ds, workload, qs);
      }
    }
    System.out.printf(Locale.ROOT, "elapsed-ms %.3f%n", (System.nanoTime() - t0) / 1e6);
    System.out.printf(Locale.ROOT, "cpu-ms %.3f%n", (cpuNanos() - c0) / 1e6);
  }

  /** CPU time of the whole process so far (all threads, the JVM's and native ones). */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  static void report(String mode, String workload, List<Double> ours, List<Double> theirs) {
    double mo = median(ours);
    double mt = median(theirs);
    System.out.printf(Locale.ROOT, "%s %-10s Lancet median %8.1f ms (min %8.1f)  lance-core "
        + "median %8.1f ms (min %8.1f)  Lancet/lance-core %.2f  (%d runs)%n", mode, workload, mo,
        ours.stream().mapToDouble(Double::doubleValue).min().orElse(0), mt,
        theirs.stream().mapToDouble(Double::doubleValue).min().orElse(0), mo / mt, ours.size());
  }
}
