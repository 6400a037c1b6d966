package dev.lancet.file.write;

/**
 * Packs blocks of 1024 unsigned values into the FastLanes transposed bit-packed layout that
 * Lance's bit-packing uses (the writer's side of {@code dev.lancet.file.read.FastLanes}; see
 * decision 0033): for a word type of {@code T} bits there are {@code 1024 / T} lanes; lane
 * {@code l} packs, one after another at {@code W} bits each, the values of rows
 * {@code 0..T-1}, row {@code r} being value {@code ORDER[r / 8] * 16 + (r % 8) * 128 + l} of
 * the block; bit-stream word {@code k} of lane {@code l} is output word {@code k * lanes + l}.
 */
final class FastLanesPacker {
  static final int BLOCK = 1024;
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  private FastLanesPacker() {}

  /** Words of {@code wordBits} bits that one block packed at {@code width} bits takes. */
  static int packedWords(int wordBits, int width) {
    return BLOCK * width / wordBits;
  }

  /**
   * Packs the 1024 values of {@code in} (unsigned, each below {@code 2^width}) at
   * {@code width} bits into {@code out} (at least {@link #packedWords} words, cleared here).
   */
  static void pack(long[] in, int wordBits, int width, long[] out) {
    int words = packedWords(wordBits, width);
    java.util.Arrays.fill(out, 0, words, 0L);
    if (width == 0) {
      return;
    }
    int lanes = BLOCK / wordBits;
    long wordMask = wordBits == 64 ? -1L : (1L << wordBits) - 1;
    for (int row = 0; row < wordBits; row++) {
      int bit = row * width;
      int word = bit / wordBits;
      int shift = bit % wordBits;
      int spill = wordBits - shift;
      int base = ORDER[row >>> 3] * 16 + (row & 7) * 128;
      int first = word * lanes;
      for (int lane = 0; lane < lanes; lane++) {
        long v = in[base + lane];
        out[first + lane] = (out[first + lane] | (v << shift)) & wordMask;
        if (spill < width) {
          out[first + lanes + lane] |= v >>> spill;
        }
      }
    }
  }

  /** Appends {@code words} packed words of {@code wordBits} bits to {@code out}. */
  static void write(long[] packed, int words, int wordBits, Bytes out) {
    int bytes = wordBits / 8;
    out.reserve(words * bytes);
    for (int i = 0; i < words; i++) {
      out.word(packed[i], bytes);
    }
  }
}
