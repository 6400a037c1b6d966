package dev.lancet.file.read.v20;

import dev.lancet.file.BufferCodecs;
import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code Flat}: values of {@code bits} bits back to back in one buffer (1 bit: a bitmap, LSB
 * first), or, compressed, a buffer that decompresses to that. Only byte-wide values are ever
 * compressed by lance-core (the bytes of a binary column); the decompressed buffer is kept for
 * the page's next reads.
 */
final class FlatNode implements Node {
  private final Source src;
  private final String where;
  private final int bits;
  private final long pos;
  private final long len;
  private final Optional<BufferCodecs.Scheme> compression;
  private byte[] decompressed;

  FlatNode(Source src, String where, int bits, long pos, long len,
      Optional<BufferCodecs.Scheme> compression, long numValues) throws CorruptFileException {
    this.src = src;
    this.where = where;
    this.bits = bits;
    this.pos = pos;
    this.len = len;
    this.compression = compression;
    if (compression.isEmpty()) {
      long need = bytesFor(numValues);
      if (need < 0 || need > len) {
        throw new CorruptFileException(where + ": " + numValues + " values of " + bits
            + " bits need " + need + " bytes, the buffer has " + len);
      }
    }
  }

  int bits() {
    return bits;
  }

  private long bytesFor(long values) {
    if (values < 0 || values > Long.MAX_VALUE / 256) {
      return -1;
    }
    return bits == 1 ? (values + 7) / 8 : values * (bits / 8);
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    int n = (int) (to - from);
    Vectors.ensure(v, at + n);
    if (bits == 1) {
      long first = from >>> 3;
      byte[] b = bytes(first, ((to + 7) >>> 3) - first);
      Vectors.copyBits(b, from & 7, ((BitVector) v).getDataBuffer(), at, n);
      return;
    }
    int width = bits / 8;
    BaseFixedWidthVector f = (BaseFixedWidthVector) v;
    if (compression.isEmpty()) {
      src.read(pos + from * width, f.getDataBuffer(), (long) at * width, (long) n * width);
    } else {
      byte[] all = decompressed(-1);
      f.getDataBuffer().setBytes((long) at * width, all, (int) (from * width), (long) n * width);
    }
  }

  /** Bytes {@code [first, first + count)} of the (decompressed) buffer. */
  byte[] bytes(long first, long count) throws IOException {
    if (count > Integer.MAX_VALUE - 16) {
      throw new CorruptFileException(where + ": a read of " + count + " bytes");
    }
    if (compression.isPresent()) {
      byte[] all = decompressed(-1);
      if (first + count > all.length) {
        throw new CorruptFileException(where + ": bytes " + first + ".." + (first + count)
            + " are past the " + all.length + " decompressed bytes");
      }
      return java.util.Arrays.copyOfRange(all, (int) first, (int) (first + count));
    }
    if (first < 0 || first > len || count > len - first) {
      throw new CorruptFileException(where + ": bytes " + first + ".." + (first + count)
          + " are past the buffer's " + len);
    }
    byte[] out = new byte[(int) count];
    src.read(pos + first, out, 0, (int) count);
    return out;
  }

  /** Unsigned values {@code [from, to)} (8, 16, 32 or 64 bits). */
  long[] longs(long from, long to) throws IOException {
    int width = bits / 8;
    int n = (int) (to - from);
    ByteBuffer b = ByteBuffer.wrap(bytes(from * width, (long) n * width))
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = switch (width) {
        case 1 -> Byte.toUnsignedLong(b.get(i));
        case 2 -> Short.toUnsignedLong(b.getShort(2 * i));
        case 4 -> Integer.toUnsignedLong(b.getInt(4 * i));
        default -> b.getLong(8 * i);
      };
    }
    return out;
  }

  /**
   * The whole buffer decompressed; {@code expected} is its decompressed size when the caller
   * knows it first (then it is checked), or -1 once it was.
   */
  byte[] decompressed(long expected) throws IOException {
    if (decompressed == null) {
      if (expected < 0) {
        throw new IllegalStateException(where + ": decompressed before its size was known");
      }
      byte[] raw = new byte[(int) len];
      src.read(pos, raw, 0, raw.length);
      decompressed = BufferCodecs.decompress(compression.get(), raw, 0, raw.length, expected,
          where);
    }
    return decompressed;
  }

  boolean compressed() {
    return compression.isPresent();
  }

  @Override
  public String describe() {
    return "Flat(" + bits + compression.map(c -> "," + c.name().toLowerCase()).orElse("") + ")";
  }
}
