package dev.lancet.interop.mixed;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.interop.mixed.LanceIngestMain.LanceTransactions;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.compaction.CompactionOptions;
import org.lance.operation.ReserveFragments;
import org.lance.operation.UpdateConfig;
import org.lance.operation.UpdateMap;

/**
 * lance-core 7.0.0 table maintenance in its own JVM: alternately {@code Dataset.compact} (a
 * Rewrite of the runs of small fragments; deletions are not materialized, so fragments of 100
 * rows are left alone and many Lancet deletes and updates do not touch what a compaction
 * rewrites) and a config update of {@link MixedTable#MAINTENANCE_KEY} (an UpdateConfig
 * transaction). Reports {@code ACK op=COMPACT|CONFIG} with the version and uuid, {@code NOOP}
 * when a compaction found nothing to do, and every error.
 *
 * <p>Each operation waits until other writers have published {@link #PACE} versions since its
 * last one ({@link Pacing}); it stops when the Lancet writers are done or after {@code max
 * rounds}.
 *
 * <p>Args: table, ready file, go file, the Lancet writers' done files (comma-separated), max
 * rounds.
 */
public final class LanceMaintenanceMain {
  static final String WRITER = "lance-maint";

  /** Fragments below this many rows are compacted together. */
  static final long TARGET_ROWS_PER_FRAGMENT = 60;

  /** Versions other writers publish between two maintenance operations. */
  static final int PACE = 3;

  private LanceMaintenanceMain() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    String uri = table.toString();
    Pacing pacing = new Pacing(table, args[3]);
    int rounds = Integer.parseInt(args[4]);
    LanceTransactions.warmUp(table);
    WorkerProcesses.readyThenAwaitGo(Path.of(args[1]), Path.of(args[2]));
    long last = pacing.latest();
    for (int round = 0; round < rounds && pacing.awaitVersion(last, PACE); round++) {
      int r = round;
      last = pacing.latest();
      if (round % 2 == 0) {
        long first = pacing.latest();
        Optional<long[]> versions = LanceRetries.run(WRITER, "COMPACT", round, () -> {
          try (BufferAllocator alloc = new RootAllocator();
              Dataset ds = Dataset.open().allocator(alloc).uri(uri).build()) {
            long before = ds.version();
            ds.compact(CompactionOptions.builder()
                .withTargetRowsPerFragment(TARGET_ROWS_PER_FRAGMENT)
                .withMaterializeDeletions(false)
                .build());
            return new long[] {before, ds.version()};
          }
        });
        // A failed attempt may have committed its reservation before its Rewrite failed.
        long end = versions.map(v -> v[1]).orElseGet(pacing::latest);
        reservations(table, r, first, versions.isPresent() ? end : end + 1);
        if (versions.isPresent()) {
          long[] v = versions.get();
          if (v[1] == v[0]) {
            WorkerLog.print("NOOP", "", "writer", WRITER, "op", "COMPACT", "round", String.valueOf(r),
                "version", String.valueOf(v[0]));
          } else {
            WorkerLog.print("ACK", "", "writer", WRITER, "op", "COMPACT", "round", String.valueOf(r),
                "version", String.valueOf(v[1]), "uuid", LanceTransactions.uuid(table, v[1]));
          }
        }
      } else {
        Optional<String[]> done = LanceRetries.run(WRITER, "CONFIG", round, () -> {
          try (BufferAllocator alloc = new RootAllocator();
              Dataset ds = Dataset.open().allocator(alloc).uri(uri).build()) {
            UpdateConfig op = UpdateConfig.builder()
                .configUpdates(UpdateMap.builder()
                    .updates(Map.of(MixedTable.MAINTENANCE_KEY, String.valueOf(r))).replace(false).build())
                .build();
            try (var txn = ds.newTransactionBuilder().operation(op).build();
                Dataset committed = txn.commit()) {
              return new String[] {String.valueOf(committed.version()), txn.uuid()};
            }
          }
        });
        done.ifPresent(d -> WorkerLog.print("ACK", "", "writer", WRITER, "op", "CONFIG",
            "round", String.valueOf(r), "version", d[0], "uuid", d[1]));
      }
    }
    WorkerLog.print("DONE", "", "writer", WRITER);
  }

  /**
   * lance-core's compaction first commits a ReserveFragments of its own (the ids of the new
   * fragments), then the Rewrite, which may fail: reports the reservations among the versions
   * after {@code before} and before {@code end}, {@code ACK op=RESERVE} (lance-core does not
   * return their versions; no other writer of the test reserves fragments).
   */
  private static void reservations(Path table, int round, long before, long end) {
    for (long v = before + 1; v < end; v++) {
      long version = v;
      java.util.Optional<String> uuid;
      try {
        uuid = LanceOracle.withDataset(table, java.util.OptionalLong.of(v), ds -> ds.readTransaction()
            .flatMap(t -> {
              try (t) {
                return t.operation() instanceof ReserveFragments ? java.util.Optional.of(t.uuid())
                    : java.util.Optional.empty();
              }
            }));
      } catch (RuntimeException e) {
        continue; // a transaction lance-core cannot read (a composite one) is not lance-core's
      }
      uuid.ifPresent(u -> WorkerLog.print("ACK", "", "writer", WRITER, "op", "RESERVE",
          "round", String.valueOf(round), "version", String.valueOf(version), "uuid", u));
    }
  }
}
