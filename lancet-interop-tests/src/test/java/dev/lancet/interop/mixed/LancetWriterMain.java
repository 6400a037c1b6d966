package dev.lancet.interop.mixed;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.statements.KeyValueRows;
import dev.lancet.table.Attempt;
import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import dev.lancet.table.RetryableConflictException;
import dev.lancet.table.StatementResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A Lancet writer in its own JVM, through the table API ({@link LanceTable}): appends of fresh
 * ids, deletes ({@code id IN (...)}) and merge inserts (updates of its own rows plus inserts of
 * fresh ids) of the rows it owns ({@link MixedTable}), so it knows exactly what each commit must
 * do. Statements never re-plan on their own ({@code maxReplans(0)}): this worker re-runs a
 * statement after a retryable conflict, up to {@link #MAX_TRIES} times, so that every conflict
 * is reported ({@code CONFLICT}, with the winner's version and operation and the typed
 * collision kinds) and can be judged by the checker. Reports {@code ACK} for every acknowledged
 * commit (version, uuid, ids, plans, lost races), {@code ERROR} for anything else and {@code
 * GAVEUP} when the tries ran out.
 *
 * <p>Args: table, ready file, go file, writer number, rounds, seed, done file (created at the
 * end, so that the lance-core workers stop).
 */
public final class LancetWriterMain {
  static final int MAX_TRIES = 10;
  static final int APPEND_ROWS = 10;

  private LancetWriterMain() {}

  private enum Op { APPEND, DELETE, MERGE }

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    int w = Integer.parseInt(args[3]);
    int rounds = Integer.parseInt(args[4]);
    Random random = new Random(Long.parseLong(args[5]));
    String writer = "lancet-" + w;
    List<Long> live = new ArrayList<>(MixedTable.initialIds(w));
    long next = MixedTable.lancetBase(w);
    Path doneFile = Path.of(args[6]);
    try (BufferAllocator alloc = new RootAllocator(); LanceTable table = LanceTable.open(uri)) {
      table.countRows(); // warm up before the go signal
      WorkerProcesses.readyThenAwaitGo(Path.of(args[1]), Path.of(args[2]));
      for (int round = 0; round < rounds; round++) {
        int pick = random.nextInt(10);
        Op op = pick < 4 ? Op.APPEND : pick < 7 ? Op.DELETE : Op.MERGE;
        if (live.size() < 4) {
          op = Op.APPEND;
        }
        List<Long> targets = new ArrayList<>(); // own live rows deleted or updated
        List<Long> fresh = new ArrayList<>(); // new ids appended or inserted
        switch (op) {
          case APPEND -> {
            for (int i = 0; i < APPEND_ROWS; i++) {
              fresh.add(next++);
            }
          }
          case DELETE -> {
            targets.add(live.remove(random.nextInt(live.size())));
            targets.add(live.remove(random.nextInt(live.size())));
          }
          case MERGE -> {
            targets.add(live.get(random.nextInt(live.size())));
            Long other;
            do {
              other = live.get(random.nextInt(live.size()));
            } while (other.equals(targets.get(0)));
            targets.add(other);
            fresh.add(next++);
            fresh.add(next++);
          }
        }
        boolean acknowledged = run(table, alloc, writer, w, round, op, targets, fresh);
        if (acknowledged) {
          live.addAll(fresh);
        } else if (op == Op.DELETE) {
          live.addAll(targets); // nothing was deleted
        }
      }
    } finally {
      java.nio.file.Files.createFile(doneFile);
    }
    WorkerLog.print("DONE", "", "writer", writer);
  }

  /** Runs one statement until acknowledged (true), or until it failed otherwise or ran out of tries. */
  private static boolean run(LanceTable table, BufferAllocator alloc, String writer, int w, int round,
      Op op, List<Long> targets, List<Long> fresh) throws java.io.IOException {
    List<String> conflicts = new ArrayList<>();
    for (int tryNo = 1; tryNo <= MAX_TRIES; tryNo++) {
      List<Attempt> attempts = new ArrayList<>();
      try {
        long version;
        String uuid;
        String mismatch = "";
        switch (op) {
          case APPEND -> {
            Map<Long, String> rows = new TreeMap<>();
            fresh.forEach(id -> rows.put(id, LanceFixtures.name(id)));
            try (KeyValueRows batch = MixedTable.batch(alloc, rows)) {
              CommitInfo info = table.newAppend().from(batch).onAttempt(attempts::add).commit();
              version = info.version();
              uuid = info.transactionUuid();
              if (info.rowsWritten() != fresh.size()) {
                mismatch = "appended " + info.rowsWritten() + " rows, not " + fresh.size();
              }
            }
          }
          case DELETE -> {
            StatementResult r = table.newDelete().where("id IN (" + targets.stream()
                    .map(String::valueOf).collect(Collectors.joining(", ")) + ")")
                .maxReplans(0).onAttempt(attempts::add).commit();
            version = r.version().orElseThrow(() -> new IllegalStateException(
                "deleting own live rows " + targets + " committed nothing"));
            uuid = committedUuid(r.attempts());
            if (r.rowsDeleted() != targets.size()) {
              mismatch = "deleted " + r.rowsDeleted() + " rows, not " + targets.size();
            }
          }
          case MERGE -> {
            Map<Long, String> rows = new LinkedHashMap<>();
            targets.forEach(id -> rows.put(id, MixedTable.mergedValue(w, round, id)));
            fresh.forEach(id -> rows.put(id, MixedTable.mergedValue(w, round, id)));
            try (KeyValueRows batch = MixedTable.batch(alloc, rows)) {
              StatementResult r = table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll()
                  .maxReplans(0).onAttempt(attempts::add).from(batch).commit();
              version = r.version().orElseThrow(() -> new IllegalStateException(
                  "merge insert of " + rows.keySet() + " committed nothing"));
              uuid = committedUuid(r.attempts());
              if (r.rowsUpdated() != targets.size() || r.rowsInserted() != fresh.size()) {
                mismatch = "updated " + r.rowsUpdated() + " and inserted " + r.rowsInserted()
                    + " rows, not " + targets.size() + " and " + fresh.size();
              }
            }
          }
          default -> throw new IllegalStateException(op.name());
        }
        long lostRaces = attempts.stream().filter(a -> a.outcome() == Attempt.Outcome.LOST_RACE).count();
        WorkerLog.print("ACK", "", "writer", writer, "op", op.name(), "round", String.valueOf(round),
            "version", String.valueOf(version), "uuid", uuid, "tries", String.valueOf(tryNo),
            "lostRaces", String.valueOf(lostRaces), "targets", WorkerLog.ids(targets),
            "fresh", WorkerLog.ids(fresh));
        if (!mismatch.isEmpty()) {
          WorkerLog.print("ERROR", mismatch, "writer", writer, "op", op.name(), "round",
              String.valueOf(round), "class", "CountMismatch");
        }
        return true;
      } catch (RetryableConflictException e) {
        String winnerOp = "unknown";
        String kinds;
        if (e.getCause() instanceof ConflictingCommitException c) {
          winnerOp = c.winnerOperation();
          kinds = c.conflicts().stream().map(x -> x.kind().name()).distinct().sorted()
              .collect(Collectors.joining(","));
        } else {
          // The commit loop's retry budget ran out (lost races only): no collision to name.
          kinds = e.getCause() == null ? "NO_CAUSE" : e.getCause().getClass().getSimpleName();
        }
        WorkerLog.print("CONFLICT", String.join("; ", e.collisions()), "writer", writer,
            "op", op.name(), "round", String.valueOf(round), "try", String.valueOf(tryNo),
            "winner", String.valueOf(e.winnerVersion()), "winnerOp", winnerOp.replace(' ', '_'),
            "kinds", kinds, "targets", WorkerLog.ids(targets));
        conflicts.add(winnerOp + " " + kinds);
      } catch (RuntimeException e) {
        WorkerLog.print("ERROR", String.valueOf(e), "writer", writer, "op", op.name(),
            "round", String.valueOf(round), "class", e.getClass().getName());
        return false;
      }
    }
    WorkerLog.print("GAVEUP", "conflicts: " + String.join(", ", conflicts), "writer", writer,
        "op", op.name(), "round", String.valueOf(round));
    return false;
  }

  private static String committedUuid(List<Attempt> attempts) {
    return attempts.stream().filter(a -> a.outcome() == Attempt.Outcome.COMMITTED
            || a.outcome() == Attempt.Outcome.ALREADY_COMMITTED)
        .reduce((a, b) -> b).map(Attempt::transactionUuid)
        .orElseThrow(() -> new IllegalStateException("a committed statement reports no committed attempt"));
  }
}
