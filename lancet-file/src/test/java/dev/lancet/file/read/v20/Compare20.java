package dev.lancet.file.read.v20;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.file.RowRange;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

/** Reads a 2.0 file through lance-core's reader and the Java reader and compares everything. */
final class Compare20 {
  /** Every coding the Java reader decoded in the compared files, across tests. */
  static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

  /** Reads lance-core's own reader failed on (its internal errors), across tests. */
  static final Set<String> CORE_FAILED = ConcurrentHashMap.newKeySet();

  private Compare20() {}

  /** Random ascending, non-overlapping ranges of a file of {@code rows} rows. */
  static List<RowRange> randomRanges(long rows, Random rnd) {
    List<RowRange> out = new ArrayList<>();
    if (rows == 0) {
      return out;
    }
    switch (rnd.nextInt(3)) {
      case 0 -> out.add(new RowRange(0, rows));
      case 1 -> {
        long at = (long) (rnd.nextDouble() * rows / 2);
        while (at < rows && out.size() < 500) {
          long end = Math.min(rows, at + 1 + rnd.nextInt(8));
          out.add(new RowRange(at, end));
          at = end + rnd.nextInt(30);
        }
      }
      default -> {
        long at = 0;
        for (int i = 0; i < 1 + rnd.nextInt(5) && at < rows; i++) {
          long start = at + (long) (rnd.nextDouble() * (rows - at) / 2);
          long end = Math.min(rows, start + 1 + (long) (rnd.nextDouble() * (rows - start)));
          out.add(new RowRange(start, end));
          at = end;
        }
      }
    }
    return out;
  }

  /** Schema, row count, then {@code reads} random projections, ranges and batch sizes. */
  static void compare(Path file, BufferAllocator alloc, Random rnd, int reads, int... batches)
      throws Exception {
    try (LanceFileReader core = LanceFileReader.open(file.toString(), alloc);
        LanceFile20 mine = LanceFile20.open(file)) {
      assertThat(mine.schema()).isEqualTo(core.schema());
      assertThat(mine.numRows()).isEqualTo(core.numRows());
      List<String> names = new ArrayList<>();
      for (var f : mine.schema().getFields()) {
        names.add(f.getName());
      }
      assertThat(mine.unsupported(names, List.of(new RowRange(0, mine.numRows())))).isEmpty();
      for (String n : names) {
        SEEN.addAll(mine.codings(n));
      }
      for (int r = 0; r < reads; r++) {
        List<String> cols = new ArrayList<>(names);
        Collections.shuffle(cols, rnd);
        List<RowRange> ranges;
        if (r == 0) {
          ranges = List.of(new RowRange(0, mine.numRows()));
        } else {
          cols = cols.subList(0, 1 + rnd.nextInt(cols.size()));
          ranges = randomRanges(mine.numRows(), rnd);
        }
        int batch = r < batches.length ? batches[r]
            : rnd.nextBoolean() ? 1 + rnd.nextInt(3000) : 1 + rnd.nextInt(20);
        List<Range> native_ = new ArrayList<>();
        ranges.forEach(x -> native_.add(Range.of((int) x.start(), (int) x.end())));
        String what = file + " cols " + cols + " ranges "
            + (ranges.size() > 6 ? ranges.size() + " ranges from " + ranges.get(0) : ranges)
            + " batch " + batch;
        try (ArrowReader expected = core.readAll(cols, native_, batch);
            ArrowReader actual = mine.read(cols, ranges, batch, alloc)) {
          sameBatches(expected, actual, what);
        } catch (java.io.IOException e) {
          if (!String.valueOf(e.getMessage()).contains("Encountered internal error")) {
            throw e;
          }
          // lance-core's own reader fails on this read: nothing to compare against.
          CORE_FAILED.add(what + ": " + e.getMessage());
          System.out.println("lance-core failed to read " + what + ": " + e.getMessage());
        }
      }
    }
  }

  /** Whole-file reads of every column at each of {@code batches}, then two random reads. */
  static void compareAt(Path file, BufferAllocator alloc, int[] batches, Random rnd)
      throws Exception {
    try (LanceFileReader core = LanceFileReader.open(file.toString(), alloc);
        LanceFile20 mine = LanceFile20.open(file)) {
      List<String> names = new ArrayList<>();
      mine.schema().getFields().forEach(f -> names.add(f.getName()));
      for (int batch : batches) {
        try (ArrowReader expected = core.readAll(names,
                List.of(Range.of(0, (int) mine.numRows())), batch);
            ArrowReader actual = mine.read(names, List.of(new RowRange(0, mine.numRows())),
                batch, alloc)) {
          sameBatches(expected, actual, file + " batch " + batch);
        }
      }
    }
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
        FieldVector ev = er.getVector(c);
        same(ev, ar.getVector(c), 0, 0, ev.getValueCount(),
            what + ": batch " + batch + " column " + ev.getName());
      }
      batch++;
    }
  }

  /** Rows {@code [e0, e0 + n)} of {@code expected} equal rows from {@code a0} of {@code actual}. */
  static void same(FieldVector expected, FieldVector actual, int e0, int a0, int n, String what) {
    for (int k = 0; k < n; k++) {
      int i = e0 + k;
      int j = a0 + k;
      String at = what + " row " + i;
      if (expected.isNull(i) != actual.isNull(j)) {
        throw new AssertionError(at + ": null " + expected.isNull(i) + " expected, "
            + actual.isNull(j) + " read (" + expected.getObject(i) + " / " + actual.getObject(j)
            + ")");
      }
      if (expected instanceof StructVector s) {
        StructVector t = (StructVector) actual;
        for (int c = 0; c < s.size(); c++) {
          same((FieldVector) s.getChildByOrdinal(c), (FieldVector) t.getChildByOrdinal(c), i, j,
              1, at + "." + s.getChildByOrdinal(c).getName());
        }
        continue;
      }
      if (expected.isNull(i)) {
        continue;
      }
      if (expected instanceof BitVector b) {
        if (b.get(i) != ((BitVector) actual).get(j)) {
          throw new AssertionError(at + ": " + b.get(i) + " expected");
        }
      } else if (expected instanceof FixedSizeListVector f) {
        int d = f.getListSize();
        same(f.getDataVector(), ((FixedSizeListVector) actual).getDataVector(), i * d, j * d, d,
            at + "[]");
      } else if (expected instanceof ListVector l) {
        ListVector m = (ListVector) actual;
        int es = l.getElementStartIndex(i);
        int len = l.getElementEndIndex(i) - es;
        int as = m.getElementStartIndex(j);
        assertThat(m.getElementEndIndex(j) - as).as(at + " length").isEqualTo(len);
        same(l.getDataVector(), m.getDataVector(), es, as, len, at + "[]");
      } else if (expected instanceof LargeListVector l) {
        LargeListVector m = (LargeListVector) actual;
        int es = (int) l.getElementStartIndex(i);
        int len = (int) (l.getElementEndIndex(i) - es);
        int as = (int) m.getElementStartIndex(j);
        assertThat((int) (m.getElementEndIndex(j) - as)).as(at + " length").isEqualTo(len);
        same(l.getDataVector(), m.getDataVector(), es, as, len, at + "[]");
      } else if (expected instanceof BaseVariableWidthVector v) {
        if (!Arrays.equals(v.get(i), ((BaseVariableWidthVector) actual).get(j))) {
          throw new AssertionError(at + ": " + expected.getObject(i) + " expected, "
              + actual.getObject(j) + " read");
        }
      } else if (expected instanceof BaseLargeVariableWidthVector v) {
        if (!Arrays.equals(v.get(i), ((BaseLargeVariableWidthVector) actual).get(j))) {
          throw new AssertionError(at + ": " + expected.getObject(i) + " expected, "
              + actual.getObject(j) + " read");
        }
      } else if (expected instanceof BaseFixedWidthVector v) {
        int w = v.getTypeWidth();
        byte[] x = new byte[w];
        byte[] y = new byte[w];
        v.getDataBuffer().getBytes((long) i * w, x);
        ((BaseFixedWidthVector) actual).getDataBuffer().getBytes((long) j * w, y);
        if (!Arrays.equals(x, y)) {
          throw new AssertionError(at + ": " + expected.getObject(i) + " expected, "
              + actual.getObject(j) + " read");
        }
      } else {
        assertThat(actual.getObject(j)).as(at).isEqualTo(expected.getObject(i));
      }
    }
  }
}
