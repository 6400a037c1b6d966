package dev.lancet.file.read.v20;

import dev.lancet.file.RowRange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

/**
 * A probe, not a test (-Dlancet.v20.probe=true): a 1,000,000-row 2.0 file of id int64, name
 * string, score float64, embedding fixed_size_list(float32, 128) written by lance-core, full
 * scans by lance-core's reader and the Java reader in the same JVM after warm-ups.
 */
class ScanProbe20 {
  @Test
  @EnabledIfSystemProperty(named = "lancet.v20.probe", matches = "true")
  void fullScan() throws Exception {
    int rows = 1_000_000;
    int chunk = 50_000;
    Path dir = Files.createTempDirectory("probe20");
    Path file = dir.resolve("probe.lance");
    Random rnd = new Random(1);
    try (BufferAllocator alloc = new RootAllocator()) {
      VectorSchemaRoot[] roots = new VectorSchemaRoot[rows / chunk];
      for (int c = 0; c < roots.length; c++) {
        BigIntVector id = new BigIntVector("id", alloc);
        VarCharVector name = new VarCharVector("name", alloc);
        Float8Vector score = new Float8Vector("score", alloc);
        FixedSizeListVector emb = FixedSizeListVector.empty("embedding", 128, alloc);
        emb.addOrGetVector(FieldType.nullable(
            new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
        id.allocateNew(chunk);
        name.allocateNew();
        score.allocateNew(chunk);
        emb.setInitialCapacity(chunk);
        emb.allocateNew();
        Float4Vector items = (Float4Vector) emb.getDataVector();
        for (int i = 0; i < chunk; i++) {
          long row = (long) c * chunk + i;
          id.set(i, row);
          name.setSafe(i, ("name-" + row * 2654435761L % 1000003).getBytes(StandardCharsets.UTF_8));
          score.set(i, rnd.nextDouble());
          emb.setNotNull(i);
          for (int k = 0; k < 128; k++) {
            items.setSafe(i * 128 + k, rnd.nextFloat());
          }
        }
        items.setValueCount(chunk * 128);
        for (FieldVector v : List.<FieldVector>of(id, name, score, emb)) {
          v.setValueCount(chunk);
        }
        roots[c] = new VectorSchemaRoot(List.<FieldVector>of(id, name, score, emb));
        roots[c].setRowCount(chunk);
      }
      long t0 = System.nanoTime();
      Files20.write(file, roots);
      System.out.printf("wrote %d rows, %d MB, in %.1f s%n", rows, Files.size(file) >> 20,
          (System.nanoTime() - t0) / 1e9);
      for (VectorSchemaRoot r : roots) {
        r.close();
      }
      List<String> cols = List.of("id", "name", "score", "embedding");
      for (int round = 0; round < 6; round++) {
        long a = System.nanoTime();
        long coreRows = 0;
        try (LanceFileReader core = LanceFileReader.open(file.toString(), alloc);
            ArrowReader r = core.readAll(cols, List.of(Range.of(0, rows)), 8192)) {
          while (r.loadNextBatch()) {
            coreRows += r.getVectorSchemaRoot().getRowCount();
          }
        }
        long b = System.nanoTime();
        long javaRows = 0;
        try (LanceFile20 f = LanceFile20.open(file);
            ArrowReader r = f.read(cols, List.of(new RowRange(0, rows)), 8192, alloc)) {
          while (r.loadNextBatch()) {
            javaRows += r.getVectorSchemaRoot().getRowCount();
          }
        }
        long c = System.nanoTime();
        System.out.printf("round %d: lance-core %.3f s (%d rows), Java %.3f s (%d rows)%n",
            round, (b - a) / 1e9, coreRows, (c - b) / 1e9, javaRows);
      }
    } finally {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }
}
