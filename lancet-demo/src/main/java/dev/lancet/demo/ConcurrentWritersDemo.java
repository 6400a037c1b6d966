package dev.lancet.demo;

import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitAttempt;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The concurrent-writers demo. Creates a table of real Lance data files, starts seven writers
 * together, each committing Transaction V2 composite operations, and checks the result with
 * Lancet and with lance-core.
 *
 * <p>The writers (all plan against the same starting version, then commit at once; latches
 * order only the racing pairs):
 *
 * <ul>
 *   <li>A appends ids 1000..1049; B appends 2000..2049, then 1049..1098, both with key
 *       assertions. B's second batch shares key 1049 with A's: it waits for A's commit, meets a
 *       typed conflict, re-reads, drops the key that now exists and lands.
 *   <li>C adds the column {@code score} with a data file per starting fragment while the appends
 *       land: the two commute (C rebases). Appended fragments have no {@code score} data, so
 *       readers see null there.
 *   <li>D deletes rows of fragment 0 while E rewrites its {@code value} column: row deletions and
 *       column rewrites commute (E rebases over D), as the V2 conflict rules say.
 *   <li>F and G both delete rows of fragment 1, one row in common: G waits for F; deletes of
 *       other rows of one fragment would merge row by row (docs/decisions/0016), but the shared
 *       row is a typed conflict naming it, so G re-reads the deletion vector F wrote, merges its
 *       rows into it and lands.
 * </ul>
 */
public final class ConcurrentWritersDemo {
  public static final int FRAGMENTS = 3;
  public static final int ROWS_PER_FRAGMENT = 100;

  private ConcurrentWritersDemo() {}

  /** Runs the demo in {@code dir}, which must be empty or not exist. */
  public static DemoReport run(Path dir) {
    return run(DemoLocation.local(dir));
  }

  /**
   * Runs the demo at {@code dir}: an empty or new directory, or an object-store location
   * ({@code s3://bucket/path} with storage options) where no table and no data files are yet.
   */
  public static DemoReport run(DemoLocation dir) {
    long started = System.nanoTime();
    requireEmpty(dir);
    DemoTable.Initial initial;
    try (BufferAllocator alloc = new RootAllocator()) {
      initial = DemoTable.create(dir, alloc, FRAGMENTS, ROWS_PER_FRAGMENT);
    }
    List<Long> fragments = new ArrayList<>(initial.idsByFragment().keySet());
    fragments.sort(null);
    long f0 = fragments.get(0);
    long f1 = fragments.get(1);
    List<Long> f0Ids = initial.idsByFragment().get(f0);
    List<Long> f1Ids = initial.idsByFragment().get(f1);

    Job a1 = Job.of("A1", Planners.appendIfAbsent(dir, DemoRows.range(1000, 1050)),
        new Intent.Append(DemoRows.range(1000, 1050)), Expectation.lands("appends commute"));
    Job b1 = Job.of("B1", Planners.appendIfAbsent(dir, DemoRows.range(2000, 2050)),
        new Intent.Append(DemoRows.range(2000, 2050)), Expectation.lands("appends commute"));
    Job b2 = Job.of("B2", Planners.appendIfAbsent(dir, DemoRows.range(1049, 1099)),
        new Intent.Append(DemoRows.range(1049, 1099)),
        Expectation.conflictsOnce("key 1049 collides with A1: one typed conflict, re-planned"))
        .after(a1);
    Job c1 = Job.of("C1", Planners.addScoreColumn(dir, initial.idsByFragment()),
        new Intent.AddScoreColumn(initial.idsByFragment().keySet()),
        Expectation.rebases("adding a column commutes with appends")).after(a1);
    Set<Long> dIds = f0Ids.stream().filter(id -> id % 10 == 0).collect(Collectors.toSet());
    Job d1 = Job.of("D1", Planners.deleteRows(f0Ids, f0, dIds), new Intent.Delete(f0, dIds),
        Expectation.lands("a delete commutes with the column rewrite"));
    Job e1 = Job.of("E1", Planners.rewriteValues(dir, f0Ids, f0), new Intent.RewriteValues(f0),
        Expectation.rebases("a column rewrite commutes with a delete of the same fragment"))
        .after(d1);
    Set<Long> fIds = f1Ids.stream().filter(id -> id % 10 == 1).collect(Collectors.toSet());
    Set<Long> gIds = new TreeSet<>(f1Ids.stream().filter(id -> id % 10 == 2).toList());
    gIds.add(f1Ids.get(1)); // one row F deletes too: the merge must not count it twice
    Job fJob = Job.of("F1", Planners.deleteRows(f1Ids, f1, fIds), new Intent.Delete(f1, fIds),
        Expectation.lands("first delete of fragment " + f1));
    Job gJob = Job.of("G1", Planners.deleteRows(f1Ids, f1, gIds), new Intent.Delete(f1, gIds),
        Expectation.conflictsOnce("second delete of fragment " + f1
            + " shares a row with F1: one typed conflict, re-planned onto F's deletions")).after(fJob);

    Map<String, List<Job>> plan = new LinkedHashMap<>();
    plan.put("A", List.of(a1));
    plan.put("B", List.of(b1, b2));
    plan.put("C", List.of(c1));
    plan.put("D", List.of(d1));
    plan.put("E", List.of(e1));
    plan.put("F", List.of(fJob));
    plan.put("G", List.of(gJob));

    DemoLog log = new DemoLog();
    CyclicBarrier start = new CyclicBarrier(plan.size());
    List<Thread> threads = new ArrayList<>();
    plan.forEach((name, jobs) -> {
      Thread t = new Thread(new Writer(name, dir, jobs, start, log), "lancet-demo-writer-" + name);
      threads.add(t);
      t.start();
    });
    for (Thread t : threads) {
      try {
        t.join(Duration.ofMinutes(3).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the demo writers", e);
      }
      if (t.isAlive()) {
        log.error(t.getName() + " did not finish within 3 minutes");
      }
    }

    List<Job> allJobs = plan.values().stream().flatMap(List::stream).toList();
    List<Acknowledged> acks = log.acknowledged();
    List<Check> checks = new ArrayList<>();
    long finalVersion = verify(dir, initial, allJobs, log.attempts(), acks, checks);
    return new DemoReport(dir, finalVersion, log.attempts(), acks, checks, log.errors(),
        Duration.ofNanos(System.nanoTime() - started));
  }

  private static long verify(DemoLocation dir, DemoTable.Initial initial, List<Job> jobs,
      List<AttemptRecord> attempts, List<Acknowledged> acks, List<Check> checks) {
    try (Table table = dir.open()) {
      Manifest latest = table.latest().manifest();
      long version = latest.version();
      checks.add(Check.equal("latest version: Lancet vs lance-core", version, LanceDatasets.latestVersion(dir.uri(), dir.storageOptions())));

      // Every acknowledged commit is in the history, exactly once, at the version it was told.
      Map<String, List<Long>> versionsByUuid = new HashMap<>();
      for (VersionEntry e : table.versions()) {
        Optional<TransactionProtos.Transaction> txn = table.version(e.version()).transaction();
        txn.ifPresent(t -> versionsByUuid.computeIfAbsent(t.getUuid(), k -> new ArrayList<>()).add(e.version()));
      }
      checks.add(Check.equal("acknowledged commits (one per transaction)", jobs.size(), acks.size()));
      // The writers follow the table's write form (config lancet.write_form, decision 0022).
      dev.lancet.core.transaction.WriteForm form = dev.lancet.core.transaction.WriteForm.of(latest);
      Map<String, String> forms = new HashMap<>();
      for (VersionEntry e : table.versions()) {
        table.version(e.version()).transaction().ifPresent(t -> forms.put(t.getUuid(),
            t.getOperationCase().name()));
      }
      for (Acknowledged ack : acks) {
        checks.add(Check.equal(ack.transaction() + " written in the table's write form ("
            + form.configValue() + ")", "COMPOSITE_OPERATION", forms.getOrDefault(
                ack.transactionUuid(), "absent")));
      }
      for (Acknowledged ack : acks) {
        checks.add(Check.equal("history holds " + ack.transaction() + " (" + shortUuid(ack.transactionUuid()) + ")",
            "v" + ack.version(), versionsByUuid.getOrDefault(ack.transactionUuid(), List.of()).stream()
                .map(v -> "v" + v).collect(Collectors.joining(", ", "", ""))));
      }

      // How each commit went, against what the scenario is built to show.
      for (Job job : jobs) {
        checks.add(outcomeCheck(job, attempts, acks));
      }

      // Row counts per fragment: Lancet's manifest (physical - deleted) vs lance-core.
      SortedMap<Long, Long> lance = LanceDatasets.fragmentRowCounts(dir.uri(), dir.storageOptions(), version);
      Set<Long> ids = new TreeSet<>(lance.keySet());
      latest.fragments().forEach(f -> ids.add(f.id()));
      for (long id : ids) {
        Optional<Fragment> f = latest.fragment(id);
        checks.add(Check.equal("fragment " + id + " live rows: Lancet vs lance-core",
            f.map(Fragment::liveRows).map(String::valueOf).orElse("absent"),
            Optional.ofNullable(lance.get(id)).map(String::valueOf).orElse("absent")));
      }

      // The whole table against the model built from the acknowledged intents.
      List<Intent> intents = new ArrayList<>();
      acks.stream().sorted(Comparator.comparingLong(Acknowledged::version)).forEach(ack -> jobs.stream()
          .filter(j -> j.label().equals(ack.transaction())).findFirst().ifPresent(j -> intents.add(j.intent())));
      ExpectedTable model = new ExpectedTable(initial.idsByFragment(), intents);
      long lanceCount = LanceDatasets.countRows(dir.uri(), dir.storageOptions(), version);
      checks.add(new Check("total live rows: model, Lancet, lance-core", String.valueOf(model.rows.size()),
          "Lancet " + latest.liveRows() + ", lance-core " + lanceCount,
          model.rows.size() == latest.liveRows() && latest.liveRows() == lanceCount));
      List<LanceReads.Row> scanned = LanceReads.scan(dir, version, Optional.empty());
      long duplicates = scanned.size() - scanned.stream().map(LanceReads.Row::id).distinct().count();
      checks.add(Check.equal("duplicate ids (lance-core scan)", 0L, duplicates));
      checks.add(rowsCheck(model, scanned));
      return version;
    }
  }

  private static Check outcomeCheck(Job job, List<AttemptRecord> attempts, List<Acknowledged> acks) {
    List<AttemptRecord> mine = attempts.stream().filter(a -> a.transaction().equals(job.label())).toList();
    long conflicts = mine.stream().filter(a -> a.outcome() == CommitAttempt.Outcome.CONFLICT).count();
    Optional<AttemptRecord> landed = mine.stream()
        .filter(a -> a.outcome() == CommitAttempt.Outcome.COMMITTED).findFirst();
    boolean rebased = landed.isPresent() && landed.get().version() > landed.get().readVersion() + 1;
    Expectation ex = job.expectation();
    String expected = ex.conflicts() + " conflict(s), committed" + (ex.rebases() ? " after a rebase" : "");
    String actual = conflicts + " conflict(s), " + landed.map(a -> "committed v" + a.version()
        + " (read v" + a.readVersion() + ")").orElse("not committed");
    boolean ok = conflicts == ex.conflicts() && landed.isPresent() && (!ex.rebases() || rebased)
        && acks.stream().anyMatch(k -> k.transaction().equals(job.label()));
    return new Check(job.label() + ": " + ex.why(), expected, actual, ok);
  }

  private static Check rowsCheck(ExpectedTable model, List<LanceReads.Row> scanned) {
    Map<Long, LanceReads.Row> actual = new HashMap<>();
    scanned.forEach(r -> actual.put(r.id(), r));
    List<String> differences = new ArrayList<>();
    for (LanceReads.Row want : model.rows.values()) {
      LanceReads.Row got = actual.get(want.id());
      if (!Objects.equals(want, got)) {
        differences.add("id " + want.id() + ": want " + want + ", got " + got);
      }
    }
    for (long id : actual.keySet()) {
      if (!model.rows.containsKey(id)) {
        differences.add("id " + id + " should not be there");
      }
    }
    String actualText = differences.isEmpty() ? model.rows.size() + " rows equal"
        : differences.size() + " differ, e.g. " + differences.get(0);
    return new Check("rows (id, value, score) read by lance-core vs the model",
        model.rows.size() + " rows equal", actualText, differences.isEmpty());
  }

  private static String shortUuid(String uuid) {
    return uuid.length() > 8 ? uuid.substring(0, 8) : uuid;
  }

  private static void requireEmpty(DemoLocation location) {
    if (!location.isLocal()) {
      try (var store = location.store()) {
        if (!store.listFirst("_versions/", 1).isEmpty() || !store.listFirst("data/", 1).isEmpty()) {
          throw new IllegalArgumentException(location + " already holds a table or data files; name an empty "
              + "location for the demo table");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("listing " + location, e);
      }
      return;
    }
    Path dir = Path.of(location.uri());
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(dir + " is a file; name an empty or new directory for the demo table");
    }
    try (var s = Files.list(dir)) {
      if (s.findAny().isPresent()) {
        throw new IllegalArgumentException(dir + " is not empty; name an empty or new directory for the demo table");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + dir, e);
    }
  }
}
