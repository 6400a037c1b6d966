package dev.lancet.interop.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.operation.Append;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.store.s3.S3ProxyServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.ipc.ScanOptions;

/**
 * Live interop on one {@code s3://} table on s3proxy: two lance-core 7.0.0 writer threads
 * (its Dataset API with storage options; lance-core sends {@code If-None-Match: *} to the
 * custom endpoint) and two Lancet writer threads, released together, each appending batches of
 * ids no one else writes: Lancet's data files are real Lance files written by lance-core's
 * {@code LanceFileWriter} to the {@code s3://} URI with the same storage options, committed
 * as legacy Appends through Lancet's commit loop (so both sides rebase over each other).
 *
 * <p>Afterwards: lance-core scans exactly the initial ids plus every acknowledged batch (nothing
 * lost, no duplicate, nothing unacknowledged); the history holds each acknowledged commit once,
 * at the version its writer was told; lance-core opens every version Lancet committed with the
 * row count the model says; Lancet loads every version lance-core committed, with its
 * transaction.
 */
class S3LiveInteropTest {
  private static final int INITIAL_ROWS = 30;
  private static final int BATCH = 7;
  private static final int COMMITS_PER_WRITER = Integer.getInteger("lancet.s3.live.commits", 8);
  private static final int ATTEMPTS = 25;

  /** One acknowledged append: who, which version, which ids. */
  record Ack(String writer, long version, List<Long> ids, Optional<String> uuid) {}

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void lanceCoreAndLancetWritersShareOneS3Table() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket("live");
    String uri = "s3://" + bucket + "/live";
    Map<String, String> opts = server.storageOptions();
    List<Ack> acks = new CopyOnWriteArrayList<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    Map<String, Integer> retries = new ConcurrentHashMap<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      LanceOnS3.create(uri, opts, alloc, INITIAL_ROWS, 10);
      DataFile layout;
      try (Table t = Table.open(uri, opts)) {
        layout = t.latest().manifest().fragments().get(0).files().get(0);
      }
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        long base = 1_000_000L * (w + 1);
        String name = "lance-" + w;
        threads.add(new Thread(() -> lanceWriter(name, base, uri, opts, alloc, go, acks, errors, retries), name));
      }
      for (int w = 0; w < 2; w++) {
        long base = 10_000_000L * (w + 1);
        String name = "lancet-" + w;
        threads.add(new Thread(() -> lancetWriter(name, base, uri, opts, alloc, layout, go, acks, errors), name));
      }
      threads.forEach(Thread::start);
      go.countDown();
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(200));
        assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
      }
      assertThat(errors).as("writer errors").isEmpty();
      assertThat(acks).hasSize(4 * COMMITS_PER_WRITER);

      // The model: the initial ids and every acknowledged batch, applied in version order.
      TreeMap<Long, Ack> byVersion = new TreeMap<>();
      for (Ack a : acks) {
        assertThat(byVersion.put(a.version(), a)).as("version %d acknowledged twice", a.version()).isNull();
      }
      long latest = 1 + acks.size();
      assertThat(byVersion.keySet()).containsExactlyElementsOf(LongStream.rangeClosed(2, latest).boxed().toList());

      Set<Long> expected = new TreeSet<>(LongStream.range(0, INITIAL_ROWS).boxed().toList());
      acks.forEach(a -> expected.addAll(a.ids()));
      List<Long> scanned = scanIds(uri, opts, alloc, latest);
      assertThat(scanned).as("lance-core scan: no duplicate").doesNotHaveDuplicates();
      assertThat(new TreeSet<>(scanned)).as("lance-core scan: nothing lost, nothing extra").isEqualTo(expected);

      try (ObjectStore store = ObjectStores.forUri(uri, opts)) {
        long rows = INITIAL_ROWS;
        for (Map.Entry<Long, Ack> e : byVersion.entrySet()) {
          long version = e.getKey();
          Ack ack = e.getValue();
          rows += ack.ids().size();
          // Lancet reads every version, lance-core's included, with its transaction.
          VersionEntry entry = dev.lancet.core.version.Versions.resolve(store, version);
          Snapshot snapshot = Snapshot.load(store, entry);
          TransactionProtos.Transaction txn = snapshot.transaction().orElseThrow();
          assertThat(txn.getOperationCase()).isEqualTo(TransactionProtos.Transaction.OperationCase.APPEND);
          assertThat(snapshot.manifest().liveRows()).as("Lancet's rows at v%d", version).isEqualTo(rows);
          ack.uuid().ifPresent(u -> assertThat(txn.getUuid()).isEqualTo(u));
          // lance-core reads every version, Lancet's included.
          long lanceRows = countRows(uri, opts, alloc, version);
          assertThat(lanceRows).as("lance-core's rows at v%d (%s)", version, ack.writer()).isEqualTo(rows);
        }
      }
      System.out.printf("[s3-live] %d commits (%d by lance-core, %d by Lancet) to %s; lance-core retries %s%n",
          acks.size(), acks.stream().filter(a -> a.writer().startsWith("lance-")).count(),
          acks.stream().filter(a -> a.writer().startsWith("lancet-")).count(), uri, retries);
    }
  }

  private static void lanceWriter(String name, long base, String uri, Map<String, String> opts, BufferAllocator alloc,
      CountDownLatch go, List<Ack> acks, List<Throwable> errors, Map<String, Integer> retries) {
    try {
      go.await();
      for (int i = 0; i < COMMITS_PER_WRITER; i++) {
        long start = base + (long) i * BATCH;
        FragmentMetadata fragment = LanceOnS3.prewrite(uri, opts, alloc, start, BATCH);
        long version = -1;
        RuntimeException last = null;
        for (int attempt = 0; attempt < ATTEMPTS && version < 0; attempt++) {
          try (Dataset ds = LanceOnS3.open(uri, opts, alloc)) {
            version = LanceOnS3.commitAppend(ds, fragment);
          } catch (RuntimeException e) {
            // lance-core gave up after its own retries: re-open the latest version and try again.
            last = e;
            retries.merge(name, 1, Integer::sum);
          }
        }
        if (version < 0) {
          throw new AssertionError(name + " could not commit batch " + i, last);
        }
        acks.add(new Ack(name, version, LongStream.range(start, start + BATCH).boxed().toList(), Optional.empty()));
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  private static void lancetWriter(String name, long base, String uri, Map<String, String> opts, BufferAllocator alloc,
      DataFile layout, CountDownLatch go, List<Ack> acks, List<Throwable> errors) {
    try (Table table = Table.open(uri, opts)) {
      go.await();
      for (int i = 0; i < COMMITS_PER_WRITER; i++) {
        long start = base + (long) i * BATCH;
        DataFile file = writeDataFile(table.store(), uri, opts, alloc, layout, start, BATCH);
        CommitResult r = table.newLegacyTransaction(new Append(List.of(Fragment.of(0, BATCH, List.of(file)))))
            .policy(new dev.lancet.core.commit.CommitPolicy(50, Duration.ofSeconds(120), Duration.ofMillis(20)))
            .commit();
        acks.add(new Ack(name, r.version(), LongStream.range(start, start + BATCH).boxed().toList(),
            Optional.of(r.transactionUuid())));
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  /** A real Lance data file written by lance-core's LanceFileWriter straight to the s3:// URI. */
  private static DataFile writeDataFile(ObjectStore store, String uri, Map<String, String> opts, BufferAllocator alloc,
      DataFile layout, long start, int count) throws Exception {
    String name = UUID.randomUUID() + ".lance";
    String version = layout.fileMajorVersion() + "." + layout.fileMinorVersion();
    try (VectorSchemaRoot root = LanceOnS3.ids(alloc, start, count)) {
      org.lance.file.LanceFileWriter writer = org.lance.file.LanceFileWriter.open(uri + "/data/" + name,
          root.getVector(0).getAllocator(), null, Optional.of(version), opts);
      try {
        writer.write(root);
      } finally {
        writer.close();
      }
    }
    long size = store.size("data/" + name);
    return new DataFile(name, layout.fields(), List.of(0), layout.fileMajorVersion(), layout.fileMinorVersion(), size);
  }

  private static long countRows(String uri, Map<String, String> opts, BufferAllocator alloc, long version) {
    try (Dataset ds = Dataset.open().allocator(alloc).uri(uri)
        .readOptions(new ReadOptions.Builder().setStorageOptions(opts).setVersion(version).build()).build()) {
      return ds.countRows();
    }
  }

  private static List<Long> scanIds(String uri, Map<String, String> opts, BufferAllocator alloc, long version) {
    List<Long> ids = new ArrayList<>();
    try (Dataset ds = Dataset.open().allocator(alloc).uri(uri)
        .readOptions(new ReadOptions.Builder().setStorageOptions(opts).setVersion(version).build()).build()) {
      dev.lancet.datafile.lance.LanceDatasets.scanBatches(ds, new ScanOptions.Builder().columns(List.of("id")).batchSize(4096).build(), root -> {
        BigIntVector id = (BigIntVector) root.getVector("id");
        for (int i = 0; i < root.getRowCount(); i++) {
          ids.add(id.get(i));
        }
      });
    }
    return ids;
  }
}
