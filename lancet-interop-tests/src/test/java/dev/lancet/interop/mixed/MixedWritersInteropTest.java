package dev.lancet.interop.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.WorkerProcesses;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.table.LanceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Live interop of Lance's own writers and Lancet's on one table (issue #15 point 4), from
 * separate OS processes released together: lance-core 7.0.0 ingestion ({@link LanceIngestMain},
 * appends), lance-core maintenance ({@link LanceMaintenanceMain}, {@code compact()} and config
 * updates) and two Lancet writers through the table API ({@link LancetWriterMain}: appends,
 * deletes, merge inserts), under each write form of {@code lancet.write_form}.
 *
 * <p>Every writer logs what it was acknowledged. The checker replays those acknowledgements in
 * version order (an independent model: every writer owns its rows, so it knows what each commit
 * did) and requires, always: every version after the setup is exactly one acknowledged commit
 * (nothing acknowledged lost, nothing published unacknowledged), every version read by Lancet
 * and by lance-core equals the model at that version (no duplicate key, no lost or resurrected
 * row), every count a Lancet statement reported matches, and lance-core reads the transaction
 * of every version Lancet recorded as a legacy operation (the same uuid).
 *
 * <p>Required outcomes of issue #15 (asserted unless {@code -Dlancet.mixed.reportOnly=true},
 * which only prints them, to record the figures of a build without the fix): no Lancet
 * statement fails other than by a typed retryable conflict; no Lancet conflict against a
 * lance-core compaction or config update that does not touch the fragments of the rows the
 * statement changes (judged from the winner's transaction and lance-core's row addresses, not
 * from Lancet's verdict); under {@code legacy_when_exact} no lance-core writer fails with
 * lance-core's internal error, and Lancet's appends and deletes are recorded as legacy
 * operations.
 *
 * <p>Each policy runs {@code -Dlancet.mixed.repeat} times (default 2); a figures table is
 * printed at the end of each.
 */
class MixedWritersInteropTest {
  static final int REPEAT = Integer.getInteger("lancet.mixed.repeat", 2);
  static final boolean REPORT_ONLY = Boolean.getBoolean("lancet.mixed.reportOnly");
  /** At most this many lance-core appends (they keep pace with the others, see {@link Pacing}). */
  static final int INGEST_ROUNDS = 30;
  static final int INGEST_ROWS = 20;
  /** At most this many lance-core maintenance operations (compactions and config updates alternate). */
  static final int MAINTENANCE_ROUNDS = 12;
  static final int LANCET_ROUNDS = 12;
  static final long TIMEOUT_MINUTES = 5;

  @TempDir Path tmp;

  @ParameterizedTest(name = "write form {0}")
  @ValueSource(strings = {"composite", "legacy_when_exact"})
  void lanceCoreAndLancetWritersShareOneTable(String policy) throws Exception {
    long baseSeed = Long.getLong("lancet.mixed.seed", System.nanoTime());
    List<RunFigures> runs = new ArrayList<>();
    for (int i = 0; i < REPEAT; i++) {
      long seed = baseSeed + i;
      try {
        runs.add(runOnce(Files.createDirectories(tmp.resolve(policy + "-" + i)), policy, seed));
      } catch (Exception | AssertionError e) {
        System.out.println("mixed writers: run " + (i + 1) + " under " + policy + " (seed " + seed
            + ") failed; the runs before it:\n" + RunFigures.table(runs));
        throw e;
      }
    }
    System.out.println("mixed writers, " + REPEAT + " run(s) under " + policy + " (seeds from "
        + baseSeed + "):\n" + RunFigures.table(runs));
    if (REPORT_ONLY) {
      return;
    }
    for (RunFigures r : runs) {
      String run = policy + " seed " + r.seed();
      assertThat(r.lancetErrors()).as("%s: Lancet statements failing other than by a typed retryable"
          + " conflict", run).isEmpty();
      assertThat(r.falseConflictExamples()).as("%s: Lancet conflicts against a lance-core compaction or"
          + " config update that does not touch the statement's fragments", run).isEmpty();
      if (policy.equals("legacy_when_exact")) {
        assertThat(r.lanceInternalErrors()).as("%s: lance-core writers failing with the internal error;"
            + " lance-core errors: %s", run, r.lanceErrors()).isZero();
        r.lancetForms().keySet().stream().filter(k -> k.startsWith("APPEND") || k.startsWith("DELETE"))
            .forEach(k -> assertThat(k).as("%s: the recorded form of a Lancet append or delete", run)
                .isIn("APPEND -> Append", "DELETE -> Delete"));
      }
    }
  }

  private RunFigures runOnce(Path parent, String policy, long seed) throws Exception {
    long t0 = System.nanoTime();
    Path dir = MixedTable.create(parent);
    String uri = dir.toString();
    long created;
    try (LanceTable table = LanceTable.open(uri)) {
      created = table.newTransaction().setConfig(MixedTable.WRITE_FORM_KEY, policy).commit().version();
    }
    Path work = Files.createDirectories(parent.resolve("work"));
    int workers = 2 + MixedTable.LANCET_WRITERS;
    List<WorkerLog> events = new ArrayList<>();
    long released;
    List<String> doneFiles = new ArrayList<>();
    for (int w = 0; w < MixedTable.LANCET_WRITERS; w++) {
      doneFiles.add(work.resolve("lancet-done-" + w).toString());
    }
    String done = String.join(",", doneFiles);
    try (WorkerProcesses procs = WorkerProcesses.startReady(work, workers,
        List.of("-Xmx320m", "--add-opens=java.base/java.nio=ALL-UNNAMED"), MixedWorkerMain.class,
        (w, ready, go) -> switch (w) {
          case 0 -> List.of("lance-ingest", uri, ready.toString(), go.toString(), done,
              String.valueOf(INGEST_ROUNDS), String.valueOf(INGEST_ROWS));
          case 1 -> List.of("lance-maintenance", uri, ready.toString(), go.toString(), done,
              String.valueOf(MAINTENANCE_ROUNDS));
          default -> List.of("lancet", uri, ready.toString(), go.toString(), String.valueOf(w - 2),
              String.valueOf(LANCET_ROUNDS), String.valueOf(seed * 31 + w), doneFiles.get(w - 2));
        })) {
      released = System.nanoTime();
      procs.go();
      for (List<String> out : procs.awaitSuccess(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        List<WorkerLog> parsed = WorkerLog.parse(out);
        assertThat(parsed).as("a worker's report ends with DONE").isNotEmpty()
            .last().extracting(WorkerLog::type).isEqualTo("DONE");
        events.addAll(parsed);
      }
    }
    long t1 = System.nanoTime();
    RunFigures figures = check(dir, policy, seed, created, events, t1 - t0);
    System.out.printf("mixed writers %s seed %d: setup and workers ready %d ms, writers %d ms, check of %d"
        + " versions %d ms%n", policy, seed, TimeUnit.NANOSECONDS.toMillis(released - t0),
        TimeUnit.NANOSECONDS.toMillis(t1 - released), figures.versions(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1));
    return figures;
  }

  private static RunFigures check(Path dir, String policy, long seed, long created,
      List<WorkerLog> events, long nanos) throws Exception {
    String run = policy + " seed " + seed;
    // The acknowledged commits by version, each once.
    Map<Long, WorkerLog> acks = new TreeMap<>();
    Map<String, Integer> acknowledged = new TreeMap<>();
    for (WorkerLog e : events.stream().filter(e -> e.type().equals("ACK")).toList()) {
      WorkerLog before = acks.put(e.getLong("version"), e);
      assertThat(before).as("%s: two commits acknowledged as version %d: %s and %s", run,
          e.getLong("version"), before, e).isNull();
      acknowledged.merge(writerKind(e) + " " + e.get("op"), 1, Integer::sum);
    }

    try (Table table = Table.open(dir.toString()); LanceTable lancet = LanceTable.open(dir.toString())) {
      long latest = table.latest().version();
      assertThat(LanceOracle.latestVersion(dir)).as("%s: lance-core's latest version", run).isEqualTo(latest);
      assertThat(acks.keySet()).as("%s: acknowledged versions after the setup (version %d)", run, created)
          .allMatch(v -> v > created && v <= latest);

      // The model at every version: the initial rows, then each acknowledged commit in order.
      Map<Long, String> model = new TreeMap<>();
      for (long id = 0; id < MixedTable.INITIAL_ROWS; id++) {
        model.put(id, MixedTable.canonical(LanceFixtures.name(id)));
      }
      Map<String, Integer> forms = new TreeMap<>();
      int composite = 0;
      int unreadable = 0;
      Map<Long, TransactionProtos.Transaction> transactions = new HashMap<>();
      for (long v = created; v <= latest; v++) {
        TransactionProtos.Transaction txn = table.version(v).transaction().orElseThrow();
        transactions.put(v, txn);
        String operation = TransactionFile.operationName(txn);
        if (v > created) {
          WorkerLog ack = acks.get(v);
          assertThat(ack).as("%s: version %d (%s) was published but nobody was told so", run, v, operation)
              .isNotNull();
          assertThat(txn.getUuid()).as("%s: uuid of version %d, acknowledged by %s", run, v, ack)
              .isEqualTo(ack.get("uuid"));
          apply(model, ack, run);
          if (writerKind(ack).equals("lancet")) {
            forms.merge(ack.get("op") + " -> " + operation, 1, Integer::sum);
          }
        }
        boolean isComposite = txn.hasCompositeOperation();
        composite += isComposite ? 1 : 0;
        // lance-core must read the transaction of every legacy version as Lancet does.
        OptionalLong vv = OptionalLong.of(v);
        String lanceUuid;
        try {
          lanceUuid = LanceOracle.withDataset(dir, vv, ds -> ds.readTransaction().map(t -> {
            try (t) {
              return t.uuid();
            }
          }).orElse("(none)"));
        } catch (RuntimeException e) {
          lanceUuid = "(unreadable: " + e.getMessage() + ")";
        }
        if (!lanceUuid.equals(txn.getUuid())) {
          unreadable++;
          assertThat(isComposite).as("%s: lance-core reads the transaction of legacy version %d (%s) as %s",
              run, v, operation, lanceUuid).isTrue();
        }

        // Both readers see exactly the model at every version.
        Map<Long, String> byLancet = MixedTable.read(lancet.newScan().asOfVersion(v).open());
        assertThat(byLancet).as("%s: Lancet's rows at version %d (%s)", run, v, operation).isEqualTo(model);
        Map<Long, String> byLance = new TreeMap<>();
        for (LanceOracle.Row r : LanceOracle.rows(dir, v)) {
          assertThat(byLance.put(r.id(), r.values().get(1))).as("%s: lance-core reads id %d twice at version %d",
              run, r.id(), v).isNull();
        }
        assertThat(byLance).as("%s: lance-core's rows at version %d (%s)", run, v, operation).isEqualTo(model);
      }

      // Lance-core's failures, by message.
      Map<String, Integer> lanceErrors = new TreeMap<>();
      Map<String, Integer> lancetErrors = new TreeMap<>();
      int internal = 0;
      int lanceGaveUp = 0;
      Map<String, Integer> lancetGaveUp = new TreeMap<>();
      for (WorkerLog e : events) {
        boolean lance = !writerKind(e).equals("lancet");
        if (e.type().equals("ERROR")) {
          if (lance) {
            lanceErrors.merge(e.get("op") + ": " + RunFigures.kindOf(e.message()), 1, Integer::sum);
            internal += e.message().contains(RunFigures.INTERNAL_ERROR) ? 1 : 0;
          } else {
            assertThat(e.get("class")).as("%s: a Lancet statement's counts: %s", run, e.message())
                .isNotEqualTo("CountMismatch");
            lancetErrors.merge(e.get("op") + ": " + RunFigures.kindOf(e.message()), 1, Integer::sum);
          }
        } else if (e.type().equals("GAVEUP")) {
          if (lance) {
            lanceGaveUp++;
          } else {
            lancetGaveUp.merge(e.get("op") + " " + e.message(), 1, Integer::sum);
          }
        }
      }

      // Lancet's conflicts, judged against what the winner really did.
      Map<String, Integer> conflicts = new TreeMap<>();
      List<String> falseConflicts = new ArrayList<>();
      int genuine = 0;
      Map<Long, Map<Long, Integer>> fragmentsAt = new HashMap<>();
      for (WorkerLog c : events.stream().filter(e -> e.type().equals("CONFLICT")).toList()) {
        long winner = c.getLong("winner");
        WorkerLog won = acks.get(winner);
        String winnerWriter = won == null ? "unacknowledged" : writerKind(won) + " " + won.get("op");
        conflicts.merge(c.get("op") + " vs " + winnerWriter + " (" + c.get("winnerOp") + "): "
            + c.get("kinds"), 1, Integer::sum);
        if (won == null || !won.get("writer").equals(LanceMaintenanceMain.WRITER)) {
          continue;
        }
        Set<Long> rewritten = new HashSet<>();
        if (won.get("op").equals("COMPACT")) {
          TransactionProtos.Transaction.Rewrite rw = transactions.get(winner).getRewrite();
          rw.getOldFragmentsList().forEach(f -> rewritten.add(f.getId()));
          rw.getGroupsList().forEach(g -> g.getOldFragmentsList().forEach(f -> rewritten.add(f.getId())));
        }
        Map<Long, Integer> where = fragmentsAt.computeIfAbsent(winner - 1, v -> {
          Map<Long, Integer> m = new HashMap<>();
          LanceOracle.rowIdentities(dir, v).forEach(r -> m.put(r.id(), r.fragmentId()));
          return m;
        });
        Set<Long> touched = new HashSet<>();
        for (long id : c.ids("targets")) {
          Integer f = where.get(id);
          if (f != null) {
            touched.add((long) f);
          }
        }
        touched.retainAll(rewritten);
        if (touched.isEmpty()) {
          falseConflicts.add(c.get("writer") + " " + c.get("op") + " round " + c.get("round") + " (targets "
              + c.get("targets") + ") vs version " + winner + " " + won.get("op") + " rewriting fragments "
              + rewritten + ": " + c.get("kinds") + " | " + c.message());
        } else {
          genuine++;
        }
      }

      int reruns = 0;
      long lostRaces = 0;
      for (WorkerLog a : acks.values()) {
        if (writerKind(a).equals("lancet")) {
          reruns += (int) a.getLong("tries") - 1;
          lostRaces += a.getLong("lostRaces");
        }
      }
      return new RunFigures(policy, seed, TimeUnit.NANOSECONDS.toMillis(nanos), (int) (latest - created),
          acknowledged, lanceErrors, internal, lanceGaveUp, conflicts, falseConflicts.size(), falseConflicts,
          genuine, lancetErrors, lancetGaveUp, reruns, lostRaces, forms, composite, unreadable);
    }
  }

  /** "lancet" for both Lancet writers, else the lance-core worker's name. */
  private static String writerKind(WorkerLog e) {
    String w = e.get("writer");
    return w.startsWith("lancet-") ? "lancet" : w;
  }

  /** Replays one acknowledged commit on the model, failing when it contradicts it. */
  private static void apply(Map<Long, String> model, WorkerLog ack, String run) {
    String what = run + ": " + ack;
    switch (ack.get("op")) {
      case "COMPACT", "CONFIG", "RESERVE" -> { }
      case "APPEND" -> {
        List<Long> ids = writerKind(ack).equals("lancet") ? ack.ids("fresh") : ack.ids("ids");
        for (long id : ids) {
          assertThat(model.put(id, MixedTable.canonical(LanceFixtures.name(id)))).as("%s appends id %d, which exists",
              what, id).isNull();
        }
      }
      case "DELETE" -> {
        for (long id : ack.ids("targets")) {
          assertThat(model.remove(id)).as("%s deletes id %d, which is not live", what, id).isNotNull();
        }
      }
      case "MERGE" -> {
        int w = Integer.parseInt(ack.get("writer").substring("lancet-".length()));
        int round = Integer.parseInt(ack.get("round"));
        for (long id : ack.ids("targets")) {
          assertThat(model.put(id, MixedTable.mergedValue(w, round, id))).as("%s updates id %d, which is not live",
              what, id).isNotNull();
        }
        for (long id : ack.ids("fresh")) {
          assertThat(model.put(id, MixedTable.mergedValue(w, round, id))).as("%s inserts id %d, which exists",
              what, id).isNull();
        }
      }
      default -> throw new AssertionError("unknown acknowledged operation in " + what);
    }
  }
}
