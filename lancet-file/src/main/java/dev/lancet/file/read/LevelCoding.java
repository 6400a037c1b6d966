package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;

import java.nio.ByteBuffer;

/** How a mini-block chunk's definition buffer holds its u16 levels. */
sealed interface LevelCoding {
  /** No definition levels: every value is valid. */
  LevelCoding NONE = new None();

  /** Decodes {@code n} levels from the {@code size} bytes at {@code pos} into {@code out}. */
  void decode(ByteBuffer buf, int pos, int size, int n, int[] out, long[] packed,
      long[] unpacked, String where) throws CorruptFileException;

  record None() implements LevelCoding {
    @Override
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] out, long[] packed,
        long[] unpacked, String where) {
      java.util.Arrays.fill(out, 0, n, 0);
    }
  }

  /** Raw u16 levels (a Flat of 16 bits). */
  record Raw() implements LevelCoding {
    @Override
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] out, long[] packed,
        long[] unpacked, String where) throws CorruptFileException {
      if (size < 2L * n) {
        throw new CorruptFileException(where + ": " + n + " raw levels need " + 2L * n
            + " bytes, the definition buffer has " + size);
      }
      for (int i = 0; i < n; i++) {
        out[i] = Short.toUnsignedInt(buf.getShort(pos + 2 * i));
      }
    }
  }

  /**
   * Out-of-line bit-packing of u16 levels at {@code width} bits (upstream bitpacking.rs,
   * OutOfLineBitpacking): whole blocks of 1024 levels packed ({@link FastLanes}), then the
   * tail either packed as a zero-padded block or kept as raw u16 levels, which the buffer's
   * length tells apart (raw exactly when it holds the whole blocks plus one word per tail level).
   */
  record Bitpacked(int width) implements LevelCoding {
    @Override
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] out, long[] packed,
        long[] unpacked, String where) throws CorruptFileException {
      if (size % 2 != 0) {
        throw new CorruptFileException(where + ": the definition buffer is " + size
            + " bytes, not a whole number of u16 words");
      }
      int wordsPerBlock = FastLanes.packedWords(16, width);
      int whole = n / FastLanes.BLOCK;
      int tail = n % FastLanes.BLOCK;
      long words = size / 2;
      long wholeWords = (long) whole * wordsPerBlock;
      boolean rawTail = tail > 0 && words == wholeWords + tail;
      long need = wholeWords + (tail == 0 ? 0 : rawTail ? tail : wordsPerBlock);
      if (words < need) {
        throw new CorruptFileException(where + ": " + n + " levels packed at " + width
            + " bits need " + 2 * need + " bytes, the definition buffer has " + size);
      }
      int p = pos;
      int o = 0;
      int blocks = whole + (tail > 0 && !rawTail ? 1 : 0);
      for (int blk = 0; blk < blocks; blk++, p += 2 * wordsPerBlock) {
        FastLanes.unpack(buf, p, 16, width, packed, unpacked);
        int take = Math.min(FastLanes.BLOCK, n - o);
        for (int i = 0; i < take; i++) {
          out[o++] = (int) unpacked[i];
        }
      }
      for (; o < n; o++, p += 2) {
        out[o] = Short.toUnsignedInt(buf.getShort(p));
      }
    }
  }

  /**
   * Inline bit-packing of up to 1024 u16 levels (upstream bitpacking.rs, InlineBitpacking as a
   * block compressor): one u16 word holding the bit width, then the zero-padded 1024-level
   * block packed at that width.
   */
  record InlineBitpacked() implements LevelCoding {
    @Override
    public void decode(ByteBuffer buf, int pos, int size, int n, int[] out, long[] packed,
        long[] unpacked, String where) throws CorruptFileException {
      if (n > FastLanes.BLOCK) {
        throw new CorruptFileException(where + ": " + n + " inline bit-packed levels (at most "
            + FastLanes.BLOCK + ")");
      }
      if (size < 2) {
        throw new CorruptFileException(where + ": the definition buffer has no room for its "
            + "bit width");
      }
      int width = Short.toUnsignedInt(buf.getShort(pos));
      if (width > 16) {
        throw new CorruptFileException(where + ": definition levels packed at " + width
            + " bits (u16 levels)");
      }
      int words = FastLanes.packedWords(16, width);
      if (size != 2 * (1 + words)) {
        throw new CorruptFileException(where + ": levels packed at " + width + " bits take "
            + 2 * (1 + words) + " bytes, the definition buffer has " + size);
      }
      FastLanes.unpack(buf, pos + 2, 16, width, packed, unpacked);
      for (int i = 0; i < n; i++) {
        out[i] = (int) unpacked[i];
      }
    }
  }
}
