package dev.lancet.file.read;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** {@link FastLanes#unpack} against a bit-by-bit packer written from the layout's definition. */
class FastLanesProperties {
  private static final int[] ORDER = {0, 4, 2, 6, 1, 5, 3, 7};

  record Case(int wordBits, int width, long[] values) {}

  @Provide
  Arbitrary<Case> blocks() {
    Arbitrary<Integer> wordBits = Arbitraries.of(8, 16, 32, 64);
    return wordBits.flatMap(t -> Arbitraries.integers().between(0, t).flatMap(w ->
        Combinators.combine(Arbitraries.longs().array(long[].class).ofSize(FastLanes.BLOCK),
            Arbitraries.of(true, false)).as((raw, extremes) -> {
              long mask = w == 64 ? -1L : (1L << w) - 1;
              long[] v = new long[FastLanes.BLOCK];
              for (int i = 0; i < v.length; i++) {
                v[i] = (extremes && i % 3 == 0 ? -1L : raw[i]) & mask;
              }
              return new Case(t, w, v);
            })));
  }

  @Property(tries = 300)
  void unpackInvertsTheLayout(@ForAll("blocks") Case c) {
    long[] packed = pack(c.values(), c.wordBits(), c.width());
    assertThat(packed).hasSize(FastLanes.packedWords(c.wordBits(), c.width()));
    long[] out = new long[FastLanes.BLOCK];
    FastLanes.unpack(packed, c.wordBits(), c.width(), out);
    assertThat(out).containsExactly(c.values());
  }

  /** Value (row, lane) goes to bit row*width of lane's stream; stream word k is word k*lanes+lane. */
  private static long[] pack(long[] values, int t, int w) {
    int lanes = FastLanes.BLOCK / t;
    long[] words = new long[FastLanes.BLOCK * w / t];
    for (int lane = 0; lane < lanes; lane++) {
      for (int row = 0; row < t; row++) {
        long v = values[ORDER[row / 8] * 16 + (row % 8) * 128 + lane];
        for (int b = 0; b < w; b++) {
          if ((v >>> b & 1) != 0) {
            int bit = row * w + b;
            words[(bit / t) * lanes + lane] |= 1L << (bit % t);
          }
        }
      }
    }
    return words;
  }
}
