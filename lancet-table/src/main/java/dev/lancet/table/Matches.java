package dev.lancet.table;

import dev.lancet.format.model.Field;
import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.BatchIterator;
import org.roaringbitmap.RoaringBitmap;

/** The live rows of a fragment a filter selects, by physical offset, and row ranges of them. */
final class Matches {
  private Matches() {}

  /**
   * Reads only the filter's columns of the live rows of {@code f} and evaluates it batch by
   * batch; the physical offsets of the rows where it is true.
   */
  static RoaringBitmap of(TableView view, ViewFragment f, BoundPredicate filter, int batchSize) {
    RoaringBitmap out = new RoaringBitmap();
    List<RowRange> live = f.liveRanges(view.ctx());
    if (live.isEmpty()) {
      return out;
    }
    List<Field> columns = view.columns(filter.columns());
    try (FragmentRead read = view.read(f, columns, live, batchSize)) {
      VectorSchemaRoot batch;
      while ((batch = read.next()) != null) {
        long[] offsets = read.offsets();
        view.advance(offsets.length);
        int[] selected = filter.selection(batch).toArray();
        for (int k = 0; k < selected.length; k++) {
          selected[k] = (int) offsets[selected[k]];
        }
        // ascending within the batch and after every earlier batch: one append of the lot
        out.addN(selected, 0, selected.length);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("evaluating '" + filter.sql() + "' on fragment " + f.id(), e);
    }
    return out;
  }

  /** The offsets as ascending ranges of consecutive rows. */
  static List<RowRange> ranges(RoaringBitmap rows) {
    return ranges(rows, 0);
  }

  /**
   * Ascending ranges covering the offsets, two ranges merged where at most {@code maxGap}
   * unselected rows lie between them (a reader's cost per range exceeds that of a few rows).
   */
  static List<RowRange> ranges(RoaringBitmap rows, int maxGap) {
    List<RowRange> out = new ArrayList<>();
    long start = -1;
    long end = -1;
    // The offsets a batch at a time (walking runs with nextValue / nextAbsentValue was a tenth
    // of an update's read of scattered rows).
    int[] batch = new int[256];
    BatchIterator it = rows.getBatchIterator();
    while (it.hasNext()) {
      int n = it.nextBatch(batch);
      for (int i = 0; i < n; i++) {
        long off = Integer.toUnsignedLong(batch[i]);
        if (start >= 0 && off - end <= maxGap) {
          end = off + 1;
        } else {
          if (start >= 0) {
            out.add(new RowRange(start, end));
          }
          start = off;
          end = off + 1;
        }
      }
    }
    if (start >= 0) {
      out.add(new RowRange(start, end));
    }
    return out;
  }
}
