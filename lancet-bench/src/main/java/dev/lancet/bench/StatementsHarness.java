package dev.lancet.bench;

import dev.lancet.datafile.lance.ReplayReader;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.compaction.CompactionOptions;
import org.lance.merge.MergeInsertParams;
import org.lance.merge.MergeInsertResult;

/**
 * The row-level statements side by side with lance-core 7.0.0 in one JVM (a documented harness,
 * not JMH: every run needs a fresh copy of the table, and one run takes seconds). For each
 * workload, each run copies the base table twice, runs Lancet's statement on one copy and
 * lance-core's operation with the same effect on the other (alternating which goes first), checks
 * both leave the same row count, and records the wall time and the process's peak resident set
 * growth during the operation (sampled every 5 ms, so lance-core's native memory counts) and the
 * peak Java heap (the heap pools' peaks summed after a GC and a reset; an upper bound, as the
 * pools peak at different moments; it includes the live heap before the operation).
 * The first runs warm up the JIT and the page cache and are not reported: at least 3 (or
 * -Dwarmup=N), then on until five runs in a row leave the JIT compiling for at most 20 ms in all
 * (-DjitQuietMs),
 * at most 150 (-DmaxWarmup); the report says how many it took and how much the JIT compiled
 * during the measured runs.
 *
 * <ul>
 *   <li>{@code delete}: 1,000,000 rows (10 fragments), delete 10% by {@code x < 100}: Lancet's
 *       {@code delete} vs {@code Dataset.delete}.</li>
 *   <li>{@code update}: update 10% ({@code x >= 100 AND x < 200}: {@code score = score * 2}):
 *       Lancet's {@code update} vs lance-core's merge insert (update all, insert nothing) of
 *       the same 100,000 updated rows, prepared in memory beforehand (lance-core 7.0.0's Java
 *       API has no update by predicate; its time leaves out finding and changing the rows).</li>
 *   <li>{@code merge}: merge insert 100,000 rows, half matched (every 20th id of the table)
 *       and half new: update all, insert all.</li>
 *   <li>{@code compact}: 1,000 fragments of 1,000 rows into 1,048,576-row fragments.</li>
 *   <li>{@code concurrent}: 4 writer threads, 5 merge inserts each of 10,000 rows (5,000 matched
 *       in a key range all writers share, 5,000 new of the writer's own): aggregate rows/s, and
 *       Lancet's re-plans against lance-core's attempts (both count the statement's executions
 *       after the first). Each run's final state is checked against the model: no duplicate
 *       key, every writer's inserts present, each round's shared keys all carrying one writer's
 *       values (no lost update). {@code -Dlancet.bench.conflicts=true} prints Lancet's
 *       collisions; {@code -Dlancet.bench.replanBackoff=true} makes Lancet's re-plans wait
 *       ({@code replanBackoff(true)}, decision 0024).</li>
 *   <li>{@code concurrent-composite}: the same with the Lancet copy set to
 *       {@code lancet.write_form = composite} (decision 0023).</li>
 * </ul>
 *
 * <pre>
 * mvn -B -Pbench -pl lancet-bench -am package -DskipTests
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx4g -cp lancet-bench/target/lancet-bench.jar \
 *     dev.lancet.bench.StatementsHarness delete,update,merge,compact,concurrent 5
 * </pre>
 */
public final class StatementsHarness {
  static final int ROWS = 1_000_000;
  static final int WARMUP = Integer.getInteger("warmup", 3);
  static final long JIT_QUIET_MS = Long.getLong("jitQuietMs", 20);
  static final int QUIET_RUNS = 5;
  static final int MAX_WARMUP = Integer.getInteger("maxWarmup", 150);
  static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("x", new ArrowType.Int(32, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE),
      Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  private StatementsHarness() {}

  /** A scattered 0..999 value per id. */
  static int x(long id) {
    return (int) ((id * 7919) % 1000);
  }

  /** Rows with the ids {@code ids} accepts from {@code [from, to)}, {@code score} as given. */
  static final class Rows extends ArrowReader {
    private final long to;
    private final LongPredicate ids;
    private final double scoreFactor;
    private long next;

    Rows(BufferAllocator a, long from, long to, LongPredicate ids, double scoreFactor) {
      super(a);
      this.next = from;
      this.to = to;
      this.ids = ids;
      this.scoreFactor = scoreFactor;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      VectorSchemaRoot root = getVectorSchemaRoot();
      root.allocateNew();
      // Looked up once per batch: both sides read this source, so its cost is kept small.
      BigIntVector idv = (BigIntVector) root.getVector("id");
      IntVector xv = (IntVector) root.getVector("x");
      VarCharVector namev = (VarCharVector) root.getVector("name");
      Float8Vector scorev = (Float8Vector) root.getVector("score");
      int n = 0;
      while (next < to && n < 8192) {
        long id = next++;
        if (!ids.test(id)) {
          continue;
        }
        idv.setSafe(n, id);
        xv.setSafe(n, x(id));
        namev.setSafe(n, ("name-" + id).getBytes(StandardCharsets.UTF_8));
        scorev.setSafe(n, id * 0.5 * scoreFactor);
        n++;
      }
      root.setRowCount(n);
      return n > 0;
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

    @Override
    public void close() {
      try {
        super.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** One side's measurement. */
  record Run(double seconds, long rssGrowth, long peakHeap, long rows) {}

  interface Op {
    long run(Path table) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    List<String> which = Arrays.asList((args.length > 0 ? args[0]
        : "delete,update,merge,compact,concurrent").split(","));
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path work = Files.createTempDirectory("lancet-statements-bench");
    try (BufferAllocator alloc = new RootAllocator()) {
      Path big = work.resolve("base-1m");
      write(alloc, big, 100_000);
      Path small = work.resolve("base-1000x1000");
      if (which.contains("compact")) {
        write(alloc, small, 1_000);
      }
      if (which.contains("delete")) {
        compare(work, big, runs, "delete 10% (x < 100)",
            t -> statement(t, l -> l.delete("x < 100")),
            t -> lance(t, ds -> ds.delete("x < 100")));
      }
      if (which.contains("update")) {
        List<VectorSchemaRoot> updated = materialize(alloc, new Rows(alloc, 0, ROWS,
            id -> x(id) >= 100 && x(id) < 200, 2.0));
        compare(work, big, runs, "update 10% (score = score * 2)",
            t -> statement(t, l -> l.newUpdate().where("x >= 100 AND x < 200")
                .set("score", "score * 2").commit()),
            t -> lance(t, ds -> merge(alloc, ds,
                new ReplayReader(alloc, SCHEMA, updated, false), false)));
        updated.forEach(VectorSchemaRoot::close);
      }
      if (which.contains("merge")) {
        compare(work, big, runs, "merge insert 100,000 rows (half matched)",
            t -> statement(t, l -> {
              Rows src = source(alloc);
              try {
                return l.mergeInsert("id").whenMatchedUpdateAll().from(src).commit();
              } finally {
                src.close();
              }
            }),
            t -> lance(t, ds -> {
              try (Rows src = source(alloc)) {
                merge(alloc, ds, src, true);
              }
            }));
      }
      if (which.contains("compact")) {
        compare(work, small, runs, "compact 1,000 fragments of 1,000 rows",
            t -> {
              try (LanceTable l = LanceTable.open(t.toString())) {
                CompactionResult r = l.compact().commit();
                if (r.fragmentsRemoved() != 1000) {
                  throw new IllegalStateException("compacted " + r.fragmentsRemoved());
                }
                return l.countRows();
              }
            },
            t -> lance(t, ds -> ds.compact(CompactionOptions.builder()
                .withTargetRowsPerFragment(1024 * 1024).build())));
      }
      if (which.contains("concurrent")) {
        concurrent(alloc, work, big, runs, false);
      }
      if (which.contains("concurrent-composite")) {
        concurrent(alloc, work, big, runs, true);
      }
    } finally {
      BenchTables.deleteRecursively(work);
    }
  }

  static Rows source(BufferAllocator alloc) {
    // Rows.close() cannot fail (no read source), so callers need not handle IOException.
    // 50,000 matched (every 20th id) and 50,000 new (1,000,000 .. 1,049,999).
    return new Rows(alloc, 0, ROWS + 50_000, id -> id >= ROWS || id % 20 == 0, 3.0);
  }

  static long statement(Path t, java.util.function.Function<LanceTable, Object> body) {
    try (LanceTable l = LanceTable.open(t.toString())) {
      Object r = body.apply(l);
      if (r instanceof StatementResult s && !s.committed()) {
        throw new IllegalStateException("nothing committed");
      }
      return l.countRows();
    }
  }

  interface DatasetOp {
    void run(Dataset ds) throws Exception;
  }

  static long lance(Path t, DatasetOp body) throws Exception {
    try (BufferAllocator a = new RootAllocator();
        Dataset ds = Dataset.open().allocator(a).uri(t.toAbsolutePath().toString()).build()) {
      body.run(ds);
    }
    try (BufferAllocator a = new RootAllocator();
        Dataset ds = Dataset.open().allocator(a).uri(t.toAbsolutePath().toString()).build()) {
      return ds.countRows();
    }
  }

  static MergeInsertResult merge(BufferAllocator alloc, Dataset ds, ArrowReader source,
      boolean insert) throws Exception {
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
      Data.exportArrayStream(alloc, source, stream);
      MergeInsertResult r = ds.mergeInsert(new MergeInsertParams(List.of("id"))
          .withMatchedUpdateAll().withNotMatched(insert ? MergeInsertParams.WhenNotMatched.InsertAll
              : MergeInsertParams.WhenNotMatched.DoNothing), stream);
      r.dataset().close();
      return r;
    }
  }

  static void compare(Path work, Path base, int runs, String what, Op lancet, Op lanceCore)
      throws Exception {
    // Warm-up runs (JIT, page cache): at least WARMUP, then on until the last QUIET_RUNS left the
    // JIT compiling for at most JIT_QUIET_MS in all (on 2 cores, C2 compiling beside the measured work takes
    // a core from Lancet; lance-core's code is compiled ahead of time), at most MAX_WARMUP.
    int warm = 0;
    long[] jit = new long[QUIET_RUNS]; // the JIT's time in each of the last QUIET_RUNS runs
    long lastJit;
    do {
      long before = jitMillis();
      pair(work, base, what, lancet, lanceCore, warm);
      jit[warm % QUIET_RUNS] = jitMillis() - before;
      lastJit = java.util.Arrays.stream(jit).sum();
      warm++;
    } while (warm < Math.max(WARMUP, QUIET_RUNS)
        || (lastJit > JIT_QUIET_MS && warm < MAX_WARMUP));
    List<Run> ours = new ArrayList<>();
    List<Run> theirs = new ArrayList<>();
    long jitBefore = jitMillis();
    for (int i = 1; i <= runs; i++) {
      Run[] r = pair(work, base, what, lancet, lanceCore, i);
      ours.add(r[0]);
      theirs.add(r[1]);
    }
    report(what, ours, theirs);
    System.out.printf(Locale.ROOT, "  (%d warm-up runs, the last " + QUIET_RUNS + " with %d ms of "
        + "JIT compilation; "
        + "%d ms of JIT compilation during the measured runs)%n", warm, lastJit,
        jitMillis() - jitBefore);
  }

  /** The JVM's JIT compilation time so far, in milliseconds. */
  static long jitMillis() {
    return java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
  }

  /** One run of each side on a fresh copy of {@code base}, alternating which goes first. */
  static Run[] pair(Path work, Path base, String what, Op lancet, Op lanceCore, int i)
      throws Exception {
    Path a = copy(base, work.resolve("a"));
    Path b = copy(base, work.resolve("b"));
    Run x;
    Run y;
    if (i % 2 == 0) {
      x = measure(() -> lancet.run(a));
      y = measure(() -> lanceCore.run(b));
    } else {
      y = measure(() -> lanceCore.run(b));
      x = measure(() -> lancet.run(a));
    }
    if (x.rows() != y.rows()) {
      throw new IllegalStateException(what + ": Lancet leaves " + x.rows() + " rows, "
          + "lance-core " + y.rows());
    }
    BenchTables.deleteRecursively(a);
    BenchTables.deleteRecursively(b);
    return new Run[] {x, y};
  }

  static void report(String what, List<Run> ours, List<Run> theirs) {
    double a = median(ours.stream().mapToDouble(Run::seconds).toArray());
    double b = median(theirs.stream().mapToDouble(Run::seconds).toArray());
    double ma = median(ours.stream().mapToDouble(r -> r.rssGrowth() / 1048576.0).toArray());
    double mb = median(theirs.stream().mapToDouble(r -> r.rssGrowth() / 1048576.0).toArray());
    double ha = median(ours.stream().mapToDouble(r -> r.peakHeap() / 1048576.0).toArray());
    double hb = median(theirs.stream().mapToDouble(r -> r.peakHeap() / 1048576.0).toArray());
    System.out.printf(Locale.ROOT, "%-45s Lancet %7.3f s  lance-core %7.3f s  ratio %5.2f   "
        + "peak RSS growth Lancet %6.0f MB  lance-core %6.0f MB   peak heap Lancet %6.0f MB  "
        + "lance-core %6.0f MB   (median of %d; Lancet runs %s; lance-core runs %s)%n", what, a,
        b, a / b, ma, mb, ha, hb, ours.size(), seconds(ours), seconds(theirs));
  }

  static String seconds(List<Run> runs) {
    List<String> out = new ArrayList<>();
    runs.forEach(r -> out.add(String.format(Locale.ROOT, "%.2f", r.seconds())));
    return String.join(" ", out);
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /**
   * Times {@code op} while a sampler thread records the process's resident set every 5 ms; the
   * growth is the highest sample less the resident set before (lance-core's native memory and
   * the JVM's heap and direct buffers alike).
   */
  static Run measure(java.util.concurrent.Callable<Long> op) throws Exception {
    System.gc();
    List<java.lang.management.MemoryPoolMXBean> heap = new ArrayList<>();
    for (java.lang.management.MemoryPoolMXBean p
        : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == java.lang.management.MemoryType.HEAP) {
        p.resetPeakUsage();
        heap.add(p);
      }
    }
    long before = rss("VmRSS:");
    AtomicLong peak = new AtomicLong(before);
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        peak.accumulateAndGet(rss("VmRSS:"), Math::max);
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.setDaemon(true);
    sampler.start();
    long start = System.nanoTime();
    long rows;
    try {
      rows = op.call();
    } finally {
      sampler.interrupt();
      sampler.join();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    peak.accumulateAndGet(rss("VmRSS:"), Math::max);
    long peakHeap = 0;
    for (java.lang.management.MemoryPoolMXBean p : heap) {
      peakHeap += p.getPeakUsage().getUsed();
    }
    return new Run(seconds, Math.max(0, peak.get() - before), peakHeap, rows);
  }

  static final int WRITERS = 4;
  static final int ROUNDS = 5;

  /** Writer {@code w}'s score factor: every writer writes its own values, so the state shows who won. */
  static double factor(int writer) {
    return 5.0 + writer;
  }

  /**
   * 4 writers x 5 merge inserts. In round r every writer updates the same 5,000 keys (every 20th
   * id of [r * 100,000, r * 100,000 + 100,000), that is, rows of base fragment r) and inserts 5,000
   * keys of its own. {@code composite}: the Lancet copy is set to {@code lancet.write_form =
   * composite} first (decision 0023); otherwise it stays in the default legacy form.
   */
  static void concurrent(BufferAllocator alloc, Path work, Path base, int runs, boolean composite)
      throws Exception {
    boolean log = Boolean.getBoolean("lancet.bench.conflicts");
    boolean backoff = Boolean.getBoolean("lancet.bench.replanBackoff");
    for (int i = 0; i <= runs; i++) {
      for (boolean lancet : List.of(i % 2 == 0, i % 2 != 0)) { // who goes first alternates
        Path t = copy(base, work.resolve("c"));
        if (lancet && composite) {
          try (LanceTable l = LanceTable.open(t.toString())) {
            l.newTransaction().setConfig("lancet.write_form", "composite").commit();
          }
        }
        CyclicBarrier start = new CyclicBarrier(WRITERS);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        AtomicLong extra = new AtomicLong();
        java.util.concurrent.ConcurrentLinkedQueue<String> conflicts =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<Future<Long>> futures = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          futures.add(pool.submit(() -> {
            long rows = 0;
            start.await();
            for (int r = 0; r < ROUNDS; r++) {
              long shared = (long) r * 100_000;
              long own = 2_000_000L + (writer * ROUNDS + r) * 5_000L;
              int round = r;
              try (BufferAllocator a = new RootAllocator();
                  Rows src = new Rows(a, shared, own + 5_000, id -> id < shared + 100_000
                      ? id % 20 == 0 : id >= own, factor(writer))) {
                if (lancet) {
                  long s0 = System.nanoTime();
                  StringBuilder gaps = new StringBuilder();
                  long[] last = {s0};
                  try (LanceTable l = LanceTable.open(t.toString())) {
                    StatementResult res = l.mergeInsert("id").whenMatchedUpdateAll()
                        .maxReplans(100).replanBackoff(backoff).onAttempt(at -> {
                          long now = System.nanoTime();
                          gaps.append(String.format(Locale.ROOT, " %s +%.0f ms",
                              at.outcome(), (now - last[0]) / 1e6));
                          last[0] = now;
                          if (log && at.outcome() == dev.lancet.table.Attempt.Outcome.CONFLICT) {
                            conflicts.add(String.format(Locale.ROOT, "%.3f w%d r%d: %s",
                                (now - t0) / 1e9, writer, round, at.detail()));
                          }
                        }).from(src).commit();
                    if (log) {
                      conflicts.add(String.format(Locale.ROOT, "%.3f w%d r%d statement:%s",
                          (System.nanoTime() - t0) / 1e9, writer, round, gaps));
                    }
                    extra.addAndGet(res.plans() - 1);
                    rows += res.rowsInserted() + res.rowsUpdated();
                  }
                } else {
                  try (Dataset ds = Dataset.open().allocator(a)
                      .uri(t.toAbsolutePath().toString()).build()) {
                    MergeInsertResult res;
                    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(a)) {
                      Data.exportArrayStream(a, src, stream);
                      res = ds.mergeInsert(new MergeInsertParams(List.of("id"))
                          .withMatchedUpdateAll().withConflictRetries(100)
                          .withNotMatched(MergeInsertParams.WhenNotMatched.InsertAll), stream);
                    }
                    extra.addAndGet(res.stats().numAttempts() - 1);
                    rows += res.stats().numInsertedRows() + res.stats().numUpdatedRows();
                    res.dataset().close();
                  }
                }
              }
            }
            return rows;
          }));
        }
        long rows = 0;
        for (Future<Long> f : futures) {
          rows += f.get();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        String state = checkConcurrent(t);
        System.gc(); // the check's garbage is not the next run's to collect
        if (i > 0) {
          System.out.printf(Locale.ROOT, "concurrent merge insert%s, %d writers x %d: %-10s "
              + "%7.3f s  %8.0f rows/s  retries/re-plans %d  %s%n",
              lancet && composite ? " (composite)" : "", WRITERS, ROUNDS,
              lancet ? "Lancet" : "lance-core", seconds, rows / seconds, extra.get(), state);
          conflicts.forEach(c -> System.out.println("  conflict " + c));
        }
        BenchTables.deleteRecursively(t);
      }
    }
  }

  /**
   * Checks a concurrent run's final state against the model (read by Lancet, whichever side
   * wrote): 1,100,000 rows, no key twice, every writer's own 25,000 keys with that writer's
   * values, and every round's 5,000 shared keys carrying one writer's values (each merge insert
   * updates all of them, so any serial order leaves one writer's values on all; a mix would be a
   * lost update). Throws on a violation; returns which writer won each round.
   */
  static String checkConcurrent(Path t) throws IOException {
    // ids are [0, ROWS) and the writers' own [2,000,000, 2,000,000 + 100,000): primitive arrays,
    // not a boxed map, so the check leaves little garbage for the next run's Java side
    int inserts = WRITERS * ROUNDS * 5_000;
    double[] score = new double[ROWS + inserts];
    java.util.BitSet seen = new java.util.BitSet(ROWS + inserts);
    long rows = 0;
    try (LanceTable l = LanceTable.open(t.toString());
        BufferAllocator a = new RootAllocator();
        ArrowReader r = l.newScan().select("id", "score").open(a)) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) root.getVector("id");
        Float8Vector sc = (Float8Vector) root.getVector("score");
        for (int k = 0; k < root.getRowCount(); k++) {
          rows++;
          long v = id.get(k);
          int slot = v < ROWS ? (int) v : (int) (v - 2_000_000L + ROWS);
          if (v < 0 || (v >= ROWS && (v < 2_000_000L || v >= 2_000_000L + inserts))) {
            throw new IllegalStateException("unexpected key " + v + " in " + t);
          }
          if (seen.get(slot)) {
            throw new IllegalStateException("duplicate key " + v + " in " + t);
          }
          seen.set(slot);
          score[slot] = sc.get(k);
        }
      }
    }
    if (rows != ROWS + WRITERS * ROUNDS * 5_000L) {
      throw new IllegalStateException(rows + " rows, expected "
          + (ROWS + WRITERS * ROUNDS * 5_000L));
    }
    for (int w = 0; w < WRITERS; w++) {
      for (long id = 2_000_000L + w * ROUNDS * 5_000L; id < 2_000_000L + (w + 1) * ROUNDS * 5_000L;
          id++) {
        int slot = (int) (id - 2_000_000L + ROWS);
        double s = score[slot];
        if (!seen.get(slot) || s != id * 0.5 * factor(w)) {
          throw new IllegalStateException("writer " + w + "'s key " + id + " lost: " + s);
        }
      }
    }
    StringBuilder winners = new StringBuilder("final rows " + rows + ", round winners");
    for (int r = 0; r < ROUNDS; r++) {
      int winner = -1;
      // id 0 scores 0 whoever wrote it: it names no writer
      for (long id = Math.max(20, (long) r * 100_000); id < (long) r * 100_000 + 100_000;
          id += 20) {
        double s = score[(int) id];
        int by = -1;
        for (int w = 0; w < WRITERS; w++) {
          if (s == id * 0.5 * factor(w)) {
            by = w;
          }
        }
        if (by < 0 || (winner >= 0 && by != winner)) {
          throw new IllegalStateException("round " + r + ": key " + id + " has score " + s
              + (by < 0 ? ", no writer's value" : ", writer " + by + "'s, while others have writer "
              + winner + "'s (a lost update)"));
        }
        winner = by;
      }
      winners.append(' ').append(winner);
    }
    return winners.toString();
  }

  static void write(BufferAllocator alloc, Path dir, int rowsPerFile) throws IOException {
    try (Rows rows = new Rows(alloc, 0, ROWS, id -> true, 1.0)) {
      Dataset.write().allocator(alloc).reader(rows).uri(dir.toAbsolutePath().toString())
          .maxRowsPerFile(rowsPerFile).execute().close();
    }
  }

  static List<VectorSchemaRoot> materialize(BufferAllocator alloc, ArrowReader r)
      throws IOException {
    List<VectorSchemaRoot> out = new ArrayList<>();
    try (r) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot copy = VectorSchemaRoot.create(SCHEMA, alloc);
        try (var rb = new org.apache.arrow.vector.VectorUnloader(r.getVectorSchemaRoot())
            .getRecordBatch()) {
          new org.apache.arrow.vector.VectorLoader(copy).load(rb);
        }
        out.add(copy);
      }
    }
    return out;
  }

  static Path copy(Path from, Path to) throws IOException {
    BenchTables.deleteRecursively(to);
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  private static long rss(String key) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(key)) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return 0;
  }
}
