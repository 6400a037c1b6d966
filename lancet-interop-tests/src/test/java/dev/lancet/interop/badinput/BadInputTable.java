package dev.lancet.interop.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.format.model.DataFile;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The table bad inputs are thrown at: a copy of lance-core's {@code stable-row-ids-off} fixture
 * ({@code id int64 not null} = field 0, {@code name string} = field 1; fragments 0 to 3 of 100
 * rows, each with a deletion file, 360 live rows), plus one real Lance data file of 10 rows of
 * both fields written by lance-core into {@code data/} but not committed, so that an operation
 * can be valid in everything but the defect under test.
 */
final class BadInputTable {
  final Path dir;
  final long version;
  final long liveRows;
  /** The uncommitted 10-row data file of fields 0 and 1 (fields left unassigned, as a writer hands it over). */
  final DataFile goodFile;

  private BadInputTable(Path dir, long version, long liveRows, DataFile goodFile) {
    this.dir = dir;
    this.version = version;
    this.liveRows = liveRows;
    this.goodFile = goodFile;
  }

  static BadInputTable create(Path parent) {
    Path dir = SharedFixtures.copy("stable-row-ids-off", parent);
    String name = "bad-input-good-file.lance";
    long size;
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA, 10_000, 10)) {
      size = LanceFixtures.writeDataFile(dir.resolve("data").resolve(name), root, "2.1");
    }
    long version;
    long rows;
    try (Table t = Table.open(dir.toString())) {
      version = t.latest().version();
      rows = t.latest().manifest().liveRows();
    }
    DataFile good = new DataFile(name, List.of(), List.of(0, 1), 2, 1, size);
    return new BadInputTable(dir, version, rows, good);
  }

  /** Every file under the table with its size: a refused commit leaves this unchanged. */
  SortedMap<String, Long> files() {
    SortedMap<String, Long> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          out.put(dir.relativize(p).toString(), Files.size(p));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * What can be observed of the table: its files and sizes, and how Lancet and lance-core 7.0.0
   * read it (latest version and live rows, or the error each gives). A refused commit leaves
   * this unchanged: nothing written (not even a .txn file), and both libraries read the table as
   * before.
   */
  record State(SortedMap<String, Long> files, String lancet, String lanceCore) {}

  State state() {
    String lancet;
    try (Table t = Table.open(dir.toString())) {
      lancet = "version " + t.latest().version() + ", " + t.latest().manifest().liveRows() + " live rows";
    } catch (RuntimeException e) {
      lancet = "refused: " + e.getClass().getSimpleName();
    }
    String lance;
    long latest = LanceOracle.latestVersion(dir);
    lance = "version " + latest + ", " + LanceOracle.countRows(dir, latest) + " rows";
    return new State(files(), lancet, lance);
  }

  void assertUntouched(State before, String what) {
    State after = state();
    assertThat(after.files()).as("%s: nothing written (not even a .txn file)", what).isEqualTo(before.files());
    assertThat(after.lancet()).as("%s: Lancet reads the table as before", what).isEqualTo(before.lancet());
    assertThat(after.lanceCore()).as("%s: lance-core reads the table as before", what).isEqualTo(before.lanceCore());
  }
}
