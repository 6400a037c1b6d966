package dev.lancet.file.read;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Where decoded values of one column go: a batch's Arrow vector, already allocated. For a
 * fixed-width vector, its data and validity buffers; values are {@code bits} wide (1 for bool,
 * else 8, 16, 32 or 64). For a variable-width vector (string, binary), values are appended a
 * chunk's worth at a time and the vector grows as they come. Positions are the batch's row
 * indices.
 */
final class VectorSink {
  private final ArrowBuf data;
  private final ArrowBuf validity;
  private final int bits;
  /** The data buffer's memory as a little-endian buffer (views share its bounds). */
  private final ByteBuffer out;
  private final BaseVariableWidthVector variable;
  private byte[] narrowBytes;
  private short[] narrowShorts;
  private int[] narrowInts;
  private int[] ends;
  private static final int OFFSET_WIDTH = BaseVariableWidthVector.OFFSET_WIDTH;

  VectorSink(BaseFixedWidthVector vector, int bits) {
    this.data = vector.getDataBuffer();
    this.validity = vector.getValidityBuffer();
    this.bits = bits;
    this.out = data.nioBuffer(0, (int) data.capacity()).order(ByteOrder.LITTLE_ENDIAN);
    this.variable = null;
  }

  VectorSink(BaseVariableWidthVector vector) {
    this.data = null;
    this.validity = null; // reallocated as the vector grows: asked for each time
    this.bits = 0;
    this.out = null;
    this.variable = vector;
  }

  /** The sink for a batch's vector of a column the Java reader decodes. */
  static VectorSink of(FieldVector vector) {
    if (vector instanceof BaseVariableWidthVector v) {
      return new VectorSink(v);
    }
    return new VectorSink((BaseFixedWidthVector) vector,
        ColumnPages.valueBits(vector.getField().getType()));
  }

  /** A scratch array of at least {@code n} bytes, for values decoded before they are put. */
  byte[] scratch(int n) {
    return bytes(n);
  }

  /** A scratch array of at least {@code n} ints, for the ends of values before they are put. */
  int[] ends(int n) {
    if (ends == null || ends.length < n) {
      ends = new int[Math.max(n, FastLanes.BLOCK)];
    }
    return ends;
  }

  /**
   * Puts the variable-width values of rows {@code [at, at + count)}, the rows before them
   * already put or left null: value k is {@code src[pos + ends[k-1], pos + ends[k])} (from
   * {@code pos} for k = 0). One copy of the bytes, the offsets written directly; validity is
   * set by the caller.
   */
  void putVariable(byte[] src, int pos, int[] ends, int count, int at) {
    if (count == 0) {
      return;
    }
    while (variable.getValueCapacity() < at + count) {
      variable.reallocValidityAndOffsetBuffers();
    }
    ArrowBuf offsets = variable.getOffsetBuffer();
    // Rows after the last one put and before this one (nulls of an all-null page) are empty.
    int last = variable.getLastSet();
    int start = offsets.getInt((long) (last + 1) * OFFSET_WIDTH);
    for (int r = last + 2; r <= at; r++) {
      offsets.setInt((long) r * OFFSET_WIDTH, start);
    }
    long total = ends[count - 1];
    if (start + total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a batch of column '" + variable.getName() + "' would "
          + "hold more than 2 GiB of values, past what 32-bit offsets address: read it with a "
          + "smaller batch size");
    }
    if (variable.getDataBuffer().capacity() < start + total) {
      variable.reallocDataBuffer(start + total);
    }
    variable.getDataBuffer().setBytes(start, src, pos, total);
    for (int k = 0; k < count; k++) {
      offsets.setInt((long) (at + k + 1) * OFFSET_WIDTH, start + ends[k]);
    }
    variable.setLastSet(at + count - 1);
  }

  private ArrowBuf validity() {
    return variable != null ? variable.getValidityBuffer() : validity;
  }

  /** Writes {@code count} values {@code values[from..]} (unsigned, low {@code bits} bits). */
  void putValues(long[] values, int from, int count, int at) {
    // Narrowed into a typed array, then one bulk copy into the vector's memory.
    switch (bits) {
      case 8 -> {
        byte[] n = bytes(count);
        for (int i = 0; i < count; i++) {
          n[i] = (byte) values[from + i];
        }
        out.put(at, n, 0, count);
      }
      case 16 -> {
        short[] n = shorts(count);
        for (int i = 0; i < count; i++) {
          n[i] = (short) values[from + i];
        }
        out.asShortBuffer().put(at, n, 0, count);
      }
      case 32 -> {
        int[] n = ints(count);
        for (int i = 0; i < count; i++) {
          n[i] = (int) values[from + i];
        }
        out.asIntBuffer().put(at, n, 0, count);
      }
      case 64 -> out.asLongBuffer().put(at, values, from, count);
      default -> throw new IllegalStateException("bits " + bits);
    }
  }

  private byte[] bytes(int n) {
    if (narrowBytes == null || narrowBytes.length < n) {
      narrowBytes = new byte[Math.max(n, FastLanes.BLOCK)];
    }
    return narrowBytes;
  }

  private short[] shorts(int n) {
    if (narrowShorts == null || narrowShorts.length < n) {
      narrowShorts = new short[Math.max(n, FastLanes.BLOCK)];
    }
    return narrowShorts;
  }

  private int[] ints(int n) {
    if (narrowInts == null || narrowInts.length < n) {
      narrowInts = new int[Math.max(n, FastLanes.BLOCK)];
    }
    return narrowInts;
  }

  /** Copies {@code count} little-endian values from {@code src} at byte {@code pos}. */
  void putRaw(ByteBuffer src, int pos, int count, int at) {
    int width = bits / 8;
    data.setBytes((long) at * width, src, pos, count * width);
  }

  /** Copies bools {@code from..from+count} of the bit-packed (LSB first) bytes at {@code pos}. */
  void putBits(ByteBuffer src, int pos, int from, int count, int at) {
    for (int i = 0; i < count; i++) {
      int bit = from + i;
      int b = src.get(pos + (bit >>> 3)) >>> (bit & 7) & 1;
      BitVectorHelper.setValidityBit(data, at + i, b);
    }
  }

  /** Marks rows {@code at..at+count} valid. */
  void setValid(int at, int count) {
    int i = at;
    int end = at + count;
    ArrowBuf validity = validity();
    while (i < end && (i & 7) != 0) {
      BitVectorHelper.setBit(validity, i++);
    }
    int fullBytes = (end - i) >>> 3;
    if (fullBytes > 0) {
      validity.setOne((long) (i >>> 3), (long) fullBytes);
      i += fullBytes << 3;
    }
    while (i < end) {
      BitVectorHelper.setBit(validity, i++);
    }
  }

  /** Marks row {@code at} valid or null. */
  void setValidity(int at, boolean valid) {
    BitVectorHelper.setValidityBit(validity(), at, valid ? 1 : 0);
  }
}
