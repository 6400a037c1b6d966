package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.model.Schema;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lance-core writes data files without fsync, so the writer asks the table's store to make each
 * finished file durable before reporting it (decision 0007: what a published manifest names
 * must survive a power failure). Seen failing before the fix: no data file was made durable.
 */
class DurableDataFilesTest {
  @TempDir Path tmp;

  /** The table's local store, recording which objects it was asked to make durable. */
  private static final class Recording implements ObjectStore {
    final LocalObjectStore local;
    final List<String> durable = new ArrayList<>();

    Recording(Path root) {
      this.local = new LocalObjectStore(root);
    }

    @Override
    public void makeDurable(String path) throws IOException {
      local.makeDurable(path);
      synchronized (durable) {
        durable.add(path);
      }
    }

    @Override
    public byte[] get(String path) throws IOException {
      return local.get(path);
    }

    @Override
    public byte[] getRange(String path, long offset, int length) throws IOException {
      return local.getRange(path, offset, length);
    }

    @Override
    public long size(String path) throws IOException {
      return local.size(path);
    }

    @Override
    public boolean exists(String path) throws IOException {
      return local.exists(path);
    }

    @Override
    public void put(String path, byte[] data) throws IOException {
      local.put(path, data);
    }

    @Override
    public void putIfAbsent(String path, byte[] data) throws IOException {
      local.putIfAbsent(path, data);
    }

    @Override
    public List<ObjectInfo> list(String prefix) throws IOException {
      return local.list(prefix);
    }

    @Override
    public void delete(String path) throws IOException {
      local.delete(path);
    }
  }

  @Test
  void everyFileTheWriterRollsOverToIsMadeDurableBeforeItIsReported() throws Exception {
    Path table = tmp.resolve("t");
    Recording store = new Recording(table);
    try (BufferAllocator alloc = new RootAllocator()) {
      org.apache.arrow.vector.types.pojo.Schema arrow = GeneratedRows.schema(GeneratedRows.DIM);
      Schema lance = LanceSchemas.toLance(arrow, 0, Optional.empty());
      List<WrittenFile> files;
      try (DataFileWriter w = new LanceCoreFileFormat().newWriter(new WriteSpec(
              table.toString(), java.util.Map.of(), store, "data", arrow, lance.fields(), "2.1",
              1_000, Long.MAX_VALUE, alloc, Optional.empty()));
          GeneratedRows rows = new GeneratedRows(alloc, 0, 2_500, 700)) {
        while (rows.loadNextBatch()) {
          w.write(rows.getVectorSchemaRoot());
        }
        files = w.finish();
      }
      assertThat(files).hasSize(3);
      List<String> expected = files.stream().map(f -> "data/" + f.path()).toList();
      assertThat(store.durable).containsExactlyElementsOf(expected);
      for (String p : expected) {
        assertThat(Files.size(table.resolve(p))).isPositive();
      }
    }
  }

  @Test
  void aMissingObjectCannotBeMadeDurable() {
    LocalObjectStore store = new LocalObjectStore(tmp.resolve("empty"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.makeDurable("data/x.lance"))
        .isInstanceOf(dev.lancet.core.store.NotFoundException.class);
  }
}
