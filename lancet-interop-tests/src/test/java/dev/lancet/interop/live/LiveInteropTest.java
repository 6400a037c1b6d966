package dev.lancet.interop.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live interop: a real Lance writer (lance-core 7.0.0 in its own JVM, {@link LanceWriterMain})
 * and two Lancet writer threads ({@link LancetLegacyWriter}: legacy Append, Delete, Update)
 * commit concurrently to one table lance-core created. Both kinds of writer delete rows from the
 * same initial fragments, so their commits collide and are rebased (Lancet) or retried
 * (lance-core).
 *
 * <p>Afterwards the table must match the independent model built from what each writer
 * acknowledged (every writer owns disjoint ids): no acknowledged row lost, no deleted row present,
 * updated rows with their new value, no duplicate id; lance-core's row count and column checksums
 * equal the model's; Lancet's per-fragment live row counts equal lance-core's; and the history
 * holds exactly the acknowledged commits, once each. Every error Lancet raised is a typed one.
 *
 * <p>Repeat with {@code -Dlancet.live.repeat=20}.
 */
class LiveInteropTest {
  private static final int LANCE_ROUNDS = 15;
  private static final int LANCET_WRITERS = 2;
  private static final int LANCET_ROUNDS = 12;

  @TempDir Path tmp;

  // Every wait below is bounded (worker start, writers, worker exit), so each run is too.
  @RepeatedTest(value = 1, name = "live run {currentRepetition}")
  void repeatedRuns(RepetitionInfo info) throws Exception {
    int repeat = Integer.getInteger("lancet.live.repeat", 1);
    for (int i = 0; i < repeat; i++) {
      long t0 = System.nanoTime();
      Path parent = Files.createDirectories(tmp.resolve("run-" + i));
      runOnce(parent, 1000L * i + info.getCurrentRepetition());
      System.out.printf("live interop run %d/%d passed in %d ms%n", i + 1, repeat,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }
  }

  private void runOnce(Path parent, long seed) throws Exception {
    Path dir = LiveTable.create(parent);
    long created = LanceOracle.latestVersion(dir);
    Set<String> initialUuids = new HashSet<>();
    try (Table table = Table.open(dir.toString())) {
      for (VersionEntry e : table.versions()) {
        table.version(e.version()).transaction().ifPresent(t -> initialUuids.add(t.getUuid()));
      }
    }

    Path signals = Files.createDirectories(parent.resolve("signals"));
    Path ready = signals.resolve("ready");
    Path go = signals.resolve("go");
    Path lanceResult = parent.resolve("lance-result.txt");
    Path lanceErr = parent.resolve("lance-err.txt");
    Process lance = new ProcessBuilder(javaBinary(), "-Xmx256m",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), LanceWriterMain.class.getName(),
        dir.toString(), ready.toString(), go.toString(), lanceResult.toString(),
        String.valueOf(LANCE_ROUNDS), String.valueOf(seed))
        .redirectOutput(parent.resolve("lance-out.txt").toFile())
        .redirectError(lanceErr.toFile())
        .start();
    ExecutorService pool = Executors.newFixedThreadPool(LANCET_WRITERS);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(ready)) {
        assertThat(lance.isAlive()).as("lance-core worker alive; stderr: %s", read(lanceErr)).isTrue();
        assertThat(System.nanoTime()).as("lance-core worker ready in time").isLessThan(deadline);
        lance.waitFor(5, TimeUnit.MILLISECONDS);
      }
      CountDownLatch start = new CountDownLatch(1);
      List<Future<LancetLegacyWriter.Report>> futures = new ArrayList<>();
      for (int w = 0; w < LANCET_WRITERS; w++) {
        futures.add(pool.submit(new LancetLegacyWriter(dir, w, LANCET_ROUNDS, seed * 31 + w, start)));
      }
      Files.createFile(go);
      start.countDown();

      List<LancetLegacyWriter.Report> reports = new ArrayList<>();
      for (Future<LancetLegacyWriter.Report> f : futures) {
        reports.add(f.get(100, TimeUnit.SECONDS));
      }
      assertThat(lance.waitFor(100, TimeUnit.SECONDS)).as("lance-core worker finished").isTrue();
      assertThat(lance.exitValue()).as("lance-core worker exit; stderr: %s", read(lanceErr)).isZero();
      LanceOutcome lanceOutcome = LanceOutcome.read(lanceResult);

      check(dir, created, initialUuids, reports, lanceOutcome);
    } finally {
      pool.shutdownNow();
      lance.destroyForcibly();
    }
  }

  /** What the lance-core worker acknowledged and the errors it met. */
  private record LanceOutcome(Set<Long> appended, Set<Long> deleted, List<String> uuids,
      Map<String, Integer> errors, int gaveUp, int appends, int deletes) {
    static LanceOutcome read(Path file) throws Exception {
      List<String> lines = Files.readAllLines(file);
      assertThat(lines).as("lance-core worker result").isNotEmpty().last().isEqualTo("DONE");
      Set<Long> appended = new HashSet<>();
      Set<Long> deleted = new HashSet<>();
      List<String> uuids = new ArrayList<>();
      Map<String, Integer> errors = new TreeMap<>();
      int gaveUp = 0;
      int appends = 0;
      int deletes = 0;
      for (String line : lines) {
        String[] p = line.split(" ");
        switch (p[0]) {
          case "APPEND" -> {
            long first = Long.parseLong(p[1]);
            for (long id = first; id < first + Long.parseLong(p[2]); id++) {
              appended.add(id);
            }
            uuids.add(p[4]);
            appends++;
          }
          case "DELETE" -> {
            deleted.add(Long.parseLong(p[1]));
            uuids.add(p[3]);
            deletes++;
          }
          case "ERROR" -> errors.merge(errorKind(line), 1, Integer::sum);
          case "GAVEUP" -> gaveUp++;
          case "DONE" -> { }
          default -> throw new AssertionError("unexpected worker line " + line);
        }
      }
      return new LanceOutcome(appended, deleted, uuids, errors, gaveUp, appends, deletes);
    }

    /** The exception class and the start of lance-core's message (its error kind). */
    private static String errorKind(String line) {
      String[] p = line.split(" ", 5);
      String message = p.length > 4 ? p[4] : "";
      return p[3] + ": " + message.substring(0, Math.min(message.length(), 60));
    }
  }

  private static void check(Path dir, long created, Set<String> initialUuids,
      List<LancetLegacyWriter.Report> reports, LanceOutcome lance) throws Exception {
    // The independent model: every writer owns disjoint ids.
    Map<Long, String> model = new TreeMap<>();
    for (long id = 0; id < LiveTable.INITIAL_ROWS; id += 2) {
      if (!lance.deleted().contains(id)) {
        model.put(id, LanceFixtures.name(id));
      }
    }
    for (long id : lance.appended()) {
      if (!lance.deleted().contains(id)) {
        model.put(id, LanceFixtures.name(id));
      }
    }
    List<String> acknowledged = new ArrayList<>(lance.uuids());
    Map<String, Integer> lancetErrors = new TreeMap<>();
    Map<String, Integer> lancetOps = new TreeMap<>();
    int abandoned = 0;
    int rebased = 0;
    Map<String, Integer> outcomes = new TreeMap<>();
    for (LancetLegacyWriter.Report r : reports) {
      assertThat(r.untypedErrors()).as("untyped errors of Lancet writer %d", r.writer()).isEmpty();
      r.expected().forEach((id, name) -> assertThat(model.put(id, name)).as("id %d owned twice", id).isNull());
      acknowledged.addAll(r.acknowledgedUuids());
      r.errorsByType().forEach((k, v) -> lancetErrors.merge(k, v, Integer::sum));
      r.acknowledgedByOperation().forEach((k, v) -> lancetOps.merge(k, v, Integer::sum));
      abandoned += r.abandoned();
      rebased += r.rebasedCommits();
      r.attemptOutcomes().forEach((k, v) -> outcomes.merge(k, v, Integer::sum));
    }

    long latest = LanceOracle.latestVersion(dir);
    // What lance-core reads: every row exactly once with the model's value.
    List<LanceOracle.Row> rows = LanceOracle.rows(dir, latest);
    Map<Long, String> actual = new TreeMap<>();
    for (LanceOracle.Row r : rows) {
      assertThat(actual.put(r.id(), r.values().get(1))).as("id %d appears twice", r.id()).isNull();
    }
    Map<Long, String> expectedCanonical = new TreeMap<>();
    model.forEach((id, name) -> expectedCanonical.put(id, LiveTable.canonical(name)));
    assertThat(actual).isEqualTo(expectedCanonical);
    for (long id : lance.deleted()) {
      assertThat(actual).as("deleted by lance-core").doesNotContainKey(id);
    }
    for (LancetLegacyWriter.Report r : reports) {
      assertThat(actual.keySet()).as("deleted by Lancet").doesNotContainAnyElementsOf(r.deleted());
    }
    assertThat(LanceOracle.countRows(dir, latest)).isEqualTo(model.size());
    assertThat(LanceOracle.columnChecksums(dir, latest)).isEqualTo(checksums(expectedCanonical));

    try (Table table = Table.open(dir.toString())) {
      Snapshot snap = table.latest();
      assertThat(snap.version()).isEqualTo(latest);
      Manifest m = snap.manifest();
      assertThat(m.liveRows()).as("Lancet's live rows").isEqualTo(model.size());
      Map<Long, Long> lancetLive = new TreeMap<>();
      for (Fragment f : m.fragments()) {
        lancetLive.put(f.id(), f.physicalRows() - LiveTable.deletionVector(table, f).cardinality());
      }
      Map<Long, Long> lanceLive = new TreeMap<>();
      for (LanceOracle.FragmentView f : LanceOracle.snapshot(dir, latest).fragments()) {
        lanceLive.put((long) f.id(), f.liveRows());
      }
      assertThat(lancetLive).as("live rows per fragment, Lancet vs lance-core").isEqualTo(lanceLive);

      // No lost version: the history after creation is exactly the acknowledged commits.
      List<String> history = new ArrayList<>();
      Map<String, Integer> historyOps = new TreeMap<>();
      for (long v = created + 1; v <= latest; v++) {
        TransactionProtos.Transaction txn = table.version(v).transaction().orElseThrow();
        history.add(txn.getUuid());
        historyOps.merge(dev.lancet.format.layout.TransactionFile.operationName(txn), 1, Integer::sum);
      }
      assertThat(history).doesNotHaveDuplicates().doesNotContainAnyElementsOf(initialUuids);
      assertThat(history).containsExactlyInAnyOrderElementsOf(acknowledged);

      System.out.printf("live interop: %d versions (%s); lance-core acknowledged %d appends, %d deletes"
              + " (gave up %d), errors %s; Lancet acknowledged %s (abandoned %d, %d published over"
              + " versions they did not read), attempts %s, errors %s; %d live rows%n",
          history.size(), historyOps, lance.appends(), lance.deletes(), lance.gaveUp(), lance.errors(),
          lancetOps, abandoned, rebased, outcomes, lancetErrors, model.size());
    }
  }

  /** The same digest as {@link LanceOracle#columnChecksums}, computed from the model. */
  private static Map<String, String> checksums(Map<Long, String> names) throws Exception {
    MessageDigest ids = MessageDigest.getInstance("SHA-256");
    MessageDigest values = MessageDigest.getInstance("SHA-256");
    for (Map.Entry<Long, String> e : names.entrySet()) {
      ids.update((e.getKey() + "\n").getBytes(StandardCharsets.UTF_8));
      values.update((e.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    Map<String, String> out = new LinkedHashMap<>();
    out.put("id", HexFormat.of().formatHex(ids.digest()));
    out.put("name", HexFormat.of().formatHex(values.digest()));
    return out;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (Exception e) {
      return "(unreadable)";
    }
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command().orElse("java");
  }
}
