package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;

import java.nio.ByteBuffer;

/** How a mini-block chunk's value buffer holds its values. */
sealed interface ValueCoding {
  /**
   * Decodes the parts {@code [as[j], bs[j])}, {@code j < m}, ascending, of a chunk of {@code n}
   * values whose value buffer is the {@code size} bytes at {@code pos} of {@code buf}, one after
   * another from batch row {@code at}.
   */
  void decode(ByteBuffer buf, int pos, int size, int n, int[] as, int[] bs, int m,
      VectorSink sink, int at, long[] packed, long[] unpacked, String where)
      throws CorruptFileException;

  /** The most values a chunk of {@code chunkBytes} bytes can hold in this coding. */
  long maxValues(long chunkBytes);

  /** Raw little-endian values of {@code bits} bits (1: LSB-first bit-packed bools). */
  record Flat(int bits) implements ValueCoding {
    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes * 8 / bits;
    }

    @Override
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] as, int[] bs, int m,
        VectorSink sink, int at, long[] packed, long[] unpacked, String where)
        throws CorruptFileException {
      long need = ((long) n * bits + 7) / 8;
      if (size < need) {
        throw new CorruptFileException(where + ": " + n + " flat " + bits + "-bit values need "
            + need + " bytes, the value buffer has " + size);
      }
      int out = at;
      for (int j = 0; j < m; j++) {
        if (bits == 1) {
          sink.putBits(buf, pos, as[j], bs[j] - as[j], out);
        } else {
          sink.putRaw(buf, pos + as[j] * (bits / 8), bs[j] - as[j], out);
        }
        out += bs[j] - as[j];
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
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] as, int[] bs, int m,
        VectorSink sink, int at, long[] packed, long[] unpacked, String where)
        throws CorruptFileException {
      int wordBytes = wordBits / 8;
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
      // Unpacked once for every part of the chunk.
      FastLanes.unpack(buf, pos + wordBytes, wordBits, (int) width, packed, unpacked);
      int out = at;
      for (int j = 0; j < m; j++) {
        sink.putValues(unpacked, as[j], bs[j] - as[j], out);
        out += bs[j] - as[j];
      }
    }
  }

  /**
   * Variable-width values (upstream {@code rust/lance-encoding/src/encodings/physical/binary.rs},
   * BinaryMiniBlockEncoder): the value buffer is n + 1 u32 offsets, counted from the buffer's
   * start (the first is the offsets' own size, 4 * (n + 1)), then the values' bytes back to back.
   * With {@code fsst}, each value's bytes are FSST-compressed (Fsst over Variable).
   */
  record Variable(java.util.Optional<FsstSymbols> fsst) implements ValueCoding {
    @Override
    public long maxValues(long chunkBytes) {
      return chunkBytes / 4 - 1;
    }

    @Override
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] as, int[] bs, int m,
        VectorSink sink, int at, long[] packed, long[] unpacked, String where)
        throws CorruptFileException {
      long offsetBytes = 4L * (n + 1);
      if (size < offsetBytes || Integer.toUnsignedLong(buf.getInt(pos)) != offsetBytes) {
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
      long first = Integer.toUnsignedLong(buf.getInt(pos + 4 * a));
      if (first < offsetBytes) {
        throw new CorruptFileException(where + ": value " + a + " starts at byte " + first
            + ", inside the offsets");
      }
      // The values' ends, from the first value's start: checked, then the lot copied at once.
      int[] ends = sink.ends(b - a);
      long start = first;
      for (int i = a; i < b; i++) {
        long end = Integer.toUnsignedLong(buf.getInt(pos + 4 * (i + 1)));
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
