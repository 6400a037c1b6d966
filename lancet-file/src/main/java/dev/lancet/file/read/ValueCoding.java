package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * How a mini-block chunk's value buffers hold its values (upstream
 * {@code protos/encodings_v2_1.proto}, CompressiveEncoding; what each holds is recorded in
 * decision 0030). Each coding decodes the parts {@code [as[j], bs[j])}, {@code j < m}, ascending,
 * of a chunk of {@code n} values one after another into the sink from batch row {@code at}.
 */
sealed interface ValueCoding {
  void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs, VectorSink sink,
      int at, Scratch s, String where) throws CorruptFileException;

  /** Value buffers each chunk holds. */
  default int buffers() {
    return 1;
  }

  /** The most values a chunk of {@code chunkBytes} bytes can hold in this coding. */
  long maxValues(long chunkBytes);

  /**
   * Decodes all {@code n} values of the chunk as unsigned longs into {@code out} (codings of
   * integers of at most 64 bits: dictionary indices, run values).
   */
  default void decodeLongs(ChunkBuffers b, int n, long[] out, Scratch s, String where)
      throws CorruptFileException {
    throw new IllegalStateException(this + " has no integer form");
  }

  /** Whether {@link #decodeLongs} is available. */
  default boolean integers() {
    return false;
  }

  /** A name for the coverage check of the tests, e.g. "Flat(32)". */
  String describe();

  /** Raw little-endian values of {@code bits} bits (1: LSB-first bit-packed bools). */
  record Flat(int bits) implements ValueCoding {
    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes * 8 / bits;
    }

    @Override
    public String describe() {
      return "Flat(" + bits + ")";
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      need(b.size[0], n, where);
      int out = at;
      for (int j = 0; j < m; j++) {
        if (bits == 1) {
          sink.putBits(b.buf[0], b.pos[0], as[j], bs[j] - as[j], out);
        } else {
          sink.putRaw(b.buf[0], b.pos[0] + as[j] * (bits / 8), bs[j] - as[j], out);
        }
        out += bs[j] - as[j];
      }
    }

    private void need(int size, int n, String where) throws CorruptFileException {
      long need = ((long) n * bits + 7) / 8;
      if (size < need) {
        throw new CorruptFileException(where + ": " + n + " flat " + bits + "-bit values need "
            + need + " bytes, the value buffer has " + size);
      }
    }

    @Override
    public boolean integers() {
      return bits == 8 || bits == 16 || bits == 32 || bits == 64;
    }

    @Override
    public void decodeLongs(ChunkBuffers b, int n, long[] out, Scratch s, String where)
        throws CorruptFileException {
      need(b.size[0], n, where);
      for (int i = 0; i < n; i++) {
        out[i] = readWord(b.buf[0], b.pos[0] + i * (bits / 8), bits);
      }
    }
  }

  /**
   * Inline bit-packing over words of {@code wordBits} bits (upstream
   * {@code rust/lance-encoding/src/encodings/physical/bitpacking.rs}, InlineBitpacking): the
   * buffer is one word holding the block's bit width, then the 1024-value block packed at that
   * width ({@link FastLanes}); a chunk of fewer values is a zero-padded block.
   */
  record InlineBitpacked(int wordBits) implements ValueCoding {
    @Override
    public long maxValues(long chunkBytes) {
      return FastLanes.BLOCK;
    }

    @Override
    public String describe() {
      return "InlineBitpacked(" + wordBits + ")";
    }

    @Override
    public boolean integers() {
      return true;
    }

    private void unpack(ChunkBuffers b, int n, Scratch s, String where)
        throws CorruptFileException {
      int wordBytes = wordBits / 8;
      ByteBuffer buf = b.buf[0];
      int pos = b.pos[0];
      int size = b.size[0];
      if (n > FastLanes.BLOCK) {
        throw new CorruptFileException(where + ": " + n + " values in one bit-packed chunk "
            + "(at most " + FastLanes.BLOCK + ")");
      }
      if (size < wordBytes) {
        throw new CorruptFileException(where + ": the bit-packed value buffer (" + size
            + " bytes) has no room for its bit width");
      }
      long width = readWord(buf, pos, wordBits);
      if (width > wordBits) {
        throw new CorruptFileException(where + ": bit width " + width + " for " + wordBits
            + "-bit values");
      }
      int words = FastLanes.packedWords(wordBits, (int) width);
      if (size != wordBytes * (1 + words)) {
        throw new CorruptFileException(where + ": a block packed at " + width + " bits takes "
            + wordBytes * (1 + words) + " bytes, the value buffer has " + size);
      }
      FastLanes.unpack(buf, pos + wordBytes, wordBits, (int) width, s.packed, s.unpacked);
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      // Unpacked once for every part of the chunk.
      unpack(b, n, s, where);
      int out = at;
      for (int j = 0; j < m; j++) {
        sink.putValues(s.unpacked, as[j], bs[j] - as[j], out);
        out += bs[j] - as[j];
      }
    }

    @Override
    public void decodeLongs(ChunkBuffers b, int n, long[] out, Scratch s, String where)
        throws CorruptFileException {
      unpack(b, n, s, where);
      System.arraycopy(s.unpacked, 0, out, 0, n);
    }
  }

  /**
   * Variable-width values (upstream {@code rust/lance-encoding/src/encodings/physical/binary.rs},
   * BinaryMiniBlockEncoder): the value buffer is n + 1 offsets of {@code offsetBits} bits, counted
   * from the buffer's start (the first is the offsets' own size), then the values' bytes back to
   * back. With {@code fsst}, each value's bytes are FSST-compressed (Fsst over Variable).
   */
  record Variable(int offsetBits, Optional<FsstSymbols> fsst) implements ValueCoding {
    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes / (offsetBits / 8) - 1;
    }

    @Override
    public String describe() {
      return (fsst.isPresent() ? "Fsst(Variable(" : "Variable(") + offsetBits + ")"
          + (fsst.isPresent() ? ")" : "");
    }

    private long offset(ByteBuffer buf, int pos, int i) {
      return offsetBits == 32 ? Integer.toUnsignedLong(buf.getInt(pos + 4 * i))
          : buf.getLong(pos + 8 * i);
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      ByteBuffer buf = b.buf[0];
      int pos = b.pos[0];
      int size = b.size[0];
      long offsetBytes = (long) (offsetBits / 8) * (n + 1);
      if (size < offsetBytes || offset(buf, pos, 0) != offsetBytes) {
        throw new CorruptFileException(where + ": " + n + " variable-width values need "
            + offsetBytes + " bytes of offsets at the start of their " + size + "-byte buffer, "
            + "and the first offset to be " + offsetBytes);
      }
      int out = at;
      for (int j = 0; j < m; j++) {
        decodePart(buf, pos, size, offsetBytes, as[j], bs[j], sink, out, where);
        out += bs[j] - as[j];
      }
    }

    /** Values {@code [a, b)} of the chunk, to batch row {@code at}. */
    private void decodePart(ByteBuffer buf, int pos, int size, long offsetBytes, int a, int b,
        VectorSink sink, int at, String where) throws CorruptFileException {
      long first = offset(buf, pos, a);
      if (first < offsetBytes || first > size) {
        throw new CorruptFileException(where + ": value " + a + " starts at byte " + first
            + ", outside the values of a " + size + "-byte buffer");
      }
      // The values' ends, from the first value's start: checked, then the lot copied at once.
      int[] ends = sink.ends(b - a);
      long start = first;
      for (int i = a; i < b; i++) {
        long end = offset(buf, pos, i + 1);
        if (end < start || end > size) {
          throw new CorruptFileException(where + ": value " + i + " spans bytes " + start
              + ".." + end + " of a " + size + "-byte value buffer");
        }
        ends[i - a] = (int) (end - first);
        start = end;
      }
      int total = (int) (start - first);
      if (fsst.isEmpty()) {
        sink.putVariable(buf.array(), buf.arrayOffset() + pos + (int) first, ends, b - a, at);
        return;
      }
      FsstSymbols f = fsst.get();
      byte[] out = sink.scratch(f.maxDecoded(total) + FsstSymbols.SLACK);
      byte[] src = buf.array();
      int base = buf.arrayOffset() + pos + (int) first;
      int o = 0;
      int from = 0;
      for (int k = 0; k < b - a; k++) {
        o = f.decode(src, base + from, ends[k] - from, out, o, where);
        from = ends[k];
        ends[k] = o;
      }
      sink.putVariable(out, 0, ends, b - a, at);
    }
  }

  /**
   * A fixed-size list of {@code dimension} fixed-width items of {@code itemBits} bits (upstream
   * value.rs, the mini-block form of FixedSizeList over Flat): with {@code itemValidity}, the
   * chunk's first buffer holds the items' validity bits (LSB first, from the chunk's first item)
   * and the second the items; otherwise one buffer of items. A chunk never splits a row.
   */
  record FixedSizeList(int dimension, int itemBits, boolean itemValidity) implements ValueCoding {
    @Override
    public int buffers() {
      return itemValidity ? 2 : 1;
    }

    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes * 8 / ((long) dimension * itemBits);
    }

    @Override
    public String describe() {
      return "FixedSizeList(" + dimension + " x Flat(" + itemBits + ")"
          + (itemValidity ? ", item validity" : "") + ")";
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      int data = itemValidity ? 1 : 0;
      long rowBytes = (long) dimension * itemBits / 8;
      if (b.size[data] < rowBytes * n) {
        throw new CorruptFileException(where + ": " + n + " lists of " + dimension + " "
            + itemBits + "-bit items need " + rowBytes * n + " bytes, the buffer has "
            + b.size[data]);
      }
      if (itemValidity && b.size[0] < ((long) n * dimension + 7) / 8) {
        throw new CorruptFileException(where + ": the item validity of " + n + " lists of "
            + dimension + " needs " + ((long) n * dimension + 7) / 8 + " bytes, the buffer has "
            + b.size[0]);
      }
      int out = at;
      for (int j = 0; j < m; j++) {
        int rows = bs[j] - as[j];
        sink.putRaw(b.buf[data], b.pos[data] + (int) (as[j] * rowBytes), rows, out);
        sink.setItemValidity(b.buf[0], itemValidity ? b.pos[0] : -1, (long) as[j] * dimension,
            rows, out);
        out += rows;
      }
    }
  }

  /**
   * A packed struct (upstream packed.rs, PackedStruct over Flat): each row the children's
   * little-endian values back to back, {@code rowBits} bits in all.
   */
  record PackedStruct(int rowBits) implements ValueCoding {
    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes * 8 / rowBits;
    }

    @Override
    public String describe() {
      return "PackedStruct(" + rowBits + ")";
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      int rowBytes = rowBits / 8;
      if (b.size[0] < (long) rowBytes * n) {
        throw new CorruptFileException(where + ": " + n + " packed rows of " + rowBytes
            + " bytes need " + (long) rowBytes * n + " bytes, the buffer has " + b.size[0]);
      }
      int out = at;
      for (int j = 0; j < m; j++) {
        int rows = bs[j] - as[j];
        sink.putRaw(b.buf[0], b.pos[0] + as[j] * rowBytes, rows, out);
        sink.setItemValidity(null, -1, 0, rows, out);
        out += rows;
      }
    }
  }

  /**
   * Runs (upstream rle.rs, the mini-block RLE): buffer 0 holds the run values (a flat coding of
   * {@code values}), buffer 1 one u8 length per run; the runs cover the chunk's values.
   */
  record Rle(ValueCoding values, int lengthBits) implements ValueCoding {
    @Override
    public int buffers() {
      return 2;
    }

    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes * ((1L << lengthBits) - 1);
    }

    @Override
    public String describe() {
      return "Rle(" + values.describe() + ", lengths " + lengthBits + ")";
    }

    @Override
    public boolean integers() {
      return true;
    }

    @Override
    public void decodeLongs(ChunkBuffers b, int n, long[] out, Scratch s, String where)
        throws CorruptFileException {
      int lengthBytes = lengthBits / 8;
      int runs = b.size[1] / lengthBytes;
      int valueBytes = ((Flat) values).bits() / 8;
      if (b.size[0] < (long) runs * valueBytes) {
        throw new CorruptFileException(where + ": " + runs + " runs need " + runs * valueBytes
            + " bytes of values, the buffer has " + b.size[0]);
      }
      int o = 0;
      for (int r = 0; r < runs && o < n; r++) {
        long len = readWord(b.buf[1], b.pos[1] + r * lengthBytes, lengthBits);
        long v = readWord(b.buf[0], b.pos[0] + r * valueBytes, valueBytes * 8);
        int stop = (int) Math.min(n, o + len);
        java.util.Arrays.fill(out, o, stop, v);
        o = stop;
      }
      if (o < n) {
        throw new CorruptFileException(where + ": the runs cover " + o + " of the chunk's " + n
            + " values");
      }
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      long[] all = s.longs(n);
      decodeLongs(b, n, all, s, where);
      int out = at;
      for (int j = 0; j < m; j++) {
        sink.putValues(all, as[j], bs[j] - as[j], out);
        out += bs[j] - as[j];
      }
    }
  }

  /**
   * Indices (coded by {@code indices}) into the page's dictionary; a null row's index is not
   * looked up.
   */
  record Dictionary(ValueCoding indices, DictionaryValues.Source dictionary)
      implements ValueCoding {
    @Override
    public int buffers() {
      return indices.buffers();
    }

    @Override
    public long maxValues(long chunkBytes) {
      return indices.maxValues(chunkBytes);
    }

    @Override
    public String describe() {
      return "Dictionary(" + indices.describe() + ")";
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      long[] idx = s.longs(n);
      indices.decodeLongs(b, n, idx, s, where);
      dictionary.get().gather(idx, as, bs, m, defs, sink, at, where);
    }
  }

  /**
   * General compression of the chunk's first value buffer (upstream general.rs,
   * GeneralMiniBlockDecompressor): decompressed, then decoded by {@code inner}.
   */
  record General(GeneralCodec codec, ValueCoding inner) implements ValueCoding {
    /** A chunk's buffers are at most 64 KiB before compression (u16 sizes). */
    private static final long MAX_CHUNK_BUFFER = 1 << 16;

    @Override
    public int buffers() {
      return inner.buffers();
    }

    @Override
    public long maxValues(long chunkBytes) {
      return inner.maxValues(MAX_CHUNK_BUFFER * buffers());
    }

    @Override
    public String describe() {
      return "General(" + codec.scheme() + ", " + inner.describe() + ")";
    }

    @Override
    public boolean integers() {
      return inner.integers();
    }

    private ChunkBuffers expand(ChunkBuffers b, Scratch s, String where)
        throws CorruptFileException {
      ByteBuffer plain = codec.decompress(b.buf[0], b.pos[0], b.size[0], MAX_CHUNK_BUFFER, s,
          where);
      ChunkBuffers c = b.copyTo(s.inner);
      c.set(0, plain, 0, plain.limit());
      return c;
    }

    @Override
    public void decode(ChunkBuffers b, int n, int[] as, int[] bs, int m, int[] defs,
        VectorSink sink, int at, Scratch s, String where) throws CorruptFileException {
      inner.decode(expand(b, s, where), n, as, bs, m, defs, sink, at, s, where);
    }

    @Override
    public void decodeLongs(ChunkBuffers b, int n, long[] out, Scratch s, String where)
        throws CorruptFileException {
      inner.decodeLongs(expand(b, s, where), n, out, s, where);
    }
  }

  /** The unsigned {@code bits}-bit little-endian word at {@code pos}. */
  static long readWord(ByteBuffer buf, int pos, int bits) {
    return switch (bits) {
      case 8 -> Byte.toUnsignedLong(buf.get(pos));
      case 16 -> Short.toUnsignedLong(buf.getShort(pos));
      case 32 -> Integer.toUnsignedLong(buf.getInt(pos));
      default -> buf.getLong(pos);
    };
  }
}
