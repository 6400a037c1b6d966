package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceCoreFileFormat;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import dev.lancet.table.datafile.JavaFileWriter;
import dev.lancet.table.spi.DataFileFormat;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.table.spi.WriteSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables whose every data file Lancet's pure-Java writer wrote (decision 0033), through the
 * table API's writes (create, append, update, merge insert, computed columns, compaction), read
 * by lance-core 7.0.0's Dataset at every version identically to Lancet's scan.
 */
class JavaWriterTablesInteropTest {
  @TempDir Path tmp;

  /** The Java writer for every 2.1 file; reads as the default format reads. */
  static final class JavaWrites implements DataFileFormat {
    private final LanceCoreFileFormat core = new LanceCoreFileFormat();
    int javaFiles;

    @Override
    public String name() {
      return "Java writer";
    }

    @Override
    public Set<String> writableVersions() {
      return Set.of("2.1");
    }

    @Override
    public DataFileWriter newWriter(WriteSpec spec) throws IOException {
      assertThat(JavaFileWriter.writes(spec)).as("the Java writer writes %s", spec.fields())
          .isTrue();
      javaFiles++;
      return JavaFileWriter.open(spec);
    }

    @Override
    public DataFileReader openReader(ReadSpec spec) throws IOException {
      return core.openReader(spec);
    }
  }

  @Test
  void everyVersionOfATableTheJavaWriterWroteReadsTheSameInLanceCore() throws Exception {
    for (long seed = 1; seed <= 2; seed++) {
      System.out.println("JavaWriterTablesInteropTest seed " + seed);
      Random rnd = new Random(seed);
      boolean stable = seed % 2 == 0;
      Path dir = tmp.resolve("t" + seed);
      JavaWrites format = new JavaWrites();
      try (BufferAllocator alloc = new RootAllocator();
          GeneratedRows first = new GeneratedRows(alloc, 0, 3000, 700, 16);
          LanceTable table = LanceTable.create(dir.toString(), first, CreateOptions.builder()
              .stableRowIds(stable).maxRowsPerFile(1000).dataFiles(format).build())) {
        try (GeneratedRows more = new GeneratedRows(alloc, 3000, 1500, 500, 16)) {
          table.append(more);
        }
        table.delete("id % 7 = " + rnd.nextInt(7));
        table.update("id % 11 = 0", Map.of("score", "score + 1", "name", "'updated'"));
        try (GeneratedRows source = new GeneratedRows(alloc, 4000, 1000, 400, 16)) {
          table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().from(source)
              .commit();
        }
        table.addColumns().sql("twice", "id * 2").commit();
        table.compact().commit();
        assertThat(format.javaFiles).isGreaterThan(5);
        for (long v = 1; v <= table.version(); v++) {
          TableInteropTest.assertSameScan(dir, v);
        }
        long rows = table.countRows();
        assertThat(LanceDatasets.countRows(dir, table.version())).isEqualTo(rows);
      }
      try (var files = Files.list(dir.resolve("data"))) {
        assertThat(files.filter(p -> p.getFileName().toString().startsWith(".lancet-tmp")))
            .as("no temporary file is left").isEmpty();
      }
    }
  }
}
