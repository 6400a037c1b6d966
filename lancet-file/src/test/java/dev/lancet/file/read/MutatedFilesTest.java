package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.RowRange;
import dev.lancet.file.UnsupportedFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real files of every encoding (the encoding corpus, written by lance-core 7.0.0) with bytes
 * changed at random, read in full by the Java reader: each read either succeeds or fails with a
 * {@link CorruptFileException} (or, at open, an {@link UnsupportedFileException} for a version
 * or layout it does not read) — never another exception, a JVM crash, a hang, or an allocation
 * past the read allocator's 512 MiB. Seeds are printed; {@code -Dlancet.mutations=N} runs N
 * (300 by default).
 */
class MutatedFilesTest {
  @TempDir static Path dir;
  private static final List<byte[]> FILES = new ArrayList<>();
  private static final List<String> NAMES = new ArrayList<>();
  /** Per file, positions of structure inside its pages: chunk headers, full-zip items, indexes. */
  private static final List<long[]> HOT = new ArrayList<>();

  @BeforeAll
  static void writeCorpus() throws Exception {
    Random rnd = new Random(42);
    for (EncodingCorpus.Column c : EncodingCorpus.all()) {
      try (BufferAllocator alloc = new RootAllocator()) {
        FieldVector v = c.field().createVector(alloc);
        int rows = c.profile().shape() == RandomData.Shape.LARGE ? 40 : 1500;
        new RandomData(rnd, c.profile()).fill(v, rows);
        Path file = dir.resolve(c.field().getName() + ".lance");
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.of(v))) {
          root.setRowCount(rows);
          LanceCoreFiles.write(file, root);
        }
        FILES.add(Files.readAllBytes(file));
        NAMES.add(c.field().getName());
        HOT.add(hotSpots(file, FILES.get(FILES.size() - 1)));
      }
    }
  }

  @Test
  void mutatedFilesFailCleanlyOrRead() throws Exception {
    int runs = Integer.getInteger("lancet.mutations", 300);
    Map<String, Integer> outcomes = new TreeMap<>();
    for (int seed = 0; seed < runs; seed++) {
      // Mixed: the first draws of Random(0), Random(1), ... are nearly the same.
      Random rnd = new Random(new java.util.SplittableRandom(seed).nextLong());
      int f = rnd.nextInt(FILES.size());
      String only = System.getProperty("lancet.mutations.only", "");
      if (!only.isEmpty() && !NAMES.get(f).equals(only)) {
        continue;
      }
      byte[] b = FILES.get(f).clone();
      String how = mutate(b, HOT.get(f), rnd);
      Path p = dir.resolve("m" + seed + ".lance");
      Files.write(p, b);
      String what = "seed " + seed + ": " + NAMES.get(f) + " with " + how;
      String outcome;
      try {
        outcome = Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
            () -> readAll(p, rnd), what + " hangs");
      } catch (Throwable e) {
        throw new AssertionError(what + ": " + e, e);
      }
      outcomes.merge(outcome, 1, Integer::sum);
      Files.delete(p);
    }
    System.out.println("mutation outcomes: " + outcomes + " files " + NAMES);
    assertThat(outcomes.keySet()).anyMatch(o -> o.startsWith("corrupt"));
  }

  /** The first bytes of each mini-block chunk and full-zip item, and the indexes' entries. */
  private static long[] hotSpots(Path file, byte[] b) throws Exception {
    List<Long> out = new ArrayList<>();
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    try (LanceFile f = LanceFile.open(file)) {
      for (int c = 0; c < f.numColumns(); c++) {
        if (f.column(c).unsupported().isPresent()) {
          continue;
        }
        for (PageDecoder d : f.column(c).decoders()) {
          if (d instanceof MiniBlockPage m) {
            long at = m.dataPos();
            for (int w = 0; w < m.numChunkWords(); w++) {
              int word = Short.toUnsignedInt(bb.getShort((int) (m.metaPos() + 2 * w)));
              for (int k = 0; k < 24; k++) {
                out.add(at + k);
              }
              out.add(m.metaPos() + 2 * w);
              out.add(m.metaPos() + 2 * w + 1);
              at += ((word >>> 4) + 1) * 8L;
            }
          } else if (d instanceof FullZipPage z) {
            for (int k = 0; k < 64; k++) {
              out.add(z.dataPos() + k);
              if (z.repPos() > 0) {
                out.add(z.repPos() + k);
              }
            }
          }
        }
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * Changes a few bytes: in the structure inside pages, anywhere, or in the metadata at the
   * file's end; or zeroes the file's tail.
   */
  private static String mutate(byte[] b, long[] hot, Random rnd) {
    int kind = rnd.nextInt(10);
    if (kind >= 7 && hot.length > 0) {
      int n = 1 + rnd.nextInt(2);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < n; i++) {
        int at = (int) hot[rnd.nextInt(hot.length)];
        byte v = rnd.nextBoolean() ? (byte) rnd.nextInt(256) : (byte) (b[at] ^ (1 << rnd.nextInt(8)));
        sb.append(at).append('=').append(v & 0xFF).append(' ');
        b[at] = v;
      }
      return "page structure bytes " + sb.toString().trim();
    }
    if (kind == 0) {
      int cut = rnd.nextInt(b.length);
      java.util.Arrays.fill(b, cut, b.length, (byte) 0);
      return "zeros from byte " + cut;
    }
    int n = 1 + rnd.nextInt(4);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      int at = kind < 4 ? b.length - 1 - rnd.nextInt(Math.min(b.length, 2048))
          : rnd.nextInt(b.length);
      byte v = rnd.nextBoolean() ? (byte) rnd.nextInt(256) : (byte) (b[at] ^ (1 << rnd.nextInt(8)));
      sb.append(at).append('=').append(v & 0xFF).append(' ');
      b[at] = v;
    }
    return "bytes " + sb.toString().trim();
  }

  /** Reads every column the Java reader takes; returns the outcome's kind. */
  private static String readAll(Path p, Random rnd) throws Exception {
    try (BufferAllocator alloc = new RootAllocator(512L << 20)) {
      LanceFile file;
      try {
        file = LanceFile.open(p);
      } catch (CorruptFileException e) {
        assertThat(e.getMessage()).contains(p.toString());
        return "corrupt at open";
      } catch (UnsupportedFileException e) {
        return "unsupported at open";
      }
      try (file) {
        List<String> names = new ArrayList<>();
        for (var f : file.schema().getFields()) {
          names.add(f.getName());
        }
        List<RowRange> all = List.of(new RowRange(0, file.numRows()));
        if (file.unsupported(names, all).isPresent()) {
          return "left to lance-core";
        }
        int batch = 1 + rnd.nextInt(2000);
        try (ArrowReader r = file.read(names, all, batch, alloc)) {
          while (r.loadNextBatch()) {
            r.getVectorSchemaRoot().getRowCount();
          }
        }
        return "read";
      } catch (CorruptFileException e) {
        assertThat(e.getMessage()).contains(p.toString());
        return "corrupt";
      }
    }
  }
}
