package dev.lancet.table;

import dev.lancet.table.expr.IntegerColumns;
import dev.lancet.table.keys.KeyFilterBuilder;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The source rows of a merge insert by key: which source row has the key of a target row. One
 * integer key column is looked up as a sorted array of 64-bit values (no allocation per row);
 * any other key by its encoded bytes. Keys equal as values match whatever the integer width.
 */
abstract class KeyIndex {
  /** The source row with the key of row {@code row} of {@code keyColumns}, or -1. */
  abstract int lookup(List<FieldVector> keyColumns, int row);

  /**
   * A lookup for one thread's walk over target rows (one fragment's), cheaper than
   * {@link #lookup} when the keys come near one another, as a fragment's keys in write order
   * usually do. Not to be shared between threads.
   */
  Cursor cursor() {
    return this::lookup;
  }

  /** Looks source rows up as {@link #lookup} does. */
  interface Cursor {
    int lookup(List<FieldVector> keyColumns, int row);

    /** {@link #lookup} of rows {@code 0..n-1} into {@code out}: one call per batch. */
    default void lookupAll(List<FieldVector> keyColumns, int n, int[] out) {
      for (int r = 0; r < n; r++) {
        out[r] = lookup(keyColumns, r);
      }
    }
  }

  /** A source row whose key another source row has too, or -1. */
  abstract int duplicate();

  /**
   * An index over {@code count} source keys: integer values ({@code ints}, {@code nulls} marking
   * null keys) or encoded bytes ({@code bytes}, null for a null key); null keys never match.
   */
  static KeyIndex of(boolean integerKey, long[] ints, boolean[] nulls, byte[][] bytes, int count) {
    return integerKey ? new Ints(ints, nulls, count) : new Bytes(bytes, count);
  }

  /** Whether the key is one integer column (looked up by value). */
  static boolean integer(List<FieldVector> keyColumns) {
    return keyColumns.size() == 1 && keyColumns.get(0) instanceof BaseIntVector
        && !(keyColumns.get(0) instanceof org.apache.arrow.vector.UInt8Vector);
  }

  static long value(FieldVector v, int row) {
    return ((BaseIntVector) v).getValueAsLong(row);
  }

  /**
   * {@link Arrays#binarySearch(long[], long)} of {@code key}, searching outward from index
   * {@code from} in steps that double (a galloping search): a few probes, all near one
   * another, when the key lies close to the last one found; twice a binary search's at worst.
   */
  static int near(long[] keys, int from, long key) {
    int n = keys.length;
    if (n == 0) {
      return -1;
    }
    long at = keys[from];
    if (at == key) {
      return from;
    }
    int lo;
    int hi;
    if (at < key) {
      lo = from + 1;
      int step = 1;
      hi = from + 1;
      while (hi < n && keys[hi] < key) {
        lo = hi + 1;
        step <<= 1;
        hi = (int) Math.min((long) from + step, n);
      }
      hi = Math.min(hi + 1, n);
    } else {
      hi = from;
      int step = 1;
      lo = from - 1;
      while (lo >= 0 && keys[lo] > key) {
        hi = lo;
        step <<= 1;
        lo = (int) Math.max((long) from - step, -1);
      }
      lo = Math.max(lo, 0);
    }
    return Arrays.binarySearch(keys, lo, hi, key);
  }

  private static final class Ints extends KeyIndex {
    private final long[] keys;
    private final int[] rows;
    private int duplicate = -1;

    Ints(long[] values, boolean[] nulls, int count) {
      // Sort (value, row) pairs packed as indices of a sorted copy: values first, rows after.
      int n = 0;
      for (int i = 0; i < count; i++) {
        if (!nulls[i]) {
          n++;
        }
      }
      long[][] pairs = new long[n][];
      int k = 0;
      for (int i = 0; i < count; i++) {
        if (!nulls[i]) {
          pairs[k++] = new long[] {values[i], i};
        }
      }
      Arrays.sort(pairs, (a, b) -> Long.compare(a[0], b[0]));
      keys = new long[n];
      rows = new int[n];
      for (int i = 0; i < n; i++) {
        keys[i] = pairs[i][0];
        rows[i] = (int) pairs[i][1];
        if (i > 0 && keys[i] == keys[i - 1] && duplicate < 0) {
          duplicate = rows[i];
        }
      }
    }

    @Override
    int duplicate() {
      return duplicate;
    }

    @Override
    int lookup(List<FieldVector> keyColumns, int row) {
      FieldVector v = keyColumns.get(0);
      if (v.isNull(row)) {
        return -1;
      }
      int at = Arrays.binarySearch(keys, value(v, row));
      return at >= 0 ? rows[at] : -1;
    }

    @Override
    Cursor cursor() {
      return new SortedCursor();
    }

    /**
     * Remembers where the last key was found. A fragment's keys usually ascend, so the next key
     * is most often at the finger, just after it, or between the two (absent): two comparisons;
     * anything else gallops from the finger ({@link #near}).
     */
    private final class SortedCursor implements Cursor {
      private int finger;
      private long[] values = new long[0];

      @Override
      public int lookup(List<FieldVector> keyColumns, int row) {
        FieldVector v = keyColumns.get(0);
        if (v.isNull(row)) {
          return -1;
        }
        int at = find(value(v, row));
        return at >= 0 ? rows[at] : -1;
      }

      @Override
      public void lookupAll(List<FieldVector> keyColumns, int n, int[] out) {
        FieldVector v = keyColumns.get(0);
        if (values.length < n) {
          values = new long[n];
        }
        IntegerColumns.read(v, n, values);
        boolean nulls = v.getNullCount() > 0;
        for (int r = 0; r < n; r++) {
          if (nulls && v.isNull(r)) {
            out[r] = -1;
            continue;
          }
          int at = find(values[r]);
          out[r] = at >= 0 ? rows[at] : -1;
        }
      }

      private int find(long key) {
        int m = keys.length;
        if (m == 0) {
          return -1;
        }
        int f = finger;
        long here = keys[f];
        if (here == key) {
          return f;
        }
        if (here < key && f + 1 < m) {
          long next = keys[f + 1];
          if (next > key) {
            return -1;
          }
          if (next == key) {
            finger = f + 1;
            return f + 1;
          }
        }
        int at = near(keys, f, key);
        finger = Math.min(at >= 0 ? at : -at - 1, m - 1);
        return at;
      }
    }
  }

  private static final class Bytes extends KeyIndex {
    private final Map<ByteBuffer, Integer> rows = new HashMap<>();
    private int duplicate = -1;

    Bytes(byte[][] keys, int count) {
      for (int i = 0; i < count; i++) {
        if (keys[i] != null && rows.put(ByteBuffer.wrap(keys[i]), i) != null && duplicate < 0) {
          duplicate = i;
        }
      }
    }

    @Override
    int duplicate() {
      return duplicate;
    }

    @Override
    int lookup(List<FieldVector> keyColumns, int row) {
      byte[] key = KeyFilterBuilder.keyBytes(keyColumns, row);
      if (key == null) {
        return -1;
      }
      Integer s = rows.get(ByteBuffer.wrap(key));
      return s == null ? -1 : s;
    }
  }
}
