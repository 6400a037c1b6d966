package dev.lancet.interop.statements;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;

/**
 * Concurrent merge inserts of overlapping keys, from threads and from separate JVMs: no key is
 * ever duplicated and no acknowledged row is lost. The final table (read by Lancet and by
 * lance-core) is checked against a model built only from the acknowledged writes, replayed in
 * the order of the versions they committed: every key's value is the one its last acknowledged
 * writer gave it.
 */
class ConcurrentMergeInsertTest {
  @TempDir Path tmp;

  /** One acknowledged merge insert. */
  record Ack(int writer, int round, long version) {}

  static final int ROUNDS = Integer.getInteger("lancet.mergeinsert.rounds", 4);

  private String newTable(boolean stable) {
    String uri = tmp.resolve("t").toString();
    Map<Long, String> initial = new TreeMap<>();
    for (long k = 0; k < 40; k++) {
      initial.put(k, "initial");
    }
    try (BufferAllocator alloc = new RootAllocator();
        KeyValueRows rows = new KeyValueRows(alloc, initial);
        LanceTable t = LanceTable.create(uri, rows,
            CreateOptions.builder().maxRowsPerFile(10).stableRowIds(stable).build())) {
      return uri;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void mergeInsertsFromFourThreadsNeverDuplicateAKeyNorLoseAnAcknowledgedRow() throws Exception {
    String uri = newTable(true);
    int writers = 4;
    CyclicBarrier start = new CyclicBarrier(writers);
    List<StatementResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<List<Ack>>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      futures.add(pool.submit(() -> {
        List<Ack> acks = new ArrayList<>();
        try (BufferAllocator alloc = new RootAllocator(); LanceTable t = LanceTable.open(uri)) {
          for (int r = 0; r < ROUNDS; r++) {
            start.await(); // every round's merge inserts plan against the same version and race
            StatementResult res = MergeInsertWorkerMain.upsert(t, alloc, writer, r);
            results.add(res);
            acks.add(new Ack(writer, r, res.version().getAsLong()));
          }
        }
        return acks;
      }));
    }
    List<Ack> acks = new ArrayList<>();
    for (Future<List<Ack>> f : futures) {
      acks.addAll(f.get(5, TimeUnit.MINUTES));
    }
    pool.shutdown();
    // The races happened: some merge inserts were planned again after a conflict.
    assertThat(results.stream().mapToInt(StatementResult::plans).sum())
        .isGreaterThan(results.size());
    check(uri, acks, writers);
  }

  @Test
  void mergeInsertsFromThreeProcessesNeverDuplicateAKeyNorLoseAnAcknowledgedRow()
      throws Exception {
    String uri = newTable(false);
    int writers = 3;
    List<Ack> acks = new ArrayList<>();
    try (WorkerProcesses workers = WorkerProcesses.startReady(tmp.resolve("work"), writers,
        List.of("--add-opens=java.base/java.nio=ALL-UNNAMED"), MergeInsertWorkerMain.class,
        (w, ready, go) -> List.of(uri, ready.toString(), go.toString(), Integer.toString(w),
            Integer.toString(ROUNDS)))) {
      java.nio.file.Files.createDirectories(tmp.resolve("work"));
      workers.go();
      List<List<String>> out = workers.awaitSuccess(5, TimeUnit.MINUTES);
      for (int w = 0; w < writers; w++) {
        for (String line : out.get(w)) {
          String[] p = line.split(" ");
          if (p[0].equals("ack")) {
            acks.add(new Ack(w, Integer.parseInt(p[1]), Long.parseLong(p[2])));
          }
        }
      }
    }
    check(uri, acks, writers);
  }

  private static void check(String uri, List<Ack> acks, int writers) throws Exception {
    assertThat(acks).hasSize(writers * ROUNDS);
    assertThat(acks.stream().map(Ack::version).distinct().count())
        .as("every acknowledged merge insert has a version of its own").isEqualTo(acks.size());
    Map<Long, String> model = new TreeMap<>();
    for (long k = 0; k < 40; k++) {
      model.put(k, "initial");
    }
    acks.stream().sorted(java.util.Comparator.comparingLong(Ack::version))
        .forEach(a -> model.putAll(KeyValueRows.round(a.writer(), a.round())));
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(KeyValueRows.read(t.newScan().open())).isEqualTo(model);
    }
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open(uri, alloc)) {
      assertThat(ds.countRows()).as("lance-core's count").isEqualTo(model.size());
      try (var scanner = ds.newScan(new org.lance.ipc.ScanOptions.Builder().build())) {
        assertThat(KeyValueRows.read(scanner.scanBatches())).as("lance-core's rows")
            .isEqualTo(model);
      }
    }
  }
}
