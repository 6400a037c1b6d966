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
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live interop: a real Lance writer (lance-core 7.0.0 in its own JVM, {@link LanceWriterMain})
 * and two Lancet writer threads ({@link LancetLegacyWriter}: legacy Append, Delete, Update)
 * commit concurrently to one table lance-core created.
 *
 * <p>First {@link ScriptedConflicts} forces the row-level cases in a fixed order (Lancet plans,
 * lance-core deletes a row of the same fragment, Lancet commits): an intersecting delete must
 * come back as a typed retryable conflict naming the fragment, a disjoint one must be rebased.
 * Then the live phase: lance-core deletes contested rows by predicate while both Lancet writers
 * delete and update the same rows, planned at a read version, besides appends and changes of
 * their own rows.
 *
 * <p>Afterwards the table must match the independent model, {@link LiveModel}: the initial rows
 * with every acknowledged commit replayed in version order (no version acknowledged twice, no
 * planned Delete or Update acknowledged over a concurrent delete of its row); lance-core's rows,
 * row count and column checksums equal the model's; Lancet's live rows per fragment equal
 * lance-core's; the history holds exactly the acknowledged commits, once each, each at the
 * version its writer was told. Every error Lancet raised is a typed one, and at least the
 * scripted typed conflicts were seen.
 *
 * <p>Repeat with {@code -Dlancet.live.repeat=20}.
 */
class LiveInteropTest {
  private static final int LANCE_ROUNDS = 15;
  private static final int LANCET_WRITERS = 2;
  private static final int LANCET_ROUNDS = 12;
  private static final long TIMEOUT_S = 100;

  @TempDir Path tmp;

  // Every wait below is bounded (worker start, writers, worker exit), so each run is too.
  @RepeatedTest(value = 1, name = "live run {currentRepetition}")
  void repeatedRuns(RepetitionInfo info) throws Exception {
    int repeat = Integer.getInteger("lancet.live.repeat", 1);
    Map<String, Integer> conflicts = new TreeMap<>();
    for (int i = 0; i < repeat; i++) {
      long t0 = System.nanoTime();
      Path parent = Files.createDirectories(tmp.resolve("run-" + i));
      Map<String, Integer> run = runOnce(parent, 1000L * i + info.getCurrentRepetition());
      run.forEach((k, v) -> conflicts.merge(k, v, Integer::sum));
      System.out.printf("live interop run %d/%d passed in %d ms%n", i + 1, repeat,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }
    System.out.printf("live interop: %d runs passed; Lancet's typed conflicts over all runs: %s%n",
        repeat, conflicts);
  }

  /** The lance-core worker process and its stdin/stdout protocol (lines starting with "@@ "). */
  private static final class LanceWorker implements AutoCloseable {
    final Process process;
    final Path err;
    final PrintStream commands;
    final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

    LanceWorker(Path parent, Path dir, Path result, long seed) throws Exception {
      err = parent.resolve("lance-err.txt");
      process = new ProcessBuilder(javaBinary(), "-Xmx256m",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "-cp", System.getProperty("java.class.path"), LanceWriterMain.class.getName(),
          dir.toString(), result.toString(), String.valueOf(LANCE_ROUNDS), String.valueOf(seed))
          .redirectError(err.toFile())
          .start();
      commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("@@ ")) {
              replies.add(line.substring(3));
            }
          }
        } catch (IOException e) {
          replies.add("EOF " + e);
        }
        replies.add("EOF");
      }, "lance-worker-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    String await(String what) throws InterruptedException {
      String line = replies.poll(TIMEOUT_S, TimeUnit.SECONDS);
      assertThat(line).as("lance-core worker %s; stderr: %s", what, read(err)).isNotNull().doesNotStartWith("EOF");
      return line;
    }

    /** Deletes {@code id = k} in the worker now; the version it committed. */
    long delete(long id) throws InterruptedException {
      commands.println("DELETE " + id);
      String reply = await("deleting " + id);
      assertThat(reply).as("lance-core deleted %d", id).startsWith("DELETE " + id + " ");
      return Long.parseLong(reply.split(" ")[2]);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  /** One run; returns Lancet's typed conflicts ("operation vs winner operation"). */
  private Map<String, Integer> runOnce(Path parent, long seed) throws Exception {
    Path dir = LiveTable.create(parent);
    long created = LanceOracle.latestVersion(dir);
    Set<String> initialUuids = new HashSet<>();
    try (Table table = Table.open(dir.toString())) {
      for (VersionEntry e : table.versions()) {
        table.version(e.version()).transaction().ifPresent(t -> initialUuids.add(t.getUuid()));
      }
    }

    Path lanceResult = parent.resolve("lance-result.txt");
    ExecutorService pool = Executors.newFixedThreadPool(LANCET_WRITERS);
    try (LanceWorker lance = new LanceWorker(parent, dir, lanceResult, seed)) {
      assertThat(lance.await("ready")).isEqualTo("READY");
      ScriptedConflicts.Outcome scripted = ScriptedConflicts.run(dir, lance::delete);

      CountDownLatch start = new CountDownLatch(1);
      List<Future<LancetLegacyWriter.Report>> futures = new ArrayList<>();
      for (int w = 0; w < LANCET_WRITERS; w++) {
        futures.add(pool.submit(new LancetLegacyWriter(dir, w, LANCET_ROUNDS, seed * 31 + w, start)));
      }
      lance.commands.println("GO");
      start.countDown();

      List<LancetLegacyWriter.Report> reports = new ArrayList<>();
      for (Future<LancetLegacyWriter.Report> f : futures) {
        reports.add(f.get(TIMEOUT_S, TimeUnit.SECONDS));
      }
      assertThat(lance.await("finishing")).isEqualTo("DONE");
      assertThat(lance.process.waitFor(TIMEOUT_S, TimeUnit.SECONDS)).as("lance-core worker exited").isTrue();
      assertThat(lance.process.exitValue()).as("lance-core worker exit; stderr: %s", read(lance.err)).isZero();
      LanceOutcome lanceOutcome = LanceOutcome.read(lanceResult);

      return check(dir, created, initialUuids, scripted, reports, lanceOutcome);
    } finally {
      pool.shutdownNow();
    }
  }

  /** What the lance-core worker acknowledged and the errors it met. */
  private record LanceOutcome(List<LiveEvent> acknowledged, Map<String, Integer> errors, int gaveUp,
      int appends, int deletes, int noops) {
    static LanceOutcome read(Path file) throws Exception {
      List<String> lines = Files.readAllLines(file);
      assertThat(lines).as("lance-core worker result").isNotEmpty().last().isEqualTo("DONE");
      List<LiveEvent> events = new ArrayList<>();
      Map<String, Integer> errors = new TreeMap<>();
      int gaveUp = 0;
      int appends = 0;
      int deletes = 0;
      int noops = 0;
      for (String line : lines) {
        String[] p = line.split(" ");
        switch (p[0]) {
          case "APPEND" -> {
            long first = Long.parseLong(p[1]);
            Map<Long, String> rows = new TreeMap<>();
            for (long id = first; id < first + Long.parseLong(p[2]); id++) {
              rows.put(id, LanceFixtures.name(id));
            }
            events.add(new LiveEvent(Long.parseLong(p[3]), p[4], "lance-core", "Append", rows, Set.of(), false));
            appends++;
          }
          case "DELETE" -> {
            events.add(new LiveEvent(Long.parseLong(p[2]), p[3], "lance-core", "Delete", Map.of(),
                Set.of(Long.parseLong(p[1])), false));
            deletes++;
          }
          case "NOOP" -> noops++;
          case "ERROR" -> errors.merge(errorKind(line), 1, Integer::sum);
          case "GAVEUP" -> gaveUp++;
          case "DONE" -> { }
          default -> throw new AssertionError("unexpected worker line " + line);
        }
      }
      return new LanceOutcome(events, errors, gaveUp, appends, deletes, noops);
    }

    /** The exception class and the start of lance-core's message (its error kind). */
    private static String errorKind(String line) {
      String[] p = line.split(" ", 5);
      String message = p.length > 4 ? p[4] : "";
      return p[3] + ": " + message.substring(0, Math.min(message.length(), 60));
    }
  }

  private static Map<String, Integer> check(Path dir, long created, Set<String> initialUuids,
      ScriptedConflicts.Outcome scripted, List<LancetLegacyWriter.Report> reports, LanceOutcome lance)
      throws Exception {
    List<LiveEvent> events = new ArrayList<>(lance.acknowledged());
    events.addAll(scripted.acknowledged());
    Map<String, Integer> lancetErrors = new TreeMap<>();
    Map<String, Integer> conflicts = new TreeMap<>(scripted.conflicts());
    Map<String, Integer> lancetOps = new TreeMap<>();
    int abandoned = 0;
    int rebased = 0;
    Map<String, Integer> outcomes = new TreeMap<>();
    for (LancetLegacyWriter.Report r : reports) {
      assertThat(r.untypedErrors()).as("untyped errors of Lancet writer %d", r.writer()).isEmpty();
      events.addAll(r.acknowledged());
      r.errorsByType().forEach((k, v) -> lancetErrors.merge(k, v, Integer::sum));
      r.conflictsByWinner().forEach((k, v) -> conflicts.merge(k, v, Integer::sum));
      r.acknowledgedByOperation().forEach((k, v) -> lancetOps.merge(k, v, Integer::sum));
      abandoned += r.abandoned();
      rebased += r.rebasedCommits();
      r.attemptOutcomes().forEach((k, v) -> outcomes.merge(k, v, Integer::sum));
    }
    assertThat(conflicts.values().stream().mapToInt(Integer::intValue).sum())
        .as("typed conflicts seen by Lancet").isGreaterThanOrEqualTo(2);

    LiveModel.Replay replay = LiveModel.replay(events);
    assertThat(replay.violations()).as("acknowledged commits contradicting each other").isEmpty();
    Map<Long, String> expected = new TreeMap<>();
    replay.rows().forEach((id, name) -> expected.put(id, LiveTable.canonical(name)));

    long latest = LanceOracle.latestVersion(dir);
    // What lance-core reads: every row exactly once with the model's value.
    Map<Long, String> actual = new TreeMap<>();
    for (LanceOracle.Row r : LanceOracle.rows(dir, latest)) {
      assertThat(actual.put(r.id(), r.values().get(1))).as("id %d appears twice", r.id()).isNull();
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(LanceOracle.countRows(dir, latest)).isEqualTo(expected.size());
    assertThat(LanceOracle.columnChecksums(dir, latest)).isEqualTo(checksums(expected));

    try (Table table = Table.open(dir.toString())) {
      Snapshot snap = table.latest();
      assertThat(snap.version()).isEqualTo(latest);
      Manifest m = snap.manifest();
      assertThat(m.liveRows()).as("Lancet's live rows").isEqualTo(expected.size());
      Map<Long, Long> lancetLive = new TreeMap<>();
      for (Fragment f : m.fragments()) {
        lancetLive.put(f.id(), f.physicalRows() - LiveTable.deletionVector(table, f).cardinality());
      }
      Map<Long, Long> lanceLive = new TreeMap<>();
      for (LanceOracle.FragmentView f : LanceOracle.snapshot(dir, latest).fragments()) {
        lanceLive.put((long) f.id(), f.liveRows());
      }
      assertThat(lancetLive).as("live rows per fragment, Lancet vs lance-core").isEqualTo(lanceLive);

      // No lost version: the history after creation is exactly the acknowledged commits, each at
      // the version its writer was told.
      Map<Long, String> history = new TreeMap<>();
      Map<String, Integer> historyOps = new TreeMap<>();
      for (long v = created + 1; v <= latest; v++) {
        TransactionProtos.Transaction txn = table.version(v).transaction().orElseThrow();
        history.put(v, txn.getUuid());
        historyOps.merge(dev.lancet.format.layout.TransactionFile.operationName(txn), 1, Integer::sum);
      }
      Map<Long, String> told = new TreeMap<>();
      for (LiveEvent e : events) {
        assertThat(told.put(e.version(), e.uuid())).as("version %d acknowledged twice", e.version()).isNull();
      }
      assertThat(history.values()).doesNotHaveDuplicates().doesNotContainAnyElementsOf(initialUuids);
      assertThat(history).isEqualTo(told);

      System.out.printf("live interop: %d versions (%s); lance-core acknowledged %d appends, %d deletes"
              + " (%d matched nothing, gave up %d), errors %s; Lancet acknowledged %s + %d scripted"
              + " (abandoned %d, %d published over versions they did not read), attempts %s,"
              + " errors %s, typed conflicts %s; %d live rows%n",
          history.size(), historyOps, lance.appends(), lance.deletes(), lance.noops(), lance.gaveUp(),
          lance.errors(), lancetOps, scripted.acknowledged().size(), abandoned, rebased, outcomes,
          lancetErrors, conflicts, expected.size());
    }
    return conflicts;
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
