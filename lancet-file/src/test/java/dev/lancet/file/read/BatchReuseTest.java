package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.RowRange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java reader decodes the next batch into the last batch's vectors when nothing else holds
 * them; a consumer that kept a slice of the last batch (sharing its memory) keeps its rows.
 */
class BatchReuseTest {
  static final int ROWS = 20_000;
  @TempDir Path dir;
  private Path file;

  @BeforeEach
  void write() throws IOException {
    file = dir.resolve("f.lance");
    try (BufferAllocator alloc = new RootAllocator();
        BigIntVector id = new BigIntVector("id", alloc);
        VarCharVector name = new VarCharVector("name", alloc)) {
      id.allocateNew(ROWS);
      name.allocateNew(ROWS);
      for (int i = 0; i < ROWS; i++) {
        id.set(i, i * 3L);
        if (i % 7 != 0) {
          name.setSafe(i, ("n" + i).getBytes(StandardCharsets.UTF_8));
        }
      }
      id.setValueCount(ROWS);
      name.setValueCount(ROWS);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, name))) {
        root.setRowCount(ROWS);
        LanceCoreFiles.write(file, root);
      }
    }
  }

  @Test
  void aKeptSliceOfTheLastBatchKeepsItsRows() throws IOException {
    try (LanceFile f = LanceFile.open(file); BufferAllocator alloc = new RootAllocator();
        ArrowReader r = f.read(List.of("id", "name"), List.of(new RowRange(0, ROWS)), 1000,
            alloc)) {
      assertThat(r.loadNextBatch()).isTrue();
      try (VectorSchemaRoot kept = r.getVectorSchemaRoot().slice(0, 1000)) {
        int batches = 1;
        while (r.loadNextBatch()) {
          batches++;
          // The batch itself is right, whether decoded into new vectors or the old ones.
          BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector(0);
          long first = (batches - 1) * 1000L;
          assertThat(id.get(0)).isEqualTo(first * 3);
          assertThat(id.get(999)).isEqualTo((first + 999) * 3);
        }
        assertThat(batches).isEqualTo(ROWS / 1000);
        BigIntVector id = (BigIntVector) kept.getVector(0);
        VarCharVector name = (VarCharVector) kept.getVector(1);
        for (int i = 0; i < 1000; i++) {
          assertThat(id.get(i)).as("row %d", i).isEqualTo(i * 3L);
          if (i % 7 == 0) {
            assertThat(name.isNull(i)).as("row %d", i).isTrue();
          } else {
            assertThat(new String(name.get(i), StandardCharsets.UTF_8)).as("row %d", i)
                .isEqualTo("n" + i);
          }
        }
      }
    }
  }

  @Test
  void batchesDecodedIntoTheSameVectorsAreEachRight() throws IOException {
    try (LanceFile f = LanceFile.open(file); BufferAllocator alloc = new RootAllocator();
        ArrowReader r = f.read(List.of("name", "id"), List.of(new RowRange(0, ROWS)), 3000,
            alloc)) {
      long row = 0;
      while (r.loadNextBatch()) {
        VectorSchemaRoot b = r.getVectorSchemaRoot();
        VarCharVector name = (VarCharVector) b.getVector("name");
        BigIntVector id = (BigIntVector) b.getVector("id");
        for (int i = 0; i < b.getRowCount(); i++, row++) {
          assertThat(id.get(i)).isEqualTo(row * 3);
          if (row % 7 == 0) {
            assertThat(name.isNull(i)).as("row %d", row).isTrue();
          } else {
            assertThat(new String(name.get(i), StandardCharsets.UTF_8)).isEqualTo("n" + row);
          }
        }
      }
      assertThat(row).isEqualTo(ROWS);
    }
  }
}
