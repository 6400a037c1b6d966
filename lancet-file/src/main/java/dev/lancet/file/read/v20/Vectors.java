package dev.lancet.file.read.v20;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/** Growing Arrow vectors and writing their validity and variable-width values directly. */
final class Vectors {
  private Vectors() {}

  /** Makes room in {@code v} for rows {@code [0, n)} (validity, offsets, fixed-width data). */
  static void ensure(FieldVector v, int n) {
    if (n <= 0) {
      return;
    }
    if (v instanceof BaseFixedWidthVector f) {
      while (f.getValueCapacity() < n) {
        f.reAlloc();
      }
    } else if (v instanceof BaseVariableWidthVector b) {
      while (b.getValueCapacity() < n) {
        b.reallocValidityAndOffsetBuffers();
      }
    } else if (v instanceof BaseLargeVariableWidthVector b) {
      while (b.getValueCapacity() < n) {
        b.reallocValidityAndOffsetBuffers();
      }
    } else if (v instanceof ListVector l) {
      int last = l.getLastSet();
      l.startNewValue(n - 1); // grows offsets and validity only; offsets are rewritten after
      l.setLastSet(last);
    } else if (v instanceof LargeListVector l) {
      int last = l.getLastSet();
      l.startNewValue((long) n - 1);
      l.setLastSet(last);
    } else if (v instanceof FixedSizeListVector l) {
      while (l.getValidityBuffer().capacity() * 8 < n) {
        l.reAlloc();
      }
    } else if (v instanceof StructVector s) {
      while (s.getValidityBuffer().capacity() * 8 < n) {
        s.reAlloc();
      }
    }
  }

  /** Marks rows {@code [at, at + n)} of {@code v} valid. */
  static void setValid(FieldVector v, int at, int n) {
    ArrowBuf validity = v.getValidityBuffer();
    int i = at;
    int end = at + n;
    while (i < end && (i & 7) != 0) {
      BitVectorHelper.setBit(validity, i++);
    }
    int fullBytes = (end - i) >>> 3;
    if (fullBytes > 0) {
      validity.setOne(i >>> 3, fullBytes);
      i += fullBytes << 3;
    }
    while (i < end) {
      BitVectorHelper.setBit(validity, i++);
    }
  }

  /** Marks rows {@code [at, at + n)} of {@code v} null. */
  static void setNull(FieldVector v, int at, int n) {
    ArrowBuf validity = v.getValidityBuffer();
    for (int i = at; i < at + n; i++) {
      BitVectorHelper.unsetBit(validity, i);
    }
  }

  /**
   * Copies {@code n} bits of {@code src} from bit {@code srcBit} (LSB first) into {@code dst}
   * from bit {@code dstBit}.
   */
  static void copyBits(byte[] src, long srcBit, ArrowBuf dst, long dstBit, int n) {
    if ((srcBit & 7) == 0 && (dstBit & 7) == 0) {
      int whole = n >>> 3;
      dst.setBytes(dstBit >>> 3, src, (int) (srcBit >>> 3), whole);
      for (int k = whole << 3; k < n; k++) {
        put(dst, dstBit + k, src[(int) ((srcBit + k) >>> 3)] >>> ((srcBit + k) & 7) & 1);
      }
      return;
    }
    for (int k = 0; k < n; k++) {
      long s = srcBit + k;
      put(dst, dstBit + k, src[(int) (s >>> 3)] >>> (s & 7) & 1);
    }
  }

  private static void put(ArrowBuf dst, long bit, int value) {
    long byteAt = bit >>> 3;
    byte b = dst.getByte(byteAt);
    int mask = 1 << (bit & 7);
    dst.setByte(byteAt, value != 0 ? (b | mask) : (b & ~mask));
  }

  /**
   * Puts {@code n} variable-width values at rows {@code [at, at + n)} of {@code v}, whose rows
   * before {@code at} are written: value k is {@code data[dataAt + ends[k-1], dataAt + ends[k])}
   * (from {@code dataAt} for k = 0); {@code valid} bit k says whether row k is valid.
   */
  static void putVariable(FieldVector v, int at, int n, long[] ends, byte[] valid, byte[] data,
      int dataAt) {
    ensure(v, at + n);
    long total = n == 0 ? 0 : ends[n - 1];
    if (v instanceof BaseVariableWidthVector b) {
      ArrowBuf offsets = b.getOffsetBuffer();
      int start = offsets.getInt((long) at * 4);
      if (start + total > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a batch of column '" + v.getName() + "' would hold "
            + "more than 2 GiB of values, past what 32-bit offsets address: read it with a "
            + "smaller batch size");
      }
      if (b.getDataBuffer().capacity() < start + total) {
        b.reallocDataBuffer(start + total);
      }
      b.getDataBuffer().setBytes(start, data, dataAt, total);
      for (int k = 0; k < n; k++) {
        offsets.setInt((long) (at + k + 1) * 4, (int) (start + ends[k]));
      }
      b.setLastSet(at + n - 1);
    } else {
      BaseLargeVariableWidthVector b = (BaseLargeVariableWidthVector) v;
      ArrowBuf offsets = b.getOffsetBuffer();
      long start = offsets.getLong((long) at * 8);
      while (b.getDataBuffer().capacity() < start + total) {
        b.reallocDataBuffer();
      }
      b.getDataBuffer().setBytes(start, data, dataAt, total);
      for (int k = 0; k < n; k++) {
        offsets.setLong((long) (at + k + 1) * 8, start + ends[k]);
      }
      b.setLastSet(at + n - 1);
    }
    copyBits(valid, 0, v.getValidityBuffer(), at, n);
  }
}
