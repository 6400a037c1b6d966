package dev.lancet.file.read.v20;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.RowRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * The issue 25 defect: a blob column of a 2.0 table. lance-core 7.0.0's table scan returns the
 * blob column as its descriptions (struct of u64 position and size, field metadata kept); the
 * Java reader returns the same descriptions from the table's data file at batch size 17, and the
 * bytes written at every batch size (lance-core's own file reader returns empty values at 17).
 */
class TableBlob20Test {
  @TempDir Path dir;

  @Test
  void blobColumnOfA20TableAtBatchSize17() throws Exception {
    int rows = 120;
    Random rnd = new Random(2025);
    byte[][] written = new byte[rows][];
    byte[] ipc;
    try (BufferAllocator alloc = new RootAllocator();
        BigIntVector id = new BigIntVector("id", alloc);
        LargeVarBinaryVector b = (LargeVarBinaryVector) new Field("payload",
            new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
                Map.of("lance-encoding:blob", "true")), null).createVector(alloc)) {
      id.allocateNew(rows);
      b.allocateNew();
      for (int i = 0; i < rows; i++) {
        id.set(i, i);
        if (i % 5 == 0) {
          b.setNull(i);
        } else {
          byte[] x = new byte[i % 5 == 1 ? 0 : 1 + rnd.nextInt(4000)];
          rnd.nextBytes(x);
          b.setSafe(i, x);
          written[i] = x;
        }
      }
      id.setValueCount(rows);
      b.setValueCount(rows);
      try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(id, b))) {
        root.setRowCount(rows);
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, bos)) {
          w.start();
          w.writeBatch();
          w.end();
        }
        ipc = bos.toByteArray();
      }
    }
    Path table = dir.resolve("t");
    try (BufferAllocator alloc = new RootAllocator();
        ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), alloc);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
      Data.exportArrayStream(alloc, reader, stream);
      WriteParams params = new WriteParams.Builder().withDataStorageVersion("2.0").build();
      try (Dataset ds = Dataset.create(alloc, stream, table.toString(), params)) {
        // A table scan gives the blob column as its descriptions; the Java reader, asked for
        // descriptions, gives the same at batch size 17, row for row.
        Path data;
        try (var s = Files.list(table.resolve("data"))) {
          data = s.filter(p -> p.toString().endsWith(".lance")).findFirst().orElseThrow();
        }
        try (LanceScanner sc = ds.newScan(new ScanOptions.Builder().batchSize(17)
                .columns(List.of("id", "payload")).build());
            ArrowReader scan = sc.scanBatches();
            LanceFile20 f = LanceFile20.open(data);
            ArrowReader mine = f.read(List.of("id", "payload"), List.of(new RowRange(0, rows)),
                17, alloc, BlobMode.DESCRIPTIONS)) {
          int batches = 0;
          while (scan.loadNextBatch()) {
            assertThat(mine.loadNextBatch()).isTrue();
            VectorSchemaRoot e = scan.getVectorSchemaRoot();
            VectorSchemaRoot a = mine.getVectorSchemaRoot();
            assertThat(a.getSchema()).isEqualTo(e.getSchema());
            assertThat(a.getRowCount()).isEqualTo(e.getRowCount());
            Compare20.same(e.getVector("payload"), a.getVector("payload"), 0, 0, e.getRowCount(),
                "descriptions, batch " + batches);
            batches++;
          }
          assertThat(mine.loadNextBatch()).isFalse();
          assertThat(batches).isEqualTo((rows + 16) / 17);
        }
      }
      Path data;
      try (var s = Files.list(table.resolve("data"))) {
        data = s.filter(p -> p.toString().endsWith(".lance")).findFirst().orElseThrow();
      }
      // The bytes, as lance-core's file reader gives a blob column (it returns empty values at
      // batch size 17; the Java reader gives the bytes written at every batch size).
      try (LanceFile20 f = LanceFile20.open(data)) {
        for (int batch : new int[] {17, 1, 7, 64, rows}) {
          List<byte[]> mine = new ArrayList<>();
          try (ArrowReader r = f.read(List.of("payload"), List.of(new RowRange(0, rows)), batch,
              alloc)) {
            while (r.loadNextBatch()) {
              LargeVarBinaryVector v = (LargeVarBinaryVector) r.getVectorSchemaRoot()
                  .getVector(0);
              assertThat(r.getVectorSchemaRoot().getRowCount()).isLessThanOrEqualTo(batch);
              for (int i = 0; i < v.getValueCount(); i++) {
                mine.add(v.get(i));
              }
            }
          }
          assertThat(mine).hasSize(rows);
          for (int i = 0; i < rows; i++) {
            assertThat(mine.get(i)).as("Java reader, batch " + batch + ", row " + i)
                .isEqualTo(written[i]);
          }
        }
        // A projection of ranges at batch size 17.
        try (ArrowReader r = f.read(List.of("payload", "id"), List.of(new RowRange(3, 40),
            new RowRange(90, 120)), 17, alloc)) {
          List<Long> ids = new ArrayList<>();
          while (r.loadNextBatch()) {
            BigIntVector idv = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
            LargeVarBinaryVector v = (LargeVarBinaryVector) r.getVectorSchemaRoot()
                .getVector("payload");
            for (int i = 0; i < v.getValueCount(); i++) {
              ids.add(idv.get(i));
              assertThat(v.get(i)).isEqualTo(written[(int) idv.get(i)]);
            }
          }
          assertThat(ids).hasSize(37 + 30);
        }
        assertThat(f.codings("payload")).containsExactly("Blob(PackedStruct)");
      }
    }
  }
}
