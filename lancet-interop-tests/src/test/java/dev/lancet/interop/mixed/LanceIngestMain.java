package dev.lancet.interop.mixed;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.interop.lance.LanceFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Transaction;

/**
 * lance-core 7.0.0 ingestion in its own JVM: appends batches of fresh ids (from {@link
 * MixedTable#LANCE_APPEND_BASE}) with {@code Dataset} append writes, as an ingestion job would,
 * retrying a failed append on the latest version ({@link LanceRetries}). Reports {@code ACK
 * op=APPEND} with the version and uuid lance-core committed, and every error.
 *
 * <p>It appends once another writer has published a version since its last append ({@link
 * Pacing}), until the Lancet writers are done or it has appended {@code max rounds} times.
 *
 * <p>Args: table, ready file, go file, the Lancet writers' done files (comma-separated), max
 * rounds, rows per append.
 */
public final class LanceIngestMain {
  static final String WRITER = "lance-ingest";

  private LanceIngestMain() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    Pacing pacing = new Pacing(table, args[3]);
    int rounds = Integer.parseInt(args[4]);
    int batch = Integer.parseInt(args[5]);
    LanceTransactions.warmUp(table);
    WorkerProcesses.readyThenAwaitGo(Path.of(args[1]), Path.of(args[2]));
    long next = MixedTable.LANCE_APPEND_BASE;
    long last = pacing.latest();
    for (int round = 0; round < rounds && pacing.awaitVersion(last, 1); round++) {
      long start = next;
      next += batch;
      Optional<Long> version = LanceRetries.run(WRITER, "APPEND", round,
          () -> LanceFixtures.append(table, LanceFixtures.SIMPLE_SCHEMA, start, batch));
      if (version.isPresent()) {
        List<Long> ids = new ArrayList<>();
        for (long id = start; id < start + batch; id++) {
          ids.add(id);
        }
        WorkerLog.print("ACK", "", "writer", WRITER, "op", "APPEND", "round", String.valueOf(round),
            "version", String.valueOf(version.get()),
            "uuid", LanceTransactions.uuid(table, version.get()), "ids", WorkerLog.ids(ids));
      }
      last = version.orElseGet(pacing::latest);
    }
    WorkerLog.print("DONE", "", "writer", WRITER);
  }

  /** lance-core's view of one version's transaction, shared by the lance-core workers. */
  static final class LanceTransactions {
    private LanceTransactions() {}

    /** Loads the native library before the worker says it is ready. */
    static void warmUp(Path table) {
      try (BufferAllocator alloc = new RootAllocator();
          Dataset ds = Dataset.open().allocator(alloc).uri(table.toString()).build()) {
        ds.countRows();
      }
    }

    /** The uuid of the transaction lance-core reads for {@code version}. */
    static String uuid(Path table, long version) {
      try (BufferAllocator alloc = new RootAllocator();
          Dataset ds = Dataset.open().allocator(alloc).uri(table.toString())
              .readOptions(new ReadOptions.Builder().setVersion(version).build()).build()) {
        Transaction txn = ds.readTransaction().orElseThrow(() -> new IllegalStateException(
            "version " + version + " of " + table + " records no transaction"));
        try (txn) {
          return txn.uuid();
        }
      }
    }
  }
}
