package dev.lancet.file.read;

/**
 * Unpacking of the FastLanes bit-packed layout Lance uses for blocks of 1024 values (upstream
 * {@code rust/compression/bitpacking/src/lib.rs}, after the fastlanes crate): for a word type
 * of {@code T} bits there are {@code 1024 / T} lanes; lane {@code l} holds, one after another
 * in its bit stream, the values of rows {@code 0..T-1}, each {@code W} bits wide, and bit
 * stream word {@code k} of lane {@code l} is packed word {@code k * lanes + l}. Row {@code r} of
 * lane {@code l} is value {@code ORDER[r / 8] * 16 + (r % 8) * 128 + l} of the block.
 */
final class FastLanes {
  static final int BLOCK = 1024;
  /** The transposition order of the eight 16-value groups (fastlanes' FL_ORDER). */
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  private FastLanes() {}

  /**
   * Unpacks one block: {@code packed} holds {@code 1024 * width / wordBits} words (each the
   * unsigned value of a {@code wordBits}-bit word); the 1024 values go to {@code out} as
   * unsigned {@code wordBits}-bit values.
   */
  static void unpack(long[] packed, int wordBits, int width, long[] out) {
    if (width == 0) {
      java.util.Arrays.fill(out, 0, BLOCK, 0L);
      return;
    }
    int lanes = BLOCK / wordBits;
    long mask = width == 64 ? -1L : (1L << width) - 1;
    for (int row = 0; row < wordBits; row++) {
      int bit = row * width;
      int word = bit / wordBits;
      int shift = bit % wordBits;
      int spill = wordBits - shift;
      int base = ORDER[row >>> 3] * 16 + (row & 7) * 128;
      int first = word * lanes;
      if (spill >= width) {
        for (int lane = 0; lane < lanes; lane++) {
          out[base + lane] = (packed[first + lane] >>> shift) & mask;
        }
      } else {
        int next = first + lanes;
        for (int lane = 0; lane < lanes; lane++) {
          out[base + lane] =
              ((packed[first + lane] >>> shift) | (packed[next + lane] << spill)) & mask;
        }
      }
    }
  }

  /**
   * Reads one block packed at {@code width} bits from {@code buf} at {@code pos} (little-endian
   * words of {@code wordBits} bits; the caller has checked they are there) into {@code packed}
   * and unpacks it into {@code out}.
   */
  static void unpack(java.nio.ByteBuffer buf, int pos, int wordBits, int width, long[] packed,
      long[] out) {
    int words = packedWords(wordBits, width);
    // One loop per word size (a switch per word was a third of the unpacking).
    switch (wordBits) {
      case 8 -> {
        for (int i = 0; i < words; i++) {
          packed[i] = Byte.toUnsignedLong(buf.get(pos + i));
        }
      }
      case 16 -> {
        for (int i = 0; i < words; i++) {
          packed[i] = Short.toUnsignedLong(buf.getShort(pos + 2 * i));
        }
      }
      case 32 -> {
        for (int i = 0; i < words; i++) {
          packed[i] = Integer.toUnsignedLong(buf.getInt(pos + 4 * i));
        }
      }
      default -> {
        for (int i = 0; i < words; i++) {
          packed[i] = buf.getLong(pos + 8 * i);
        }
      }
    }
    unpack(packed, wordBits, width, out);
  }

  /** Words of {@code wordBits} bits one block packed at {@code width} bits takes. */
  static int packedWords(int wordBits, int width) {
    return BLOCK * width / wordBits;
  }
}
