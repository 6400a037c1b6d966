package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A mini-block page's dictionary (page buffer 2), decoded once: {@code count} values, either
 * variable-width (a block of a u32 or u64 offset width, a u32 or u64 position of the bytes, the
 * count + 1 offsets from the bytes' start, then the bytes: upstream binary.rs, the block form of
 * Variable) or fixed-width ({@code width} bytes each, back to back).
 */
final class DictionaryValues {
  private final int count;
  private final boolean variable;
  private final int width;
  private final byte[] bytes;
  /** Variable-width: value i is bytes[offsets[i], offsets[i + 1]). */
  private final int[] offsets;

  private DictionaryValues(int count, boolean variable, int width, byte[] bytes, int[] offsets) {
    this.count = count;
    this.variable = variable;
    this.width = width;
    this.bytes = bytes;
    this.offsets = offsets;
  }

  String describe() {
    return variable ? "variable dictionary" : "fixed dictionary";
  }

  /** A variable-width dictionary of {@code count} values from its block {@code b}. */
  static DictionaryValues variable(ByteBuffer b, long count, String where)
      throws CorruptFileException {
    ByteBuffer buf = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int len = buf.remaining();
    if (count < 0 || count > len) {
      throw new CorruptFileException(where + ": a dictionary of " + count + " values in "
          + len + " bytes");
    }
    if (len < 8) {
      throw new CorruptFileException(where + ": the dictionary block (" + len + " bytes) has no "
          + "room for its header");
    }
    int bits = buf.getInt(0);
    int word = bits / 8;
    if (bits != 32 && bits != 64 || len < 2 * word) {
      throw new CorruptFileException(where + ": the dictionary block's offsets are " + bits
          + " bits (32 or 64)");
    }
    long bytesStart = bits == 32 ? Integer.toUnsignedLong(buf.getInt(4)) : buf.getLong(8);
    long offsetsEnd = 2L * word + (count + 1) * word;
    if (bytesStart != offsetsEnd || bytesStart > len) {
      throw new CorruptFileException(where + ": the dictionary's bytes start at " + bytesStart
          + ", not after its " + (count + 1) + " offsets (" + offsetsEnd + ") within " + len
          + " bytes");
    }
    int n = (int) count;
    int[] offsets = new int[n + 1];
    long dataLen = len - bytesStart;
    long prev = -1;
    long base = 0;
    for (int i = 0; i <= n; i++) {
      int at = 2 * word + i * word;
      long o = bits == 32 ? Integer.toUnsignedLong(buf.getInt(at)) : buf.getLong(at);
      if (i == 0) {
        base = o;
        prev = o;
      }
      if (o < prev || o - base > dataLen) {
        throw new CorruptFileException(where + ": dictionary value " + (i - 1) + " ends at "
            + o + ", outside its " + dataLen + " bytes");
      }
      offsets[i] = (int) (o - base);
      prev = o;
    }
    byte[] bytes = new byte[offsets[n]];
    buf.get((int) (bytesStart + base), bytes);
    return new DictionaryValues(n, true, 0, bytes, offsets);
  }

  /** A fixed-width dictionary of {@code count} values of {@code width} bytes. */
  static DictionaryValues fixed(ByteBuffer b, long count, int width, String where)
      throws CorruptFileException {
    if (count < 0 || count * width > b.remaining()) {
      throw new CorruptFileException(where + ": a dictionary of " + count + " values of "
          + width + " bytes does not fit its " + b.remaining() + " bytes");
    }
    byte[] bytes = new byte[(int) count * width];
    b.duplicate().get(bytes);
    return new DictionaryValues((int) count, false, width, bytes, null);
  }

  /**
   * Puts the values at indices {@code idx[as[j]..bs[j])} to the sink from row {@code at}; a null
   * row (a non-zero definition level) is left empty.
   */
  void gather(long[] idx, int[] as, int[] bs, int m, int[] defs, VectorSink sink, int at,
      String where) throws CorruptFileException {
    int out = at;
    for (int j = 0; j < m; j++) {
      int rows = bs[j] - as[j];
      if (variable) {
        long total = 0;
        for (int i = as[j]; i < bs[j]; i++) {
          if (defs == null || defs[i] == 0) {
            total += offsets[check(idx[i], i, where) + 1] - offsets[(int) idx[i]];
          }
        }
        if (total > Integer.MAX_VALUE - 16) {
          throw new IllegalArgumentException(where + ": a batch part of more than 2 GiB of "
              + "dictionary values: read with a smaller batch size");
        }
        byte[] tmp = sink.scratch((int) total);
        int[] ends = sink.ends(rows);
        int o = 0;
        for (int i = as[j]; i < bs[j]; i++) {
          if (defs == null || defs[i] == 0) {
            int k = (int) idx[i];
            int len = offsets[k + 1] - offsets[k];
            System.arraycopy(bytes, offsets[k], tmp, o, len);
            o += len;
          }
          ends[i - as[j]] = o;
        }
        sink.putVariable(tmp, 0, ends, rows, out);
      } else {
        for (int i = as[j]; i < bs[j]; i++) {
          if (defs == null || defs[i] == 0) {
            sink.putRaw(bytes, check(idx[i], i, where) * width, 1, out + i - as[j]);
          }
        }
      }
      out += rows;
    }
  }

  private int check(long index, int row, String where) throws CorruptFileException {
    if (index < 0 || index >= count) {
      throw new CorruptFileException(where + ": value " + row + " has dictionary index "
          + index + " of a dictionary of " + count);
    }
    return (int) index;
  }

  /**
   * Where a page's dictionary lies and how it is coded; decoded on first use and kept (a
   * dictionary is small: lance-core chooses one for few distinct values).
   */
  static final class Source {
    private final long pos;
    private final long size;
    private final long count;
    /** Bytes per value, or 0 for variable-width values. */
    private final int width;
    private final java.util.Optional<GeneralCodec> codec;
    private DictionaryValues values;

    Source(long pos, long size, long count, int width, java.util.Optional<GeneralCodec> codec) {
      this.pos = pos;
      this.size = size;
      this.count = count;
      this.width = width;
      this.codec = codec;
    }

    DictionaryValues get() {
      return values;
    }

    void load(LanceFile file, Scratch scratch, String where) throws java.io.IOException {
      if (values != null) {
        return;
      }
      ByteBuffer b = file.read(pos, (int) size);
      if (codec.isPresent()) {
        b = codec.get().decompress(b, 0, b.remaining(), 1L << 30, scratch, where + ", dictionary");
      }
      values = width == 0 ? variable(b, count, where + ", dictionary")
          : fixed(b, count, width, where + ", dictionary");
    }
  }
}
