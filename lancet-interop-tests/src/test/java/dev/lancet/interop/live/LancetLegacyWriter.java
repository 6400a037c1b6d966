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
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.interop.lance.LanceOracle.RowIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
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
 * <p>Writer {@code w} owns the odd initial ids with {@code (id / 2) % 2 == w} and the ids it
 * appends; it reads where its rows are (fragment, offset) with lance-core at the version it
 * planned on. Its model of its own rows ({@link Report#expected}) is updated only on
 * acknowledgement.
 */
final class LancetLegacyWriter implements Callable<LancetLegacyWriter.Report> {
  static final int MAX_PLANS = 40;

  /** What the writer saw: acknowledged commits, its rows' expected values, errors by type. */
  record Report(int writer, List<String> acknowledgedUuids, Map<Long, String> expected,
      Set<Long> deleted, Map<String, Integer> errorsByType, List<String> untypedErrors,
      Map<String, Integer> acknowledgedByOperation, int abandoned, Map<String, Integer> attemptOutcomes,
      int rebasedCommits) {}

  /** One planned operation and the effect it has on the model once acknowledged. */
  private record Plan(long readVersion, LegacyOperation operation, Map<Long, String> upserts,
      Set<Long> deletes) {}

  private final Path dir;
  private final int writer;
  private final int rounds;
  private final Random random;
  private final CountDownLatch start;
  private final Map<Long, String> expected = new TreeMap<>();
  private final Set<Long> deleted = new TreeSet<>();
  private final List<String> acknowledged = new ArrayList<>();
  private final Map<String, Integer> errors = new TreeMap<>();
  private final Map<String, Integer> byOperation = new TreeMap<>();
  private final List<String> untyped = new ArrayList<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private long nextAppend;
  private int abandoned;
  private int rebased;

  LancetLegacyWriter(Path dir, int writer, int rounds, long seed, CountDownLatch start) {
    this.dir = dir;
    this.writer = writer;
    this.rounds = rounds;
    this.random = new Random(seed);
    this.start = start;
    this.nextAppend = LiveTable.LANCET_APPEND_BASE * (writer + 2);
    for (long id = 1; id < LiveTable.INITIAL_ROWS; id += 2) {
      if ((id / 2) % 2 == writer) {
        expected.put(id, LanceFixtures.name(id));
      }
    }
  }

  /** The initial ids this writer owns. */
  Set<Long> initialOwned() {
    return Set.copyOf(expected.keySet());
  }

  @Override
  public Report call() throws Exception {
    start.await();
    try (Table table = Table.open(dir.toString())) {
      DataFile layout = table.latest().manifest().fragments().get(0).files().get(0);
      for (int round = 0; round < rounds; round++) {
        int kind = round % 3;
        String name = kind == 0 ? "Append" : kind == 1 ? "Delete" : "Update";
        int r = round;
        commit(table, name, () -> kind == 0 ? planAppend(table, layout)
            : kind == 1 ? planDelete(table) : planUpdate(table, layout, r));
      }
    }
    return new Report(writer, List.copyOf(acknowledged), Collections.unmodifiableMap(new TreeMap<>(expected)),
        Set.copyOf(deleted),
        Map.copyOf(errors), List.copyOf(untyped), Map.copyOf(byOperation), abandoned, Map.copyOf(outcomes),
        rebased);
  }

  private interface Planner {
    Plan plan();
  }

  /** Plans and commits until acknowledged, re-planning on every typed conflict. */
  private void commit(Table table, String name, Planner planner) {
    for (int plans = 0; plans < MAX_PLANS; plans++) {
      Plan plan = planner.plan();
      String uuid = UUID.randomUUID().toString();
      boolean replan = false;
      while (!replan) {
        try {
          CommitResult result = table.newLegacyTransaction(plan.operation())
              .readVersion(plan.readVersion()).uuid(uuid)
              .onAttempt(a -> outcomes.merge(a.outcome().name(), 1, Integer::sum))
              .commit();
          acknowledged.add(result.transactionUuid());
          if (result.manifest().version() > plan.readVersion() + 1) {
            rebased++; // published over commits it did not read: checked and rebased
          }
          expected.putAll(plan.upserts());
          for (long id : plan.deletes()) {
            expected.remove(id);
            deleted.add(id);
          }
          byOperation.merge(name, 1, Integer::sum);
          return;
        } catch (ConflictingCommitException | IncompatibleTransactionException
            | RetriesExhaustedException e) {
          count(e);
          replan = true;
        } catch (CommitStateUnknownException e) {
          count(e); // re-submit the same transaction: a landed attempt is recognised by its uuid
        } catch (ApplyException | InvalidOperationException e) {
          count(e); // our input was refused: a planning bug; plan again on fresh state
          untyped.add(name + " refused as invalid input: " + e.getMessage());
          replan = true;
        } catch (LancetException e) {
          count(e);
          untyped.add(name + " failed with an unexpected Lancet error " + e);
          replan = true;
        } catch (RuntimeException e) {
          count(e);
          untyped.add(name + " failed with " + e);
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

  /** Deletes one to three of its live rows: new deletion vectors, as Lance's Delete records them. */
  private Plan planDelete(Table table) {
    Manifest m = table.latest().manifest();
    List<Long> chosen = choose(1 + random.nextInt(3));
    Rows rows = locate(table, m, chosen);
    String predicate = "id IN (" + chosen.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
    Delete op = new Delete(rows.updated(), rows.removed(), predicate);
    return new Plan(m.version(), op, Map.of(), Set.copyOf(chosen));
  }

  /**
   * Updates the name of one to three of its live rows, rewrite-rows style: the old rows are
   * deleted where they are and written again, with the new value, into a new fragment.
   */
  private Plan planUpdate(Table table, DataFile layout, int round) {
    Manifest m = table.latest().manifest();
    List<Long> chosen = choose(1 + random.nextInt(3));
    Rows rows = locate(table, m, chosen);
    List<String> names = new ArrayList<>();
    Map<Long, String> upserts = new LinkedHashMap<>();
    for (long id : chosen) {
      String value = "upd-" + id + "-w" + writer + "-r" + round;
      names.add(value);
      upserts.put(id, value);
    }
    DataFile file = LiveTable.writeRows(dir, chosen, names, layout);
    Update op = new Update(rows.removed(), rows.updated(),
        List.of(Fragment.of(0, chosen.size(), List.of(file))), List.of(), List.of(), List.of(),
        Update.UpdateMode.REWRITE_ROWS, Optional.empty(), Map.of());
    return new Plan(m.version(), op, upserts, Set.of());
  }

  private List<Long> choose(int n) {
    List<Long> live = new ArrayList<>(expected.keySet());
    List<Long> out = new ArrayList<>();
    while (out.size() < n && !live.isEmpty()) {
      out.add(live.remove(random.nextInt(live.size())));
    }
    out.sort(null);
    return out;
  }

  /** The fragments holding {@code ids} after deleting them, and the fragments left empty. */
  private record Rows(List<Fragment> updated, List<Long> removed) {}

  private Rows locate(Table table, Manifest m, List<Long> ids) {
    Map<Long, RowIdentity> where = new HashMap<>();
    for (RowIdentity r : LanceOracle.rowIdentities(dir, m.version())) {
      where.put(r.id(), r);
    }
    Map<Long, List<Integer>> offsets = new TreeMap<>();
    for (long id : ids) {
      RowIdentity r = where.get(id);
      if (r == null) {
        throw new IllegalStateException("writer " + writer + " owns id " + id
            + " but lance-core does not see it at version " + m.version());
      }
      offsets.computeIfAbsent((long) r.fragmentId(), k -> new ArrayList<>()).add(r.offset());
    }
    List<Fragment> updated = new ArrayList<>();
    List<Long> removed = new ArrayList<>();
    for (Map.Entry<Long, List<Integer>> e : offsets.entrySet()) {
      Fragment f = m.fragments().stream().filter(x -> x.id() == e.getKey()).findFirst()
          .orElseThrow(() -> new IllegalStateException("no fragment " + e.getKey() + " in version " + m.version()));
      DeletionVector dv = DeletionVector.of(e.getValue().stream().mapToInt(Integer::intValue).toArray());
      Optional<Fragment> post = LiveTable.withDeleted(table, f, dv, m.version());
      if (post.isPresent()) {
        updated.add(post.get());
      } else {
        removed.add(f.id());
      }
    }
    return new Rows(updated, removed);
  }
}
