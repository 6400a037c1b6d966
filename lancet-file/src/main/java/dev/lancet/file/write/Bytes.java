package dev.lancet.file.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer: the writer's accumulators and encoded buffers. Reused
 * across pages ({@link #clear}), so a column's memory is one page's worth whatever the file's
 * size.
 */
final class Bytes {
  private byte[] a;
  private int n;

  Bytes(int capacity) {
    a = new byte[Math.max(16, capacity)];
  }

  int size() {
    return n;
  }

  byte[] array() {
    return a;
  }

  void clear() {
    n = 0;
  }

  /** Makes room for {@code more} bytes. */
  void reserve(int more) {
    long need = (long) n + more;
    if (need > a.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("a buffer of " + need + " bytes is more than one "
            + "Java array holds; write smaller batches or lower the page size");
      }
      a = Arrays.copyOf(a, (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16, 2L * a.length)));
    }
  }

  void u8(int v) {
    reserve(1);
    a[n++] = (byte) v;
  }

  void u16(int v) {
    reserve(2);
    a[n++] = (byte) v;
    a[n++] = (byte) (v >>> 8);
  }

  void u32(long v) {
    reserve(4);
    a[n++] = (byte) v;
    a[n++] = (byte) (v >>> 8);
    a[n++] = (byte) (v >>> 16);
    a[n++] = (byte) (v >>> 24);
  }

  void u64(long v) {
    reserve(8);
    for (int i = 0; i < 8; i++) {
      a[n++] = (byte) (v >>> (8 * i));
    }
  }

  /** The low {@code bytes} bytes of {@code v}, little endian. */
  void word(long v, int bytes) {
    reserve(bytes);
    for (int i = 0; i < bytes; i++) {
      a[n++] = (byte) (v >>> (8 * i));
    }
  }

  void put(byte[] src, int off, int len) {
    reserve(len);
    System.arraycopy(src, off, a, n, len);
    n += len;
  }

  void put(Bytes src, int off, int len) {
    put(src.a, off, len);
  }

  void zeros(int len) {
    reserve(len);
    Arrays.fill(a, n, n + len, (byte) 0);
    n += len;
  }

  /** Pads with {@code fill} to a multiple of {@code align}. */
  void pad(int align, byte fill) {
    int p = (align - n % align) % align;
    reserve(p);
    Arrays.fill(a, n, n + p, fill);
    n += p;
  }

  /** Advances over {@code len} bytes written directly into {@link #array()}. */
  void advance(int len) {
    n += len;
  }

  /** Sets the size back to {@code size} (discarding what follows). */
  void truncate(int size) {
    n = size;
  }

  long getWord(int pos, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v |= (a[pos + i] & 0xFFL) << (8 * i);
    }
    return v;
  }

  ByteBuffer view() {
    return ByteBuffer.wrap(a, 0, n).order(ByteOrder.LITTLE_ENDIAN);
  }

  ByteBuffer view(int off, int len) {
    return ByteBuffer.wrap(a, off, len).slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  byte[] toArray() {
    return Arrays.copyOf(a, n);
  }
}
