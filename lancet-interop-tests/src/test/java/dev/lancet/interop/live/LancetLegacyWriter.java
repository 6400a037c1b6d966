package dev.lancet.interop.live;

import dev.lancet.core.LancetException;
import dev.lancet.core.Table;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.CommitStateUnknownException;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.commit.IncompatibleTransactionException;
import dev.lancet.core.commit.RetriesExhaustedException;
import dev.lancet.core.operation.Append;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.operation.InvalidOperationException;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.Update;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle.RowIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * A Lancet writer (one thread) committing legacy Append, Delete and Update operations to the
 * live table, each planned on the latest version it reads, handling every commit error per the
 * contract: a retryable conflict, an incompatible transaction or exhausted retries re-read and
 * re-plan; an unknown commit state re-submits the same transaction (same uuid); anything else is
 * recorded as untyped (the test fails on it).
 *
 * <p>Writer {@code w} owns its initial ids ({@link LiveTable#owner}) and the ids it appends, and
 * shares the contested ids with the other Lancet writer and lance-core: about half of the rows
 * a Delete or Update picks are contested. It reads where rows are (fragment, offset) with
 * lance-core at the version it plans on; a contested row that is gone there was deleted by
 * someone else and is skipped from then on. A concurrent delete of a row it planned to change
 * must come back as a typed conflict, after which it re-plans on the newer version.
 */
final class LancetLegacyWriter implements Callable<LancetLegacyWriter.Report> {
  static final int MAX_PLANS = 40;

  /**
   * What the writer saw: its acknowledged commits, errors by type and by type and winner
   * operation, untyped errors, attempt outcomes.
   */
  record Report(int writer, List<LiveEvent> acknowledged, Map<String, Integer> errorsByType,
      Map<String, Integer> conflictsByWinner, List<String> untypedErrors,
      Map<String, Integer> acknowledgedByOperation, int abandoned, Map<String, Integer> attemptOutcomes,
      int rebasedCommits) {}

  /** One planned operation and the effect it has on the model once acknowledged. */
  private record Plan(long readVersion, LegacyOperation operation, Map<Long, String> upserts,
      Set<Long> deletes) {}

  private final Path dir;
  private final int writer;
  private final String name;
  private final int rounds;
  private final Random random;
  private final CountDownLatch start;
  /** Its own live rows. */
  private final Set<Long> owned = new TreeSet<>();
  /** Contested rows not known to be deleted. */
  private final List<Long> contested = new ArrayList<>(LiveTable.initialIds(LiveTable.Owner.CONTESTED));
  private final List<LiveEvent> acknowledged = new ArrayList<>();
  private final Map<String, Integer> errors = new TreeMap<>();
  private final Map<String, Integer> conflicts = new TreeMap<>();
  private final Map<String, Integer> byOperation = new TreeMap<>();
  private final List<String> untyped = new ArrayList<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private long nextAppend;
  private int abandoned;
  private int rebased;

  LancetLegacyWriter(Path dir, int writer, int rounds, long seed, CountDownLatch start) {
    this.dir = dir;
    this.writer = writer;
    this.name = "lancet-w" + writer;
    this.rounds = rounds;
    this.random = new Random(seed);
    this.start = start;
    this.nextAppend = LiveTable.LANCET_APPEND_BASE * (writer + 2);
    owned.addAll(LiveTable.initialIds(writer == 0 ? LiveTable.Owner.LANCET_0 : LiveTable.Owner.LANCET_1));
  }

  @Override
  public Report call() throws Exception {
    start.await();
    try (Table table = Table.open(dir.toString())) {
      DataFile layout = table.latest().manifest().fragments().get(0).files().get(0);
      for (int round = 0; round < rounds; round++) {
        int kind = round % 3;
        String op = kind == 0 ? "Append" : kind == 1 ? "Delete" : "Update";
        int r = round;
        commit(table, op, () -> kind == 0 ? Optional.of(planAppend(table, layout))
            : kind == 1 ? planDelete(table) : planUpdate(table, layout, r));
      }
    }
    return new Report(writer, List.copyOf(acknowledged), Map.copyOf(errors), Map.copyOf(conflicts),
        List.copyOf(untyped), Map.copyOf(byOperation), abandoned, Map.copyOf(outcomes), rebased);
  }

  private interface Planner {
    /** The next plan on the latest version; empty when no row is left to change. */
    Optional<Plan> plan();
  }

  /** Plans and commits until acknowledged, re-planning on every typed conflict. */
  private void commit(Table table, String op, Planner planner) {
    for (int plans = 0; plans < MAX_PLANS; plans++) {
      Optional<Plan> planned = planner.plan();
      if (planned.isEmpty()) {
        return;
      }
      Plan plan = planned.get();
      String uuid = UUID.randomUUID().toString();
      boolean replan = false;
      while (!replan) {
        try {
          CommitResult result = table.newLegacyTransaction(plan.operation())
              .readVersion(plan.readVersion()).uuid(uuid)
              .onAttempt(a -> outcomes.merge(a.outcome().name(), 1, Integer::sum))
              .commit();
          acknowledged.add(new LiveEvent(result.version(), result.transactionUuid(), name, op,
              plan.upserts(), plan.deletes(), true));
          if (result.version() > plan.readVersion() + 1) {
            rebased++; // published over commits it did not read: checked and rebased
          }
          owned.addAll(op.equals("Append") ? plan.upserts().keySet() : Set.of());
          owned.removeAll(plan.deletes());
          contested.removeAll(plan.deletes());
          byOperation.merge(op, 1, Integer::sum);
          return;
        } catch (ConflictingCommitException e) {
          count(e);
          conflicts.merge(op + " vs " + e.winnerOperation(), 1, Integer::sum);
          replan = true;
        } catch (IncompatibleTransactionException | RetriesExhaustedException e) {
          count(e);
          replan = true;
        } catch (CommitStateUnknownException e) {
          count(e); // re-submit the same transaction: a landed attempt is recognised by its uuid
        } catch (ApplyException | InvalidOperationException e) {
          count(e); // our input was refused: a planning bug; plan again on fresh state
          untyped.add(op + " refused as invalid input: " + e.getMessage());
          replan = true;
        } catch (LancetException e) {
          count(e);
          untyped.add(op + " failed with an unexpected Lancet error " + e);
          replan = true;
        } catch (RuntimeException e) {
          count(e);
          untyped.add(op + " failed with " + e);
          replan = true;
        }
      }
    }
    abandoned++;
  }

  private void count(Exception e) {
    errors.merge(e.getClass().getSimpleName(), 1, Integer::sum);
  }

  private Plan planAppend(Table table, DataFile layout) {
    long version = table.latest().version();
    long first = nextAppend;
    nextAppend += LiveTable.BATCH;
    List<Long> ids = new ArrayList<>();
    List<String> names = new ArrayList<>();
    Map<Long, String> upserts = new LinkedHashMap<>();
    for (long id = first; id < first + LiveTable.BATCH; id++) {
      ids.add(id);
      names.add(LanceFixtures.name(id));
      upserts.put(id, LanceFixtures.name(id));
    }
    DataFile file = LiveTable.writeRows(dir, ids, names, layout);
    Append op = new Append(List.of(Fragment.of(0, ids.size(), List.of(file))));
    return new Plan(version, op, upserts, Set.of());
  }

  /** Deletes one to three live rows: new deletion vectors, as Lance's Delete records them. */
  private Optional<Plan> planDelete(Table table) {
    Manifest m = table.latest().manifest();
    Map<Long, RowIdentity> where = LiveTable.rowsAt(dir, m.version());
    List<Long> chosen = choose(1 + random.nextInt(3), where, m.version());
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    LiveTable.RowDeletion rows = LiveTable.deleteRows(table, m, where, chosen);
    String predicate = "id IN (" + chosen.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
    Delete op = new Delete(rows.updated(), rows.removed(), predicate);
    return Optional.of(new Plan(m.version(), op, Map.of(), Set.copyOf(chosen)));
  }

  /**
   * Updates the name of one to three live rows, rewrite-rows style: the old rows are deleted
   * where they are and written again, with the new value, into a new fragment.
   */
  private Optional<Plan> planUpdate(Table table, DataFile layout, int round) {
    Manifest m = table.latest().manifest();
    Map<Long, RowIdentity> where = LiveTable.rowsAt(dir, m.version());
    List<Long> chosen = choose(1 + random.nextInt(3), where, m.version());
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    LiveTable.RowDeletion rows = LiveTable.deleteRows(table, m, where, chosen);
    List<String> names = new ArrayList<>();
    Map<Long, String> upserts = new LinkedHashMap<>();
    for (long id : chosen) {
      String value = "upd-" + id + "-w" + writer + "-r" + round + "-v" + m.version();
      names.add(value);
      upserts.put(id, value);
    }
    DataFile file = LiveTable.writeRows(dir, chosen, names, layout);
    Update op = new Update(rows.removed(), rows.updated(),
        List.of(Fragment.of(0, chosen.size(), List.of(file))), List.of(), List.of(), List.of(),
        Update.UpdateMode.REWRITE_ROWS, Optional.empty(), Map.of());
    return Optional.of(new Plan(m.version(), op, upserts, Set.of()));
  }

  /**
   * Up to {@code n} rows live at {@code version}, each contested with probability one half; a
   * contested row gone at {@code version} was deleted by another writer and is dropped for good.
   */
  private List<Long> choose(int n, Map<Long, RowIdentity> where, long version) {
    contested.removeIf(id -> !where.containsKey(id));
    for (long id : owned) {
      if (!where.containsKey(id)) {
        throw new IllegalStateException(name + " owns id " + id + " but lance-core does not see it at version "
            + version);
      }
    }
    List<Long> mine = new ArrayList<>(owned);
    List<Long> shared = new ArrayList<>(contested);
    Set<Long> out = new TreeSet<>();
    while (out.size() < n && !(mine.isEmpty() && shared.isEmpty())) {
      List<Long> from = shared.isEmpty() || (!mine.isEmpty() && random.nextBoolean()) ? mine : shared;
      out.add(from.remove(random.nextInt(from.size())));
    }
    return new ArrayList<>(out);
  }
}
