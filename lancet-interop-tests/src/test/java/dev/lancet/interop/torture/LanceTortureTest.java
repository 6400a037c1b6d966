package dev.lancet.interop.torture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.commit.CommitPolicy;
import dev.lancet.core.commit.History;
import dev.lancet.core.commit.ModelState;
import dev.lancet.core.commit.TortureRun;
import dev.lancet.core.commit.TortureWorkload;
import dev.lancet.core.commit.TortureWorkload.Kind;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The torture run ({@link TortureRun}) on a table lance-core created, in a local directory,
 * with real data: every appended or compacted fragment is a Lance data file written by
 * lance-core's file writer with exactly the fragment's row count, every deletion a real
 * deletion file unioned with the fragment's existing one. Writer threads commit appends
 * (with and without key assertions), row deletions, fragment removals, compactions, renames
 * of the non-key column and config updates while the store fails calls and adds latency.
 * Afterwards the checks of {@link TortureRun#verify} hold, and lance-core opens the table and
 * counts, at the latest version and at sampled earlier ones, exactly the live rows of the
 * model; a full scan of the latest version returns that many rows.
 *
 * <p>System properties: {@code -Dlancet.torture.interop.commits=<n>} (acknowledged commits,
 * default 60), {@code -Dlancet.torture.seed=<long>} (replay), {@code -Dlancet.torture.writers=<n>}
 * (default 3).
 */
class LanceTortureTest {
  private static final int COMMITS = Integer.getInteger("lancet.torture.interop.commits", 60);
  private static final int WRITERS = Integer.getInteger("lancet.torture.writers", 3);
  private static final CommitPolicy POLICY = new CommitPolicy(8, Duration.ofSeconds(60), Duration.ofMillis(1));

  @TempDir Path tmp;

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void tortureOnALanceTableKeepsItReadableByLanceCore() throws Exception {
    long seed = Long.getLong("lancet.torture.seed", ThreadLocalRandom.current().nextLong());
    Path dir = SharedFixtures.copy("stable-row-ids-off", tmp);
    LocalObjectStore store = new LocalObjectStore(dir);
    String location = dir.toString();
    Manifest seedManifest = Snapshot.latest(store, location).manifest();
    long seedVersion = seedManifest.version();
    DataFile layout = seedManifest.fragments().get(0).files().get(0);
    assertThat(layout.fields()).as("the fixture's data files hold id and name").containsExactly(0, 1);

    TortureWorkload workload = new TortureWorkload(EnumSet.of(Kind.APPEND, Kind.APPEND_WITH_KEYS, Kind.DELETE_ROWS,
        Kind.REMOVE_FRAGMENT, Kind.COMPACT, Kind.RENAME, Kind.CONFIG), store, new RealDataFiles(dir, layout));
    TortureRun run = new TortureRun(store, location, workload,
        new TortureRun.Settings(seed, WRITERS, COMMITS, 0.05, POLICY));
    try {
      run.run();
      History history = run.verify(seedVersion);
      ModelState last = ModelState.of(history.latest());
      long latest = history.latest().version();
      assertThat(LanceOracle.latestVersion(dir)).isEqualTo(latest);
      assertThat(LanceOracle.countRows(dir, latest)).as("lance-core's row count at %d", latest).isEqualTo(last.liveRows());
      assertThat(LanceOracle.rows(dir, latest)).as("lance-core's scan at %d", latest).hasSize(Math.toIntExact(last.liveRows()));
      Random rnd = new Random(seed);
      List<History.Entry> entries = new ArrayList<>(history.entries());
      for (int i = 0; i < 5 && !entries.isEmpty(); i++) {
        History.Entry e = entries.remove(rnd.nextInt(entries.size()));
        assertThat(LanceOracle.countRows(dir, e.version())).as("lance-core's row count at %d", e.version())
            .isEqualTo(ModelState.of(e.manifest()).liveRows());
      }
    } catch (Throwable t) {
      throw new AssertionError("interop torture failed; replay with -Dlancet.torture.seed=" + seed + "\n" + run.summary(), t);
    }
    System.out.println("[torture] lance table " + location + ": " + run.summary());
    assertThat(run.store().injectedFaultCount()).isPositive();
  }

  /** Lance data files of the fixture's schema (id, name) in the fixture's file version, written by lance-core. */
  private static final class RealDataFiles implements TortureWorkload.DataFiles {
    private final Path dir;
    private final DataFile layout;
    private final AtomicLong nextId = new AtomicLong(1_000_000);

    RealDataFiles(Path dir, DataFile layout) {
      this.dir = dir;
      this.layout = layout;
    }

    @Override
    public DataFile dataFile(List<Integer> fieldIds, long rows) {
      assertThat(fieldIds).as("fields of a data file").containsExactly(0, 1);
      String name = "torture-" + UUID.randomUUID() + ".lance";
      String version = layout.fileMajorVersion() + "." + layout.fileMinorVersion();
      long size;
      try (BufferAllocator alloc = new RootAllocator();
          VectorSchemaRoot root = LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA,
              nextId.getAndAdd(rows), Math.toIntExact(rows))) {
        size = LanceFixtures.writeDataFile(dir.resolve("data").resolve(name), root, version);
      }
      return new DataFile(name, List.of(), layout.columnIndices(), layout.fileMajorVersion(),
          layout.fileMinorVersion(), size);
    }

    @Override
    public DataFile overlayFile(int fieldId) {
      throw new UnsupportedOperationException("overlays are not part of the interop workload");
    }
  }
}
