package dev.lancet.table;

import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/** The physical rows of a fragment a scan reads: live rows, then offset and limit applied. */
final class RowSelection {
  private RowSelection() {}

  /** Runs of live (not deleted) offsets in {@code [0, physicalRows)}. */
  static List<RowRange> live(long physicalRows, DeletionVector deleted) {
    List<RowRange> out = new ArrayList<>();
    if (deleted.isEmpty()) {
      if (physicalRows > 0) {
        out.add(new RowRange(0, physicalRows));
      }
      return out;
    }
    RoaringBitmap d = deleted.toBitmap();
    long start = 0;
    for (int off : d) {
      long o = Integer.toUnsignedLong(off);
      if (o >= physicalRows) {
        break;
      }
      if (o > start) {
        out.add(new RowRange(start, o));
      }
      start = o + 1;
    }
    if (start < physicalRows) {
      out.add(new RowRange(start, physicalRows));
    }
    return out;
  }

  /** Live rows {@code [skip, skip + take)} of {@code ranges}, as ranges. */
  static List<RowRange> slice(List<RowRange> ranges, long skip, long take) {
    List<RowRange> out = new ArrayList<>();
    long left = take;
    for (RowRange r : ranges) {
      if (left == 0) {
        break;
      }
      long len = r.length();
      if (skip >= len) {
        skip -= len;
        continue;
      }
      long s = r.start() + skip;
      long e = r.end() - s <= left ? r.end() : s + left;
      out.add(new RowRange(s, e));
      left -= e - s;
      skip = 0;
    }
    return out;
  }

  static long count(List<RowRange> ranges) {
    long n = 0;
    for (RowRange r : ranges) {
      n += r.length();
    }
    return n;
  }
}
