package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.store.s3.S3ProxyServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.SourcedTransaction;
import org.lance.WriteParams;
import org.lance.operation.Append;

/**
 * Lancet against lance-core 7.0.0 on the same s3proxy (in this JVM, in-memory backend, on
 * loopback), in one run, a plain documented harness (not JMH: each measured operation is
 * milliseconds of network round trips, and the request counts are exact):
 *
 * <ol>
 *   <li><b>commit</b>: single-writer append commit latency and requests per commit. Each side
 *       has its own table (100 fragments at the start, one bucket each, so the server counts
 *       each side's requests apart); each round, not timed, writes one fragment with lance-core's
 *       {@code Fragment.create}; timed: open the latest version and commit an Append of it
 *       (Lancet: {@code Table.open} + {@code newTransaction()} + one step + {@code commit()},
 *       a composite commit; lance-core: {@code Dataset.open} + an Append transaction). Rounds
 *       alternate between the sides.
 *   <li><b>open</b>: opening the latest version of a table of 1,000 fragments (lance-core writes
 *       version 1; Lancet publishes version 2 with 1,000 fragments), then touching every
 *       fragment (Lancet: {@code manifest().fragments()}; lance-core: {@code getFragments()}),
 *       and lance-core's open alone.
 *   <li><b>concurrent</b>: 8 writer threads x 10 appends (or {@code appendsPerWriter}) to a
 *       fresh table per trial (fragments written before the clock starts); commits/s = commits /
 *       wall time, median of the trials. Each
 *       trial runs the three sides (Lancet composite, Lancet legacy Append, lance-core) back to
 *       back, in an order that rotates from trial to trial; the per-trial ratios and their
 *       median are printed beside the ratio of the medians.
 * </ol>
 *
 * Args: {@code [rounds=60] [trials=3] [openRounds=60] [all|commit|open|concurrent] [commitWarmup=rounds/5]
 * [appendsPerWriter=10]}
 * (the warm-up rounds of measurement 1 are not timed; both sides run them). Run: see
 * BENCHMARKS.md.
 */
public final class S3Benchmarks {
  private static final Schema SCHEMA = BenchTables.SCHEMA;
  /** {@code -Dlancet.bench.trace=true}: measurement 1 prints every round (wall, CPU and JIT time). */
  private static final boolean TRACE = Boolean.getBoolean("lancet.bench.trace");
  private static final java.lang.management.CompilationMXBean JIT = java.lang.management.ManagementFactory.getCompilationMXBean();

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private final S3ProxyServer server = S3ProxyServer.start();
  private final Map<String, String> opts = server.storageOptions();
  private final BufferAllocator alloc = new RootAllocator();

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    int trials = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int openRounds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
    String only = args.length > 3 ? args[3] : "all";
    // Warm-up rounds of the single-writer measurement (default a fifth of the rounds, at least 5).
    int warmup = args.length > 4 ? Integer.parseInt(args[4]) : Math.max(5, rounds / 5);
    // Appends per writer in measurement 3: longer trials average over more races.
    int appends = args.length > 5 ? Integer.parseInt(args[5]) : 10;
    S3Benchmarks b = new S3Benchmarks();
    try {
      if (only.equals("all") || only.equals("commit")) {
        b.commits(rounds, warmup);
      }
      if (only.equals("all") || only.equals("open")) {
        b.openLatest(openRounds);
      }
      if (only.equals("all") || only.equals("concurrent")) {
        b.concurrent(trials, 8, appends);
      }
    } finally {
      b.alloc.close();
      server(b).close();
    }
    System.exit(0);
  }

  private static S3ProxyServer server(S3Benchmarks b) {
    return b.server;
  }

  // ---- 1. single-writer commits ------------------------------------------------------------

  private void commits(int rounds, int warmup) {
    String lancetBucket = server.newBucket("bench-lancet");
    String lanceBucket = server.newBucket("bench-lance");
    String lancetUri = "s3://" + lancetBucket + "/t";
    String lanceUri = "s3://" + lanceBucket + "/t";
    create(lancetUri, 100, 1);
    create(lanceUri, 100, 1);
    long[] lancetNanos = new long[rounds];
    long[] lanceNanos = new long[rounds];
    long lancetRequests = 0;
    long lanceRequests = 0;
    for (int r = -warmup; r < rounds; r++) {
      FragmentMetadata forLance = prewrite(lanceUri, 1_000_000L + 100L * (r + warmup), 100);
      DataFile forLancet = lancetFile(prewrite(lancetUri, 1_000_000L + 100L * (r + warmup), 100));
      Map<String, Long> before = server.requestCounts(lancetBucket);
      long cpu0 = processCpuNanos();
      long jit0 = JIT.getTotalCompilationTime();
      long t0 = System.nanoTime();
      try (Table t = Table.open(lancetUri, opts)) {
        t.newTransaction().step("append", s -> s.addFragment(0, 100).addDataFile(Ref.local(0), forLancet,
            Ref.committed(0))).commit();
      }
      long lancet = System.nanoTime() - t0;
      long lancetCpu = processCpuNanos() - cpu0;
      long lancetJit = JIT.getTotalCompilationTime() - jit0;
      Map<String, Long> lancetOps = server.requestsSince(lancetBucket, before);
      long lancetCount = total(lancetOps);
      before = server.requestCounts(lanceBucket);
      cpu0 = processCpuNanos();
      jit0 = JIT.getTotalCompilationTime();
      t0 = System.nanoTime();
      try (Dataset ds = openLance(lanceUri, ReadOptions.Builder::new)) {
        commitAppend(ds, forLance);
      }
      long lance = System.nanoTime() - t0;
      long lanceCpu = processCpuNanos() - cpu0;
      long lanceJit = JIT.getTotalCompilationTime() - jit0;
      if (TRACE) {
        // Per round: wall time, this process's CPU time (client, s3proxy, JIT compiler threads)
        // and the JIT's compilation time, for each side's open + commit.
        System.out.printf(Locale.ROOT, "   trace round %4d: Lancet %6.2f ms (cpu %6.2f, jit %4d ms), "
            + "lance-core %6.2f ms (cpu %6.2f, jit %4d ms)%n", r, lancet / 1e6, lancetCpu / 1e6, lancetJit,
            lance / 1e6, lanceCpu / 1e6, lanceJit);
      }
      Map<String, Long> lanceOps = server.requestsSince(lanceBucket, before);
      long lanceCount = total(lanceOps);
      if (r == 0) {
        System.out.println("   requests of the first measured commit: Lancet " + lancetOps + ", lance-core " + lanceOps);
      }
      if (r >= 0) {
        lancetNanos[r] = lancet;
        lanceNanos[r] = lance;
        lancetRequests += lancetCount;
        lanceRequests += lanceCount;
      }
    }
    report("1. append commit (open latest + commit), " + rounds + " rounds after " + warmup + " warm-up",
        lancetNanos, lanceNanos);
    System.out.printf(Locale.ROOT, "   requests per commit: Lancet %.2f, lance-core %.2f, ratio %.2f%n",
        lancetRequests / (double) rounds, lanceRequests / (double) rounds, lancetRequests / (double) lanceRequests);
  }

  // ---- 2. open latest at 1,000 fragments ---------------------------------------------------

  private void openLatest(int rounds) throws IOException {
    String bucket = server.newBucket("bench-open");
    String uri = "s3://" + bucket + "/t";
    create(uri, 1, 1);
    publishCopies(uri, 1000);
    int warmup = Math.max(5, rounds / 5);
    long[] lancet = new long[rounds];
    long[] lance = new long[rounds];
    long[] lanceOpenOnly = new long[rounds];
    long lancetRequests = 0;
    long lanceRequests = 0;
    for (int r = -warmup; r < rounds; r++) {
      Map<String, Long> before = server.requestCounts(bucket);
      long t0 = System.nanoTime();
      long rows = 0;
      try (Table t = Table.open(uri, opts)) {
        for (Fragment f : t.latest().manifest().fragments()) {
          rows += f.physicalRows();
        }
      }
      long a = System.nanoTime() - t0;
      long aCount = total(server.requestsSince(bucket, before));
      before = server.requestCounts(bucket);
      t0 = System.nanoTime();
      long lanceRows = 0;
      try (Dataset ds = openLance(uri, ReadOptions.Builder::new)) {
        for (org.lance.Fragment f : ds.getFragments()) {
          lanceRows += f.metadata().getPhysicalRows();
        }
      }
      long b = System.nanoTime() - t0;
      long bCount = total(server.requestsSince(bucket, before));
      t0 = System.nanoTime();
      try (Dataset ds = openLance(uri, ReadOptions.Builder::new)) {
        ds.version();
      }
      long c = System.nanoTime() - t0;
      if (rows != 1000 || lanceRows != 1000) {
        throw new IllegalStateException("expected 1,000 rows, Lancet saw " + rows + ", lance-core " + lanceRows);
      }
      if (r >= 0) {
        lancet[r] = a;
        lance[r] = b;
        lanceOpenOnly[r] = c;
        lancetRequests += aCount;
        lanceRequests += bCount;
      }
    }
    report("2. open latest, 1,000 fragments (lance-core: open + getFragments), " + rounds + " rounds", lancet, lance);
    report("   the same against lance-core's open alone", lancet, lanceOpenOnly);
    System.out.printf(Locale.ROOT, "   requests per open: Lancet %.2f, lance-core %.2f%n",
        lancetRequests / (double) rounds, lanceRequests / (double) rounds);
  }

  // ---- 3. concurrent writers ---------------------------------------------------------------

  private void concurrent(int trials, int writers, int appends) throws Exception {
    List<Double> lancetRates = new ArrayList<>();
    List<Double> legacyRates = new ArrayList<>();
    List<Double> lanceRates = new ArrayList<>();
    List<Integer> lancetRetries = new ArrayList<>();
    List<Integer> legacyRetries = new ArrayList<>();
    List<Double> requests = new ArrayList<>();
    List<Double> compositeRatios = new ArrayList<>();
    List<Double> legacyRatios = new ArrayList<>();
    Side[] sides = Side.values();
    for (int trial = -1; trial < trials; trial++) {
      // The order of the sides rotates from trial to trial, so none always runs first (on a
      // fresh heap, after the other side's garbage) or last.
      Map<Side, double[]> byside = new java.util.EnumMap<>(Side.class);
      int shift = Math.floorMod(trial, sides.length);
      for (int i = 0; i < sides.length; i++) {
        Side side = sides[(i + shift) % sides.length];
        byside.put(side, concurrentTrial(side, writers, appends));
      }
      double[] lancet = byside.get(Side.LANCET_COMPOSITE);
      double[] legacy = byside.get(Side.LANCET_LEGACY);
      double[] lance = byside.get(Side.LANCE);
      if (trial >= 0) {
        lancetRates.add(lancet[0]);
        legacyRates.add(legacy[0]);
        lanceRates.add(lance[0]);
        compositeRatios.add(lancet[0] / lance[0]);
        legacyRatios.add(legacy[0] / lance[0]);
        lancetRetries.add((int) lancet[1]);
        legacyRetries.add((int) legacy[1]);
        requests.add(lancet[2]);
        requests.add(legacy[2]);
        requests.add(lance[2]);
      }
    }
    double a = median(lancetRates);
    double l = median(legacyRates);
    double b = median(lanceRates);
    System.out.printf(Locale.ROOT, "3. %d writers x %d appends, %d trials (+1 warm-up): Lancet composite %.1f commits/s %s"
        + " (retries %s), Lancet legacy Append %.1f commits/s %s (retries %s), lance-core %.1f commits/s %s; "
        + "Lancet / lance-core %.2fx (composite), %.2fx (legacy Append)%n",
        writers, appends, trials, a, rounded(lancetRates), lancetRetries, l, rounded(legacyRates), legacyRetries, b,
        rounded(lanceRates), a / b, l / b);
    // Each trial's sides ran back to back under the same load: the ratio within a trial is the
    // paired comparison, and its median is steadier than the ratio of medians.
    System.out.printf(Locale.ROOT, "   per-trial ratios: composite %s (median %.2fx), legacy %s (median %.2fx)%n",
        rounded(compositeRatios), median(compositeRatios), rounded(legacyRatios), median(legacyRatios));
    StringBuilder perCommit = new StringBuilder("   requests per commit by trial (composite, legacy, lance-core):");
    for (int i = 0; i < requests.size(); i += 3) {
      perCommit.append(String.format(Locale.ROOT, " [%.1f, %.1f, %.1f]", requests.get(i), requests.get(i + 1),
          requests.get(i + 2)));
    }
    System.out.println(perCommit);
  }

  /** Who commits in a concurrent trial. */
  private enum Side { LANCET_COMPOSITE, LANCET_LEGACY, LANCE }

  /** {commits/s, retries} of one trial. */
  private double[] concurrentTrial(Side side, int writers, int appends) throws Exception {
    boolean lancet = side != Side.LANCE;
    String bucket = server.newBucket(lancet ? "conc-lancet" : "conc-lance");
    String uri = "s3://" + bucket + "/t";
    create(uri, 10, 10);
    List<List<FragmentMetadata>> fragments = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      List<FragmentMetadata> mine = new ArrayList<>();
      for (int i = 0; i < appends; i++) {
        mine.add(prewrite(uri, 1_000_000L * (w + 1) + 100L * i, 10));
      }
      fragments.add(mine);
    }
    CountDownLatch go = new CountDownLatch(1);
    AtomicInteger retries = new AtomicInteger();
    AtomicLong failures = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      List<FragmentMetadata> mine = fragments.get(w);
      threads.add(new Thread(() -> {
        try {
          go.await();
          for (FragmentMetadata f : mine) {
            if (lancet) {
              DataFile file = lancetFile(f);
              CommitPolicy policy = new CommitPolicy(100, Duration.ofSeconds(120), Duration.ofMillis(20));
              try (Table t = Table.open(uri, opts)) {
                CommitResult r = side == Side.LANCET_COMPOSITE
                    ? t.newTransaction().policy(policy).step("append", s -> s.addFragment(0, 10)
                        .addDataFile(Ref.local(0), file, Ref.committed(0))).commit()
                    : t.newLegacyTransaction(new dev.lancet.core.operation.Append(List.of(
                        Fragment.of(0, 10, List.of(lancetFileWithFields(f)))))).policy(policy).commit();
                retries.addAndGet(r.attempts() - 1);
              }
            } else {
              for (int attempt = 0; ; attempt++) {
                try (Dataset ds = openLance(uri, ReadOptions.Builder::new)) {
                  commitAppend(ds, f);
                  break;
                } catch (RuntimeException e) {
                  retries.incrementAndGet();
                  if (attempt > 50) {
                    throw e;
                  }
                }
              }
            }
          }
        } catch (Throwable e) {
          failures.incrementAndGet();
          e.printStackTrace();
        }
      }));
    }
    Map<String, Long> before = server.requestCounts(bucket);
    threads.forEach(Thread::start);
    long t0 = System.nanoTime();
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    long requests = total(server.requestsSince(bucket, before));
    try (Dataset ds = openLance(uri, ReadOptions.Builder::new)) {
      if (failures.get() > 0 || ds.version() != 1 + writers * appends || ds.getFragments().size() != 1 + writers * appends) {
        throw new IllegalStateException((lancet ? "Lancet" : "lance-core") + " trial lost commits: version "
            + ds.version() + ", " + ds.getFragments().size() + " fragments, " + failures + " failed writers");
      }
    }
    return new double[] {writers * appends / seconds, retries.get(), requests / (double) (writers * appends)};
  }

  // ---- helpers -----------------------------------------------------------------------------

  private void create(String uri, int rows, int rowsPerFragment) {
    try (ArrowReader reader = new BenchTables.IdReader(alloc, rows);
        Dataset ds = Dataset.write().allocator(alloc).reader(reader).uri(uri).storageOptions(opts)
            .maxRowsPerFile(rowsPerFragment).maxRowsPerGroup(rowsPerFragment).execute()) {
      if (ds.version() != 1) {
        throw new IllegalStateException("lance-core created version " + ds.version());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Version 2: {@code n} copies of version 1's single fragment (ids 0..n-1), published by Lancet. */
  private void publishCopies(String uri, int n) throws IOException {
    try (ObjectStore store = ObjectStores.forUri(uri, opts)) {
      Snapshot v1 = Snapshot.latest(store, uri);
      Manifest m1 = v1.manifest();
      Fragment original = m1.fragments().get(0);
      List<Fragment> all = new ArrayList<>();
      TransactionProtos.Transaction.Append.Builder append = TransactionProtos.Transaction.Append.newBuilder();
      for (int id = 0; id < n; id++) {
        all.add(original.toBuilder().id(id).build());
        if (id > 0) {
          append.addFragments(FragmentCodec.toProto(original.toBuilder().id(0).build()));
        }
      }
      Manifest m2 = m1.toBuilder().version(2).fragments(all).build();
      TransactionProtos.Transaction txn = TransactionProtos.Transaction.newBuilder().setReadVersion(1)
          .setUuid(UUID.randomUUID().toString()).setAppend(append).build();
      new VersionPublisher(store).publish(m2, v1.indices(), txn, ManifestNaming.V2);
    }
  }

  private FragmentMetadata prewrite(String uri, long start, int count) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc)) {
      BigIntVector ids = (BigIntVector) root.getVector("id");
      ids.allocateNew(count);
      for (int i = 0; i < count; i++) {
        ids.set(i, start + i);
      }
      ids.setValueCount(count);
      root.setRowCount(count);
      return org.lance.Fragment.create(uri, alloc, root, new WriteParams.Builder().withStorageOptions(opts).build()).get(0);
    }
  }

  private Dataset openLance(String uri, java.util.function.Supplier<ReadOptions.Builder> read) {
    return Dataset.open().allocator(alloc).uri(uri).readOptions(read.get().setStorageOptions(opts).build()).build();
  }

  private static void commitAppend(Dataset ds, FragmentMetadata f) {
    try (SourcedTransaction txn = ds.newTransactionBuilder()
        .operation(Append.builder().fragments(List.of(f)).build()).build();
        Dataset committed = txn.commit()) {
      committed.version();
    }
  }

  private static DataFile lancetFile(FragmentMetadata fragment) {
    org.lance.fragment.DataFile f = fragment.getFiles().get(0);
    List<Integer> columns = new ArrayList<>();
    for (int c : f.getColumnIndices()) {
      columns.add(c);
    }
    return new DataFile(f.getPath(), List.of(), columns, f.getFileMajorVersion(), f.getFileMinorVersion(),
        f.getFileSizeBytes() == null ? 0 : f.getFileSizeBytes(),
        f.getBaseId().isPresent() ? OptionalInt.of(f.getBaseId().get()) : OptionalInt.empty(),
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  /** The data file with its field ids, as a legacy Append's fragment carries them. */
  private static DataFile lancetFileWithFields(FragmentMetadata fragment) {
    org.lance.fragment.DataFile f = fragment.getFiles().get(0);
    List<Integer> fields = new ArrayList<>();
    for (int id : f.getFields()) {
      fields.add(id);
    }
    DataFile d = lancetFile(fragment);
    return new DataFile(d.path(), fields, d.columnIndices(), d.fileMajorVersion(), d.fileMinorVersion(),
        d.fileSizeBytes(), d.baseId(), d.unknownFields());
  }

  private static long total(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  private static void report(String what, long[] lancet, long[] lance) {
    double a = medianMillis(lancet);
    double b = medianMillis(lance);
    System.out.printf(Locale.ROOT, "%s: Lancet median %.2f ms (mean %.2f), lance-core median %.2f ms (mean %.2f); "
        + "Lancet / lance-core %.2f%n", what, a, meanMillis(lancet), b, meanMillis(lance), a / b);
  }

  private static double medianMillis(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2] / 1e6;
  }

  private static double meanMillis(long[] nanos) {
    return Arrays.stream(nanos).average().orElse(0) / 1e6;
  }

  private static String rounded(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList().toString();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
