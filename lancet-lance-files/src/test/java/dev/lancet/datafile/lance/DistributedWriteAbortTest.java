package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.DistributedWrite;
import dev.lancet.table.FragmentWriteSpec;
import dev.lancet.table.FragmentWriter;
import dev.lancet.table.LanceTable;
import dev.lancet.table.LanceTableException;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A distributed write's abort leaves no data file behind, even of workers whose report never
 * reached the coordinator or that finish after it aborted (Spark drops the results of tasks
 * that complete after their job failed), and touches no other write's files.
 */
class DistributedWriteAbortTest {
  static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true))));
  static final CreateOptions LIMITS = CreateOptions.builder().maxRowsPerFile(10).build();

  @TempDir Path tmp;
  BufferAllocator alloc;
  String uri;

  @BeforeEach
  void createTable() {
    alloc = new RootAllocator();
    uri = tmp.resolve("t.lance").toString();
    try (LanceTable t = LanceTable.create(uri, SCHEMA, CreateOptions.defaults());
        DistributedWrite w = t.newDistributedWrite(LIMITS, List.of())) {
      w.newCommit().addFiles(write(w.spec(), 0, 25)).commit();
    }
  }

  @AfterEach
  void close() {
    alloc.close();
  }

  @Test
  void abortDeletesReportedAndUnreportedFilesAndLateWorkersDeleteTheirOwn() throws IOException {
    try (LanceTable t = LanceTable.open(uri);
        DistributedWrite w = t.newDistributedWrite(LIMITS, List.of())) {
      long before = t.version();
      List<WrittenFile> reported = write(w.spec(), 100, 30);
      List<WrittenFile> lost = write(w.spec(), 200, 30); // a task whose result Spark dropped
      assertThat(lost).hasSize(3);
      FragmentWriter late = FragmentWriter.open(w.spec(), alloc);
      try (VectorSchemaRoot b = batch(300, 15)) {
        late.write(b); // one file complete, one open
      }
      assertThat(w.abort(reported)).as("files found by the tag").isEqualTo(lost.size() + 1);
      // left: the late worker's open file, a temporary of lance-core's until it completes
      assertThat(orphans()).hasSize(1).allMatch(n -> n.startsWith(".tmp"));
      assertThatThrownBy(late::finish).isInstanceOf(LanceTableException.class)
          .hasMessageContaining("has ended").hasMessageContaining("2 data file(s) were deleted");
      late.close();
      assertThat(orphans()).isEmpty();
      try (LanceTable again = LanceTable.open(uri)) {
        assertThat(again.version()).isEqualTo(before);
        assertThat(again.countRows()).isEqualTo(25);
      }
    }
  }

  @Test
  void abortLeavesAnotherOpenWritesFilesAndItCommits() throws IOException {
    try (LanceTable t = LanceTable.open(uri);
        DistributedWrite aborted = t.newDistributedWrite(LIMITS, List.of());
        DistributedWrite other = t.newDistributedWrite(LIMITS, List.of())) {
      List<WrittenFile> mine = write(aborted.spec(), 100, 20);
      List<WrittenFile> theirs = write(other.spec(), 200, 20);
      aborted.abort(mine);
      other.newCommit().addFiles(theirs).commit();
    }
    assertNoOrphanAndRows(45);
  }

  @Test
  void aWorkerFinishingAfterTheCommitDeletesItsFilesAndTheCommitStands() throws IOException {
    FragmentWriter straggler;
    try (LanceTable t = LanceTable.open(uri);
        DistributedWrite w = t.newDistributedWrite(LIMITS, List.of())) {
      straggler = FragmentWriter.open(w.spec(), alloc); // a speculative attempt
      try (VectorSchemaRoot b = batch(500, 10)) {
        straggler.write(b);
      }
      w.newCommit().addFiles(write(w.spec(), 100, 20)).commit();
    }
    assertThatThrownBy(straggler::finish).isInstanceOf(LanceTableException.class)
        .hasMessageContaining("has ended");
    straggler.close();
    assertNoOrphanAndRows(45);
  }

  @Test
  void aDetachedSpecOutlivesItsWrite() throws IOException {
    FragmentWriteSpec detached;
    try (LanceTable t = LanceTable.open(uri);
        DistributedWrite w = t.newDistributedWrite(LIMITS, List.of())) {
      detached = w.detachedSpec();
    }
    assertThat(detached.writeTag()).isEmpty();
    List<WrittenFile> files = write(detached, 100, 10);
    try (LanceTable t = LanceTable.open(uri);
        DistributedWrite w = t.newDistributedWrite(LIMITS, List.of())) {
      w.newCommit().addFiles(files).commit();
    }
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(t.countRows()).isEqualTo(35);
    }
  }

  /**
   * Workers on real threads finish while the coordinator aborts, released together by a
   * barrier; whichever side each lands on, once all have ended no unreferenced file is left
   * and the table is unchanged.
   */
  @Test
  void workersRacingTheAbortLeaveNoFile() throws Exception {
    int workers = 6;
    for (int round = 0; round < 5; round++) {
      ExecutorService pool = Executors.newFixedThreadPool(workers);
      try (LanceTable t = LanceTable.open(uri);
          DistributedWrite w = t.newDistributedWrite(LIMITS, List.of())) {
        long before = t.version();
        CyclicBarrier go = new CyclicBarrier(workers + 1);
        List<Future<Boolean>> ends = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
          long start = 1000L * (round * workers + i + 1);
          FragmentWriteSpec spec = w.spec();
          ends.add(pool.submit(() -> {
            try (BufferAllocator a = alloc.newChildAllocator("worker", 0, Long.MAX_VALUE);
                FragmentWriter fw = FragmentWriter.open(spec, a)) {
              try (VectorSchemaRoot b = batch(a, start, 25)) {
                fw.write(b);
              }
              go.await();
              try {
                fw.finish(); // its report is dropped, as Spark drops a late task's result
                return true;
              } catch (LanceTableException e) {
                return false;
              }
            }
          }));
        }
        go.await();
        w.abort(List.of());
        int reportedLate = 0;
        for (Future<Boolean> f : ends) {
          reportedLate += f.get() ? 1 : 0;
        }
        assertThat(orphans()).as("round %d, %d workers finished before the abort ended the write",
            round, reportedLate).isEmpty();
        try (LanceTable again = LanceTable.open(uri)) {
          assertThat(again.version()).isEqualTo(before);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private void assertNoOrphanAndRows(long rows) throws IOException {
    assertThat(orphans()).isEmpty();
    try (LanceTable t = LanceTable.open(uri)) {
      assertThat(t.countRows()).isEqualTo(rows);
    }
  }

  /** Files under data/ that no version references. */
  private Set<String> orphans() throws IOException {
    Set<String> out = new TreeSet<>();
    try (Stream<Path> s = Files.list(Path.of(uri).resolve("data"))) {
      s.forEach(p -> out.add(p.getFileName().toString()));
    }
    try (Table t = Table.open(uri)) {
      for (VersionEntry v : t.versions()) {
        for (Fragment f : t.version(v.version()).manifest().fragments()) {
          for (DataFile df : f.files()) {
            out.remove(df.path());
          }
        }
      }
    }
    return out;
  }

  private List<WrittenFile> write(FragmentWriteSpec spec, long start, int rows) {
    try (FragmentWriter w = FragmentWriter.open(spec, alloc);
        VectorSchemaRoot b = batch(start, rows)) {
      w.write(b);
      return w.finish();
    }
  }

  private VectorSchemaRoot batch(long start, int rows) {
    return batch(alloc, start, rows);
  }

  private static VectorSchemaRoot batch(BufferAllocator a, long start, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    BigIntVector id = (BigIntVector) root.getVector("id");
    id.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      id.set(i, start + i);
    }
    root.setRowCount(rows);
    return root;
  }
}
