package dev.lancet.datafile.lance.file;

import dev.lancet.datafile.lance.LanceDataFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files written by lance-core 7.0.0 with random columns of every supported type, read through
 * lance-core's reader and the Java reader: same schema, batch sizes, validity and values.
 */
class LanceFileDifferentialTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 2048, 4097, 20_000})
  void everyTypeAtRowCount(int rows) throws Exception {
    for (int seed = 0; seed < 4; seed++) {
      Random rnd = new Random(rows * 31L + seed);
      writeAndCompare(RandomColumns.TYPES, rows, rnd, "rows" + rows + "_" + seed);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 16, 32, 64})
  void everyBitWidthOfOneWordSize(int bits) throws Exception {
    // One column per bit width 0..bits, narrow unsigned and signed: every packed width.
    for (int width = 0; width <= bits; width++) {
      Random rnd = new Random(bits * 1000L + width);
      try (BufferAllocator alloc = new RootAllocator()) {
        ArrowType t = new ArrowType.Int(bits, true);
        org.apache.arrow.vector.types.pojo.Field f = new org.apache.arrow.vector.types.pojo.Field(
            "w" + width, org.apache.arrow.vector.types.pojo.FieldType.nullable(t), null);
        var v = (org.apache.arrow.vector.BaseFixedWidthVector) f.createVector(alloc);
        int rows = 3000 + rnd.nextInt(3000);
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
          long x = width == 0 ? 0 : rnd.nextLong() >>> (64 - width);
          if (i % 1000 == 7) {
            x = width == 0 ? 0 : -1L >>> (64 - width);
          }
          switch (bits) {
            case 8 -> v.getDataBuffer().setByte(i, (byte) x);
            case 16 -> v.getDataBuffer().setShort(2L * i, (short) x);
            case 32 -> v.getDataBuffer().setInt(4L * i, (int) x);
            default -> v.getDataBuffer().setLong(8L * i, x);
          }
          v.setIndexDefined(i);
        }
        v.setValueCount(rows);
        Path file = dir.resolve("w" + bits + "_" + width + ".lance");
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
          root.setRowCount(rows);
          LanceDataFiles.writeFile(file, root, null);
        }
        DifferentialReads.compare(file, alloc, rnd, 3);
      }
    }
  }

  private void writeAndCompare(List<ArrowType> types, int rows, Random rnd, String name)
      throws Exception {
    try (BufferAllocator alloc = new RootAllocator()) {
      Path file = dir.resolve(name + ".lance");
      try (VectorSchemaRoot root = RandomColumns.root(alloc, types, rows, rnd)) {
        LanceDataFiles.writeFile(file, root, null);
      }
      DifferentialReads.compare(file, alloc, rnd, 6);
    }
  }
}
