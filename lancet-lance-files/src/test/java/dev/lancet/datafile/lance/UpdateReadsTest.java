package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import dev.lancet.table.spi.DataFileFormat;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.table.spi.WriteSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update reads each data file it touches twice (the filter's columns, then the matched
 * rows) but opens it once: the reader is kept for the second read. Counted through a data-file
 * format that wraps lance-core's and counts the opens per file.
 */
class UpdateReadsTest {
  @TempDir Path tmp;

  /** lance-core's files, with every reader opened counted by path. */
  static final class CountingFormat implements DataFileFormat {
    final DataFileFormat inner = new LanceCoreFileFormat();
    final Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();

    @Override
    public String name() {
      return "counting " + inner.name();
    }

    @Override
    public Set<String> writableVersions() {
      return inner.writableVersions();
    }

    @Override
    public DataFileWriter newWriter(WriteSpec spec) throws IOException {
      return inner.newWriter(spec);
    }

    @Override
    public DataFileReader openReader(ReadSpec spec) throws IOException {
      opens.computeIfAbsent(spec.path(), k -> new AtomicInteger()).incrementAndGet();
      return inner.openReader(spec);
    }
  }

  @Test
  void eachDataFileIsOpenedOnceAndTheUpdateIsRight() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (BufferAllocator alloc = new RootAllocator();
        ArrowReader rows = new GeneratedRows(alloc, 0, 4000, 500)) {
      LanceTable.create(uri, rows, CreateOptions.builder().maxRowsPerFile(1000).build()).close();
    }
    CountingFormat format = new CountingFormat();
    try (LanceTable t = LanceTable.open(uri, Map.of(), Optional.of(format))) {
      // rows 500..1499: the second half of fragment 0 and the first half of fragment 1
      StatementResult r = t.newUpdate().where("id >= 500 AND id < 1500").set("score", "-1.0")
          .commit();
      assertThat(r.rowsUpdated()).isEqualTo(1000);
      assertThat(format.opens).hasSize(4); // the filter read every fragment's file
      format.opens.forEach((path, n) -> assertThat(n.get()).as("opens of %s", path).isEqualTo(1));
      assertThat(t.countRows()).isEqualTo(4000);
      assertThat(LanceTableTest.ids(t.newScan().filter("score = -1.0").open()))
          .isEqualTo(LanceTableTest.range(500, 1500));
    }
  }
}
