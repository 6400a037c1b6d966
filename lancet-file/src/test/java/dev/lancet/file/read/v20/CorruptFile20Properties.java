package dev.lancet.file.read.v20;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.RowRange;
import dev.lancet.file.UnsupportedFileException;
import dev.lancet.file.read.LanceDataFile;
import dev.lancet.file.read.LanceDataFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Real 2.0 files of every encoding, with bytes changed at random (most in the metadata, where
 * positions and counts live): opening and reading every column either succeeds or fails with
 * a {@link CorruptFileException} (or {@link UnsupportedFileException}), in bounded time; never
 * an index, allocation or arithmetic error escaping, never a hang.
 */
class CorruptFile20Properties {
  private static byte[][] corpus;
  private static long[] metadataStart;
  private static int ok;
  private static int corrupt;
  /** Refusals that came from the readers' last-resort net, not from a check before use. */
  private static int caught;

  private static synchronized void corpus() throws Exception {
    if (corpus != null) {
      return;
    }
    Path dir = Files.createTempDirectory("v20corpus");
    List<Field> fields = List.of(
        new Field("i", FieldType.nullable(new ArrowType.Int(32, true)), null),
        new Field("b", FieldType.nullable(ArrowType.Bool.INSTANCE), null),
        new Field("d", FieldType.nullable(new ArrowType.Decimal(20, 3, 128)), null),
        new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("few", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("z", new FieldType(true, ArrowType.Utf8.INSTANCE, null,
            Map.of("lance-encoding:compression", "zstd")), null),
        new Field("l4", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
            Map.of("lance-encoding:compression", "lz4")), null),
        new Field("f", new FieldType(true, ArrowType.Utf8.INSTANCE, null,
            Map.of("lance-encoding:compression", "fsst")), null),
        new Field("blob", new FieldType(true, ArrowType.LargeBinary.INSTANCE, null,
            Map.of("lance-encoding:blob", "true")), null),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(4)), List.of(
            new Field("item", FieldType.nullable(
                new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null))),
        new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
            new Field("x", FieldType.nullable(new ArrowType.Int(64, true)), null),
            new Field("y", FieldType.nullable(ArrowType.LargeUtf8.INSTANCE), null))),
        new Field("ls", FieldType.nullable(ArrowType.List.INSTANCE), List.of(
            new Field("item", FieldType.nullable(ArrowType.List.INSTANCE), List.of(
                new Field("item", FieldType.nullable(new ArrowType.Int(16, true)), null))))),
        new Field("p", new FieldType(false, ArrowType.Struct.INSTANCE, null,
            Map.of("packed", "true")), List.of(
                new Field("a", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                new Field("c", FieldType.notNullable(new ArrowType.Int(64, true)), null))));
    Random rnd = new Random(31);
    List<byte[]> files = new ArrayList<>();
    List<Long> starts = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      for (int k = 0; k < 3; k++) {
        Path file = dir.resolve("c" + k + ".lance");
        try (VectorSchemaRoot root = new RandomData20(rnd).root(alloc, new Schema(fields),
            300 + k * 400)) {
          for (String name : List.of("few")) {
            VarCharVector v = (VarCharVector) root.getVector(name);
            for (int i = 0; i < root.getRowCount(); i++) {
              v.setSafe(i, ("x" + i % 3).getBytes(StandardCharsets.UTF_8));
            }
            v.setValueCount(root.getRowCount());
          }
          Files20.write(file, root);
        }
        byte[] b = Files.readAllBytes(file);
        files.add(b);
        starts.add(ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(b.length - 40));
      }
    }
    corpus = files.toArray(new byte[0][]);
    metadataStart = starts.stream().mapToLong(Long::longValue).toArray();
  }

  @Property(tries = 150, seed = "2020")
  void damagedFilesFailCleanly(@ForAll long seed) throws Exception {
    corpus();
    Random rnd = new Random(seed);
    int which = rnd.nextInt(corpus.length);
    byte[] b = corpus[which].clone();
    int edits = 1 + rnd.nextInt(4);
    for (int e = 0; e < edits; e++) {
      int at = rnd.nextInt(4) == 0 ? rnd.nextInt(b.length)
          : (int) (metadataStart[which] + rnd.nextInt((int) (b.length - metadataStart[which])));
      b[at] = switch (rnd.nextInt(3)) {
        case 0 -> (byte) rnd.nextInt(256);
        case 1 -> (byte) (b[at] ^ (1 << rnd.nextInt(8)));
        default -> (byte) 0xFF;
      };
    }
    Path file = Files.createTempFile("damaged", ".lance");
    try {
      Files.write(file, b);
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> readAll(file, seed));
    } finally {
      Files.delete(file);
    }
  }

  private static void readAll(Path file, long seed) throws Exception {
    try (BufferAllocator alloc = new RootAllocator(1L << 30)) {
      try (LanceDataFile f = LanceDataFiles.open(file)) {
        for (var field : f.schema().getFields()) {
          List<String> col = List.of(field.getName());
          List<RowRange> all = List.of(new RowRange(0, Math.min(f.numRows(), 5000)));
          if (f.unsupported(col, all).isPresent()) {
            continue;
          }
          for (BlobMode mode : BlobMode.values()) {
            try (ArrowReader r = ((LanceFile20) f).read(col, all, 777, alloc, mode)) {
              while (r.loadNextBatch()) {
                assertThat(r.getVectorSchemaRoot().getRowCount()).isPositive();
              }
            }
          }
        }
      }
      synchronized (CorruptFile20Properties.class) {
        ok++;
      }
    } catch (CorruptFileException | UnsupportedFileException e) {
      synchronized (CorruptFile20Properties.class) {
        corrupt++;
        if (e.getCause() instanceof RuntimeException) {
          caught++;
          System.out.println("refused by the last-resort net: " + e.getMessage());
        }
      }
    } catch (Throwable t) {
      throw new AssertionError("seed " + seed + ": " + t, t);
    }
  }

  @AfterContainer
  static void report() {
    System.out.println("damaged 2.0 files: " + ok + " read, " + corrupt
        + " refused as corrupt or unsupported (" + caught + " by the last-resort net)");
  }
}
