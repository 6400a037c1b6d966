package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The encoding corpus (columns chosen so that lance-core 7.0.0 writes every 2.1 layout and
 * compression it has) written by lance-core, each column alone and all together, read through
 * both readers and compared value by value; then every coding the corpus produced must have
 * been decoded in Java.
 */
class EncodingCorpusDifferentialTest {
  @TempDir Path dir;

  @AfterAll
  static void everyEncodingWasDecoded() {
    java.util.Set<String> seen = DifferentialReads.SEEN;
    System.out.println("codings met: " + new java.util.TreeSet<>(seen));
    List<String> expected = List.of(
        "FullZip(fixed 4096",                       // fixed_size_list<float32>[128]
        "MiniBlock FixedSizeList(8 x Flat(32), item validity)",
        "MiniBlock FixedSizeList(16 x Flat(16))",   // float16 vectors
        "MiniBlock FixedSizeList(64 x Flat(8))",    // int8 vectors
        "MiniBlock PackedStruct(96)",
        "MiniBlock Rle(Flat(64), lengths 8)",
        "MiniBlock Rle(Flat(32), lengths 8)",
        "MiniBlock Dictionary(InlineBitpacked(32))",
        "FullZip(variable 32 COMPRESSION_ALGORITHM_ZSTD",
        "FullZip(variable 32, def bytes 0)",
        "MiniBlock Fsst(Variable(64))",
        "MiniBlock Variable(64)",
        "MiniBlock General(COMPRESSION_ALGORITHM_ZSTD, Flat(64))",
        "MiniBlock General(COMPRESSION_ALGORITHM_LZ4, Variable(32))",
        "MiniBlock General(COMPRESSION_ALGORITHM_ZSTD, Variable(32))",
        "MiniBlock Flat(40)",                       // fixed_size_binary(5)
        "MiniBlock Flat(128)",                      // decimal128
        "MiniBlock Flat(16)",                       // float16
        "AllNull");
    for (String e : expected) {
      assertThat(seen).as("a page coded " + e).anyMatch(s -> s.startsWith(e));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {40, 700, 5000})
  void eachColumnAlone(int rows) throws Exception {
    String only = System.getProperty("lancet.corpus.only", "");
    for (EncodingCorpus.Column c : EncodingCorpus.all()) {
      if (!only.isEmpty() && !only.contains("," + c.field().getName() + ",")) {
        continue;
      }
      try (BufferAllocator alloc = new RootAllocator()) {
        Random rnd = new Random(rows * 131L + c.field().getName().hashCode());
        FieldVector v = c.field().createVector(alloc);
        new RandomData(rnd, c.profile()).fill(v, rows);
        Path file = dir.resolve(c.field().getName() + rows + ".lance");
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
          root.setRowCount(rows);
          LanceCoreFiles.write(file, root);
        }
        DifferentialReads.compare(file, alloc, rnd, 3);
      } catch (Exception | AssertionError e) {
        throw new AssertionError("column " + c.field() + " at " + rows + " rows: " + e, e);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {3000})
  void allColumnsTogether(int rows) throws Exception {
    try (BufferAllocator alloc = new RootAllocator()) {
      Random rnd = new Random(rows);
      List<FieldVector> vectors = new ArrayList<>();
      for (EncodingCorpus.Column c : EncodingCorpus.all()) {
        FieldVector v = c.field().createVector(alloc);
        new RandomData(rnd, c.profile()).fill(v, rows);
        vectors.add(v);
      }
      Path file = dir.resolve("all.lance");
      try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
        root.setRowCount(rows);
        LanceCoreFiles.write(file, root);
      }
      DifferentialReads.compare(file, alloc, rnd, 8);
    }
  }
}
