package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * A list or large list: an offsets column whose pages are {@code List} encodings, then its
 * items field. In page p, offset i is the end of row i's items counted from the page's first
 * item, plus {@code nullOffsetAdjustment[p]} when the row is null (lance-core takes it modulo
 * the adjustment); the page's rows refer to {@code numItems[p]} items, which follow those of
 * the pages before it in the items field.
 */
final class ListReader implements FieldReader {
  private final Column20 offsets;
  private final FlatNode[] pageOffsets;
  private final long[] nullAdjustment;
  private final long[] itemsBefore;
  private final long[] numItems;
  private final FieldReader items;

  ListReader(Column20 offsets, FlatNode[] pageOffsets, long[] nullAdjustment, long[] numItems,
      FieldReader items) throws CorruptFileException {
    this.offsets = offsets;
    this.pageOffsets = pageOffsets;
    this.nullAdjustment = nullAdjustment;
    this.numItems = numItems;
    this.items = items;
    this.itemsBefore = new long[numItems.length + 1];
    for (int p = 0; p < numItems.length; p++) {
      if (numItems[p] < 0 || itemsBefore[p] + numItems[p] < 0) {
        throw new CorruptFileException(offsets.pageWhere(p) + ": "
            + Long.toUnsignedString(numItems[p]) + " items");
      }
      if (nullAdjustment[p] == 0 && offsets.pageStart[p + 1] > offsets.pageStart[p]) {
        throw new CorruptFileException(offsets.pageWhere(p) + ": a list page whose null offset "
            + "adjustment is 0");
      }
      itemsBefore[p + 1] = itemsBefore[p] + numItems[p];
    }
    if (itemsBefore[numItems.length] != items.numValues()) {
      throw new CorruptFileException(offsets.where + ": the list pages refer to "
          + itemsBefore[numItems.length] + " items, the items column holds "
          + items.numValues());
    }
  }

  @Override
  public long numValues() {
    return offsets.numValues();
  }

  @Override
  public void read(long from, long to, FieldVector v, int at) throws IOException {
    boolean large = v instanceof LargeListVector;
    FieldVector child = large ? ((LargeListVector) v).getDataVector()
        : ((ListVector) v).getDataVector();
    Vectors.ensure(v, at + (int) (to - from));
    ArrowBuf off = v.getOffsetBuffer();
    ArrowBuf validity = v.getValidityBuffer();
    long itemAt = large ? off.getLong((long) at * 8) : off.getInt((long) at * 4);
    long row = from;
    int out = at;
    while (row < to) {
      int p = offsets.pageOf(row);
      long base = offsets.pageStart[p];
      long end = Math.min(to, offsets.pageStart[p + 1]);
      long lf = row - base;
      long lt = end - base;
      long adj = nullAdjustment[p];
      long[] raw = pageOffsets[p].longs(lf == 0 ? 0 : lf - 1, lt);
      int k = lf == 0 ? 0 : 1;
      long prev = lf == 0 ? 0 : Long.remainderUnsigned(raw[0], adj);
      long first = prev;
      for (int i = 0; i < (int) (lt - lf); i++) {
        long r = raw[k + i];
        long e = Long.remainderUnsigned(r, adj);
        if (Long.compareUnsigned(e, prev) < 0 || Long.compareUnsigned(e, numItems[p]) > 0) {
          throw new CorruptFileException(offsets.pageWhere(p) + ": list " + (lf + i)
              + " ends at item " + e + " (the previous ends at " + prev + ", the page has "
              + numItems[p] + " items)");
        }
        long pos = itemAt + (e - first);
        if (large) {
          off.setLong((long) (out + i + 1) * 8, pos);
        } else {
          if (pos > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a batch of list column '" + v.getName()
                + "' would hold more than 2^31 items: read it with a smaller batch size");
          }
          off.setInt((long) (out + i + 1) * 4, (int) pos);
        }
        long byteAt = (out + i) >>> 3;
        int mask = 1 << ((out + i) & 7);
        byte b = validity.getByte(byteAt);
        validity.setByte(byteAt, Long.compareUnsigned(r, adj) < 0 ? b | mask : b & ~mask);
        prev = e;
      }
      if (prev > first) {
        items.read(itemsBefore[p] + first, itemsBefore[p] + prev, child, (int) itemAt);
      }
      itemAt += prev - first;
      out += (int) (lt - lf);
      row = end;
    }
    if (large) {
      ((LargeListVector) v).setLastSet(out - 1);
    } else {
      ((ListVector) v).setLastSet(out - 1);
    }
  }

  @Override
  public void describe(java.util.Set<String> into) {
    into.add("List(" + (pageOffsets.length == 0 ? "" : pageOffsets[0].describe()) + ")");
    items.describe(into);
  }
}
