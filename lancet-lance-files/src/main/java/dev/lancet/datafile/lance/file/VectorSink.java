package dev.lancet.datafile.lance.file;

import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;

/**
 * Where decoded values of one column go: the data and validity buffers of a fixed-width Arrow
 * vector already allocated for the batch. Values are {@code bits} wide (1 for bool, else 8, 16,
 * 32 or 64), positions are the batch's row indices.
 */
final class VectorSink {
  private final ArrowBuf data;
  private final ArrowBuf validity;
  private final int bits;

  VectorSink(BaseFixedWidthVector vector, int bits) {
    this.data = vector.getDataBuffer();
    this.validity = vector.getValidityBuffer();
    this.bits = bits;
  }

  /** Writes {@code count} values {@code values[from..]} (unsigned, low {@code bits} bits). */
  void putValues(long[] values, int from, int count, int at) {
    switch (bits) {
      case 8 -> {
        for (int i = 0; i < count; i++) {
          data.setByte(at + i, (byte) values[from + i]);
        }
      }
      case 16 -> {
        for (int i = 0; i < count; i++) {
          data.setShort(2L * (at + i), (short) values[from + i]);
        }
      }
      case 32 -> {
        for (int i = 0; i < count; i++) {
          data.setInt(4L * (at + i), (int) values[from + i]);
        }
      }
      case 64 -> {
        for (int i = 0; i < count; i++) {
          data.setLong(8L * (at + i), values[from + i]);
        }
      }
      default -> throw new IllegalStateException("bits " + bits);
    }
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

  /** Marks row {@code at} valid or null. */
  void setValidity(int at, boolean valid) {
    BitVectorHelper.setValidityBit(validity, at, valid ? 1 : 0);
  }
}
