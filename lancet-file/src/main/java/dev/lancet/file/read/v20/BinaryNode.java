package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code Binary}: variable-width values. {@code indices} holds one u64 per value, the end of
 * its bytes counted from the page's first byte, plus {@code nullAdjustment} when the value is
 * null (so an index at or past it is a null whose end is the index minus it); {@code bytes}
 * holds the values back to back (possibly compressed as one buffer).
 */
final class BinaryNode implements Node {
  private final String where;
  private final FlatNode indices;
  private final FlatNode bytes;
  private final long nullAdjustment;
  private final long numValues;

  /** Values {@code [from, to)}: ends relative to the first one's start, validity bits, bytes. */
  record Values(int count, long[] ends, byte[] valid, byte[] data) {}

  BinaryNode(String where, FlatNode indices, FlatNode bytes, long nullAdjustment,
      long numValues) {
    this.where = where;
    this.indices = indices;
    this.bytes = bytes;
    this.nullAdjustment = nullAdjustment;
    this.numValues = numValues;
  }

  private long end(long index) {
    return Long.compareUnsigned(index, nullAdjustment) >= 0 ? index - nullAdjustment : index;
  }

  Values values(long from, long to) throws IOException {
    int n = (int) (to - from);
    long[] idx = indices.longs(from == 0 ? 0 : from - 1, to);
    int k = from == 0 ? 0 : 1;
    long start = from == 0 ? 0 : end(idx[0]);
    long[] ends = new long[n];
    byte[] valid = new byte[(n + 7) >>> 3];
    long prev = start;
    for (int i = 0; i < n; i++) {
      long raw = idx[k + i];
      boolean ok = Long.compareUnsigned(raw, nullAdjustment) < 0;
      long e = ok ? raw : raw - nullAdjustment;
      if (Long.compareUnsigned(e, prev) < 0) {
        throw new CorruptFileException(where + ": value " + (from + i) + " ends at "
            + Long.toUnsignedString(e) + ", before the previous end " + prev);
      }
      ends[i] = e - start;
      if (ends[i] > Integer.MAX_VALUE - 16) {
        throw new CorruptFileException(where + ": values " + from + ".." + to + " claim "
            + Long.toUnsignedString(ends[i]) + " bytes");
      }
      if (ok) {
        valid[i >>> 3] |= (byte) (1 << (i & 7));
      }
      prev = e;
    }
    if (bytes.compressed()) {
      bytes.decompressed(numValues == 0 ? 0 : end(indices.longs(numValues - 1, numValues)[0]));
    }
    byte[] data = bytes.bytes(start, n == 0 ? 0 : ends[n - 1]);
    return new Values(n, ends, valid, data);
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    Values vals = values(from, to);
    Vectors.putVariable(v, at, vals.count(), vals.ends(), vals.valid(), vals.data(), 0);
  }

  @Override
  public String describe() {
    return "Binary(" + bytes.describe() + ")";
  }
}
