package dev.lancet.table.expr;

import java.nio.ByteBuffer;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;

/**
 * The values of an integer-valued Arrow column as 64-bit longs, copied out of its data buffer in
 * bulk: signed widths sign-extended, unsigned ones zero-extended (a uint64 as its bit pattern),
 * dates and timestamps as their stored counts. A null row's value means nothing. Shared by the
 * evaluator and by merge insert's key lookups.
 */
public final class IntegerColumns {
  private IntegerColumns() {}

  /** Whether {@link #read} takes {@code v}. */
  static boolean holds(ValueVector v) {
    return width(v) > 0;
  }

  /** Rows {@code 0..n-1} of {@code v} as longs. */
  public static long[] read(ValueVector v, int n) {
    long[] out = new long[n];
    read(v, n, out);
    return out;
  }

  /** Rows {@code 0..n-1} of {@code v} into {@code out[0..n-1]} (a buffer reused per batch). */
  public static void read(ValueVector v, int n, long[] out) {
    int width = width(v);
    if (width == 0) {
      throw new IllegalArgumentException("not an integer column: " + v.getField());
    }
    ByteBuffer data = ArrowInput.data(v, n, width);
    boolean unsigned = v instanceof UInt4Vector || v instanceof UInt2Vector || v instanceof UInt1Vector;
    // -1 keeps a signed value's sign extension; an unsigned one keeps its own bits only
    long mask = unsigned ? (1L << (8 * width)) - 1 : -1L;
    switch (width) {
      case 8 -> data.asLongBuffer().get(out, 0, n);
      case 4 -> {
        int[] raw = new int[n];
        data.asIntBuffer().get(raw);
        for (int i = 0; i < n; i++) {
          out[i] = raw[i] & mask;
        }
      }
      case 2 -> {
        short[] raw = new short[n];
        data.asShortBuffer().get(raw);
        for (int i = 0; i < n; i++) {
          out[i] = raw[i] & mask;
        }
      }
      default -> {
        byte[] raw = new byte[n];
        data.get(raw);
        for (int i = 0; i < n; i++) {
          out[i] = raw[i] & mask;
        }
      }
    }
  }

  /** Bytes per value of an integer-valued vector, or 0 for any other. */
  private static int width(ValueVector v) {
    if (v instanceof BigIntVector || v instanceof UInt8Vector || v instanceof TimeStampVector
        || v instanceof DateMilliVector) {
      return 8;
    }
    if (v instanceof IntVector || v instanceof DateDayVector || v instanceof UInt4Vector) {
      return 4;
    }
    if (v instanceof SmallIntVector || v instanceof UInt2Vector) {
      return 2;
    }
    return v instanceof TinyIntVector || v instanceof UInt1Vector ? 1 : 0;
  }
}
