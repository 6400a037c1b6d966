package dev.lancet.bench;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.FaultInjectingStore;
import dev.lancet.core.store.FaultInjectingStore.Operation;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How many store calls a Lancet commit makes, per operation type, as a function of the number of
 * versions ("winners") committed since it last looked. Counted with {@link FaultInjectingStore}
 * around a {@link LocalObjectStore}; the winners are composite appends committed by another
 * writer through its own, uncounted store on the same directory.
 *
 * <ul>
 *   <li>{@link Scenario#STALE_READ}: the transaction is planned at version {@code v0}, {@code k}
 *       winners land, then {@code commit()} runs. Counted: the whole {@code commit()}.
 *   <li>{@link Scenario#LOST_RACE}: the transaction is planned at the latest version; just before
 *       its first put-if-absent, {@code k} winners land. Counted: every call after that first
 *       (lost) put-if-absent, i.e. what losing the race and retrying costs.
 * </ul>
 *
 * <p>Usage: {@code CommitReads [k ...]} (default 1 10 100) prints one row per scenario and k.
 */
public final class CommitReads {

  /** Which situation the commit meets; see the class comment. */
  public enum Scenario { STALE_READ, LOST_RACE }

  /** Store calls per operation type, and the commit's attempts. */
  public record Counts(Map<Operation, Long> calls, int attempts, long version) {
    public long get(Operation op) {
      return calls.getOrDefault(op, 0L);
    }

    /** Every call that reads: get, get-range, size, exists, list. */
    public long reads() {
      return get(Operation.GET) + get(Operation.GET_RANGE) + get(Operation.SIZE)
          + get(Operation.EXISTS) + get(Operation.LIST);
    }
  }

  private static final CommitPolicy FAST_RETRY =
      new CommitPolicy(20, Duration.ofSeconds(60), Duration.ofMillis(1));

  private CommitReads() {}

  /** Creates a one-fragment table (version 1, V2 naming) written by Lancet alone. */
  public static void createTable(Path dir) {
    Manifest v1 = Manifest.builder()
        .version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").nullable(false).build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of(new DataFile("base.lance", List.of(0), List.of(0), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(0))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    } catch (IOException e) {
      throw new UncheckedIOException("creating a table in " + dir, e);
    }
  }

  /** Runs one scenario with {@code winners} winners on the table at {@code dir}. */
  public static Counts measure(Path dir, Scenario scenario, int winners) {
    FaultInjectingStore counted = FaultInjectingStore.wrap(new LocalObjectStore(dir));
    try (Table ours = Table.open(dir.toString(), counted);
        Table other = Table.open(dir.toString(), new LocalObjectStore(dir))) {
      TransactionBuilder txn = append(dir, ours.newTransaction(), "ours").policy(FAST_RETRY);
      if (scenario == Scenario.STALE_READ) {
        // Planned from an earlier read: such a plan names its read version, and the commit
        // scans from it (no head start from newTransaction's latest entry, decision 0014).
        txn.readVersion(txn.readVersion());
      }
      CommitResult result;
      Map<Operation, Long> before = new EnumMap<>(Operation.class);
      if (scenario == Scenario.STALE_READ) {
        commitWinners(dir, other, winners);
        before.putAll(counted.counts());
        result = txn.commit();
      } else {
        counted.onCall(Operation.PUT_IF_ABSENT, ManifestNaming.VERSIONS_DIR, (op, path, call) -> {
          if (call == 1) {
            commitWinners(dir, other, winners);
            // This put-if-absent is already counted, so it stays out of the difference.
            before.putAll(counted.counts());
          }
        });
        result = txn.commit();
      }
      Map<Operation, Long> calls = new EnumMap<>(Operation.class);
      for (Map.Entry<Operation, Long> e : counted.counts().entrySet()) {
        calls.put(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L));
      }
      return new Counts(Map.copyOf(calls), result.attempts(), result.version());
    }
  }

  private static void commitWinners(Path dir, Table other, int winners) {
    for (int w = 0; w < winners; w++) {
      append(dir, other.newTransaction(), "winner-" + w).commit();
    }
  }

  private static TransactionBuilder append(Path dir, TransactionBuilder b, String name) {
    DataFile file = file(dir, name + ".lance");
    return b.step("append " + name, s -> s.addFragment(0, 10)
        .addDataFile(Ref.local(0), file, Ref.committed(0)));
  }

  /** A stand-in data file of 100 bytes: the kernel only checks that it exists with its size. */
  private static DataFile file(Path dir, String name) {
    try {
      Path p = dir.resolve("data").resolve(name);
      Files.createDirectories(p.getParent());
      Files.write(p, new byte[100]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new DataFile(name, List.of(), List.of(0), 2, 1, 100);
  }

  public static void main(String[] args) throws IOException {
    List<Integer> ks = new ArrayList<>();
    for (String a : args) {
      ks.add(Integer.parseInt(a));
    }
    if (ks.isEmpty()) {
      ks.addAll(List.of(0, 1, 10, 100));
    }
    System.out.println("| scenario | k | attempts | GET | SIZE | EXISTS | LIST | GET_RANGE | reads | PUT | PUT_IF_ABSENT |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Scenario s : Scenario.values()) {
      for (int k : ks) {
        if (s == Scenario.LOST_RACE && k == 0) {
          continue; // losing a race needs a winner
        }
        Path dir = Files.createTempDirectory("lancet-bench-reads-");
        try {
          createTable(dir);
          Counts c = measure(dir, s, k);
          System.out.printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |%n", s, k,
              c.attempts(), c.get(Operation.GET), c.get(Operation.SIZE), c.get(Operation.EXISTS),
              c.get(Operation.LIST), c.get(Operation.GET_RANGE), c.reads(), c.get(Operation.PUT),
              c.get(Operation.PUT_IF_ABSENT));
        } finally {
          BenchTables.deleteRecursively(dir);
        }
      }
    }
  }
}
