package dev.lancet.file.read;

import dev.lancet.file.RowRange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.lance.file.LanceFileReader;
import org.lance.file.LanceFileWriter;
import org.lance.util.Range;

/**
 * A quick probe, not a test: a full scan of a 1,000,000-row file ({@code id int64, name string,
 * score float64, embedding fixed_size_list<float32>[128]}) written by lance-core 7.0.0, by the
 * Java reader and by lance-core's {@code LanceFileReader} in the same JVM after warm-ups. Runs
 * with {@code -Dlancet.probe=true} (optionally {@code -Dlancet.probe.rows=N}).
 */
class ReadProbe {
  @Test
  void fullScan() throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("lancet.probe"));
    int rows = Integer.getInteger("lancet.probe.rows", 1_000_000);
    Path dir = Files.createTempDirectory("lancet-probe");
    Path file = dir.resolve("probe.lance");
    try (BufferAllocator alloc = new RootAllocator()) {
      write(file, rows, alloc);
      System.out.printf("file: %d rows, %d MiB%n", rows, Files.size(file) >> 20);
      List<String> cols = List.of("id", "name", "score", "embedding");
      for (String what : List.of("all", "id")) {
        List<String> c = what.equals("all") ? cols : List.of("id");
        for (int round = 0; round < 8; round++) {
          long t0 = System.nanoTime();
          long a = javaScan(file, c, rows, alloc);
          long t1 = System.nanoTime();
          long b = coreScan(file, c, rows, alloc);
          long t2 = System.nanoTime();
          if (a != b) {
            throw new AssertionError("rows " + a + " vs " + b);
          }
          System.out.printf("%s round %d: java %.1f ms, lance-core %.1f ms%n", what, round,
              (t1 - t0) / 1e6, (t2 - t1) / 1e6);
        }
      }
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }

  private static long javaScan(Path file, List<String> cols, int rows, BufferAllocator alloc)
      throws Exception {
    long n = 0;
    try (LanceFile f = LanceFile.open(file);
        ArrowReader r = f.read(cols, List.of(new RowRange(0, rows)), 8192, alloc)) {
      if (f.unsupported(cols, List.of()).isPresent()) {
        throw new AssertionError(f.unsupported(cols, List.of()).get());
      }
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  private static long coreScan(Path file, List<String> cols, int rows, BufferAllocator alloc)
      throws Exception {
    long n = 0;
    try (LanceFileReader f = LanceFileReader.open(file.toString(), alloc);
        ArrowReader r = f.readAll(cols, List.of(Range.of(0, rows)), 8192)) {
      while (r.loadNextBatch()) {
        n += r.getVectorSchemaRoot().getRowCount();
      }
    }
    return n;
  }

  private static void write(Path file, int rows, BufferAllocator alloc) throws Exception {
    Random rnd = new Random(1);
    try (LanceFileWriter w = LanceFileWriter.open(file.toString(), alloc, null, Optional.empty(),
        Map.of())) {
      int batch = 100_000;
      for (int start = 0; start < rows; start += batch) {
        int n = Math.min(batch, rows - start);
        BigIntVector id = new BigIntVector("id", alloc);
        VarCharVector name = new VarCharVector("name", alloc);
        Float8Vector score = new Float8Vector("score", alloc);
        FixedSizeListVector emb = (FixedSizeListVector) new Field("embedding",
            FieldType.nullable(new ArrowType.FixedSizeList(128)), List.of(new Field("item",
                FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                null))).createVector(alloc);
        id.allocateNew(n);
        name.allocateNew(n);
        score.allocateNew(n);
        emb.setInitialCapacity(n);
        emb.allocateNew();
        Float4Vector items = (Float4Vector) emb.getDataVector();
        for (int i = 0; i < n; i++) {
          id.set(i, start + i);
          name.setSafe(i, ("name-" + (start + i)).getBytes(StandardCharsets.UTF_8));
          score.set(i, rnd.nextDouble());
          emb.setNotNull(i);
          for (int k = 0; k < 128; k++) {
            items.setSafe(i * 128 + k, rnd.nextFloat());
          }
        }
        id.setValueCount(n);
        name.setValueCount(n);
        score.setValueCount(n);
        emb.setValueCount(n);
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(id, name, score,
            emb))) {
          root.setRowCount(n);
          w.write(root);
        }
      }
    }
  }
}
