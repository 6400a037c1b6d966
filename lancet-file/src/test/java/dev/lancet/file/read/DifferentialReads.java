package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.RowRange;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

/** Reads one file through lance-core's reader and the Java reader and compares everything. */
final class DifferentialReads {
  /** Every page coding the comparisons met (e.g. "Flat[bits=8] None[]"), across tests. */
  static final java.util.Set<String> SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * What the Java reader may leave to lance-core in these files: fields with lists (and maps,
   * blobs), which it does not assemble (decision 0030).
   */
  static final List<String> LEFT_TO_LANCE_CORE = List.of("lists are left to lance-core",
      "list layers are left to lance-core", "a blob column", "a dictionary-typed field",
      "an empty struct");

  /** How a page's values are coded, for the coverage checks (e.g. "Flat(32) None[]"). */
  static String describe(PageDecoder d) {
    if (d instanceof MiniBlockPage m) {
      return "MiniBlock " + m.values().describe() + " " + m.levels();
    }
    if (d instanceof FullZipPage z) {
      return z.describe();
    }
    return "AllNull";
  }

  private DifferentialReads() {}

  /** Random ascending, non-overlapping ranges of a file of {@code rows} rows. */
  static List<RowRange> randomRanges(long rows, Random rnd) {
    List<RowRange> out = new ArrayList<>();
    if (rows == 0) {
      return out;
    }
    int kind = rnd.nextInt(4);
    if (kind == 0) {
      out.add(new RowRange(0, rows));
      return out;
    }
    if (kind == 1) {
      // An update's or a take's read: many short pieces a few rows apart, several in a chunk.
      long at = (long) (rnd.nextDouble() * rows / 2);
      int gap = 1 + rnd.nextInt(40);
      while (at < rows && out.size() < 3000) {
        long end = Math.min(rows, at + 1 + rnd.nextInt(8));
        out.add(new RowRange(at, end));
        at = end + rnd.nextInt(gap); // 0: the next piece starts where this one ends
      }
      return out;
    }
    long at = 0;
    int n = 1 + rnd.nextInt(6);
    for (int i = 0; i < n && at < rows; i++) {
      long start = at + (rnd.nextBoolean() ? 0 : (long) (rnd.nextDouble() * (rows - at) / 2));
      long len = 1 + (long) (rnd.nextDouble() * (rows - start));
      long end = Math.min(rows, start + len);
      if (start >= end) {
        break;
      }
      out.add(new RowRange(start, end));
      at = end;
    }
    return out;
  }

  /** Asserts both readers give the same schema, then the same batches for each read. */
  static void compare(Path file, BufferAllocator alloc, Random rnd, int reads) throws Exception {
    compare(file, alloc, rnd, reads, List.of());
  }

  /** As above, with {@code fixed} range lists read first (all columns, random batch size). */
  static void compare(Path file, BufferAllocator alloc, Random rnd, int reads,
      List<List<RowRange>> fixed) throws Exception {
    try (LanceFileReader core = LanceFileReader.open(file.toString(), alloc);
        LanceFile mine = LanceFile.open(file)) {
      assertThat(mine.schema()).isEqualTo(core.schema());
      assertThat(mine.numRows()).isEqualTo(core.numRows());
      // Columns lance-core wrote with a compression the Java reader leaves to lance-core (RLE
      // for runs, e.g. constant columns) are left out; every other column must be decoded.
      List<String> names = new ArrayList<>();
      for (var f : mine.schema().getFields()) {
        var why = mine.unsupported(List.of(f.getName()), List.of());
        if (why.isPresent()) {
          assertThat(why.get()).containsAnyOf(LEFT_TO_LANCE_CORE.toArray(String[]::new));
        } else {
          names.add(f.getName());
        }
      }
      for (int c = 0; c < mine.numColumns(); c++) {
        if (mine.column(c).unsupported().isEmpty()) {
          for (PageDecoder d : mine.column(c).decoders()) {
            SEEN.add(describe(d));
          }
        }
      }
      for (int r = 0; r < fixed.size() + reads && !names.isEmpty(); r++) {
        List<String> cols = new ArrayList<>(names);
        java.util.Collections.shuffle(cols, rnd);
        List<RowRange> ranges;
        if (r < fixed.size()) {
          ranges = fixed.get(r);
        } else {
          cols = cols.subList(0, 1 + rnd.nextInt(cols.size()));
          ranges = randomRanges(mine.numRows(), rnd);
        }
        int batch = rnd.nextBoolean() ? 1 + rnd.nextInt(3000) : 1 + rnd.nextInt(20);
        assertThat(mine.unsupported(cols, ranges)).isEmpty();
        List<Range> native_ = new ArrayList<>();
        ranges.forEach(x -> native_.add(Range.of((int) x.start(), (int) x.end())));
        String what = file + " cols " + cols + " ranges " + describe(ranges) + " batch " + batch;
        try (ArrowReader expected = core.readAll(cols, native_, batch);
            ArrowReader actual = mine.read(cols, ranges, batch, alloc)) {
          sameBatches(expected, actual, what);
        }
      }
    }
  }

  /** The ranges, or the first and last few of many. */
  static String describe(List<RowRange> ranges) {
    if (ranges.size() <= 8) {
      return ranges.toString();
    }
    return ranges.size() + " ranges " + ranges.subList(0, 4) + " .. "
        + ranges.subList(ranges.size() - 4, ranges.size());
  }

  static void sameBatches(ArrowReader expected, ArrowReader actual, String what)
      throws Exception {
    int batch = 0;
    while (true) {
      boolean e = expected.loadNextBatch();
      boolean a = actual.loadNextBatch();
      assertThat(a).as(what + ": batch " + batch + " present").isEqualTo(e);
      if (!e) {
        break;
      }
      VectorSchemaRoot er = expected.getVectorSchemaRoot();
      VectorSchemaRoot ar = actual.getVectorSchemaRoot();
      assertThat(ar.getSchema()).as(what).isEqualTo(er.getSchema());
      assertThat(ar.getRowCount()).as(what + ": rows of batch " + batch)
          .isEqualTo(er.getRowCount());
      for (int c = 0; c < er.getFieldVectors().size(); c++) {
        sameValues(er.getVector(c), ar.getVector(c), what + ": batch " + batch + " column " + c);
      }
      batch++;
    }
  }

  static void sameValues(FieldVector expected, FieldVector actual, String what) {
    assertThat(actual.getValueCount()).as(what).isEqualTo(expected.getValueCount());
    for (int i = 0; i < expected.getValueCount(); i++) {
      // Compared without AssertJ per value (millions of rows); a difference fails with both.
      if (!VectorCompare.same(expected, i, actual, i)) {
        assertThat(actual.isNull(i)).as(what + " row " + i + " null").isEqualTo(expected.isNull(i));
        assertThat(String.valueOf(actual.getObject(i))).as(what + " row " + i)
            .isEqualTo(String.valueOf(expected.getObject(i)));
        throw new AssertionError(what + " row " + i + ": raw bits differ");
      }
    }
  }
}
