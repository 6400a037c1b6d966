package dev.lancet.format.rowids;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.FormatException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class RowIdProperties {

  // ---------------------------------------------------------------- round trips

  @Property(tries = 300)
  void sortedIdsRoundTrip(@ForAll("sortedIds") long[] ids) {
    assertRoundTrip(ids);
  }

  @Property(tries = 300)
  void unsortedIdsRoundTrip(@ForAll("unsortedIds") long[] ids) {
    assertRoundTrip(ids);
  }

  private static void assertRoundTrip(long[] ids) {
    RowIdSequence seq = RowIdSequence.fromIds(ids);
    Statistics.collect(seq.segments().isEmpty() ? "empty" : seq.segments().get(0).getClass().getSimpleName());
    RowIdSequence back = RowIdSequence.decode(seq.encode(), "p");
    assertThat(back).isEqualTo(seq);
    assertThat(back.length()).isEqualTo(ids.length);
    assertThat(back.toArray()).containsExactly(ids);
    for (int i = 0; i < ids.length; i += Math.max(1, ids.length / 50)) {
      assertThat(back.get(i)).isEqualTo(ids[i]);
      assertThat(back.contains(ids[i])).isTrue();
    }
  }

  @Provide
  Arbitrary<long[]> sortedIds() {
    // Mostly-contiguous, moderately dense and sparse ascending ids, sometimes far above 2^32.
    Arbitrary<Long> start = Arbitraries.oneOf(Arbitraries.longs().between(0, 1000), Arbitraries.longs().between(1L << 33, 1L << 50));
    Arbitrary<Integer> count = Arbitraries.integers().between(0, 3000);
    Arbitrary<Integer> maxGap = Arbitraries.of(1, 2, 3, 20, 70_000, Integer.MAX_VALUE);
    Arbitrary<Integer> skipOneIn = Arbitraries.of(0, 50, 1000);
    return Combinators.combine(start, count, maxGap, skipOneIn, Arbitraries.longs())
        .as(
            (s, n, gap, skip, seed) -> {
              java.util.Random random = new java.util.Random(seed);
              long[] out = new long[n];
              long v = s;
              for (int i = 0; i < n; i++) {
                out[i] = v;
                long step = 1 + (gap == 1 ? 0 : random.nextInt(gap));
                if (skip > 0 && random.nextInt(skip) == 0) {
                  step++;
                }
                v += step;
              }
              return out;
            });
  }

  @Provide
  Arbitrary<long[]> unsortedIds() {
    return Arbitraries.oneOf(
            Arbitraries.longs().between(0, 60_000),
            Arbitraries.longs().between(0, 1L << 31),
            Arbitraries.longs())
        .array(long[].class)
        .ofMaxSize(500);
  }

  @Property(tries = 200)
  void sliceMatchesSubarray(@ForAll("chunks") List<long[]> chunks, @ForAll long seed) {
    RowIdSequence seq = RowIdSequence.empty();
    for (long[] chunk : chunks) {
      seq = seq.concat(RowIdSequence.fromIds(chunk));
    }
    long[] all = chunks.stream().flatMapToLong(LongStream::of).toArray();
    assertThat(seq.toArray()).containsExactly(all);
    java.util.Random random = new java.util.Random(seed);
    int from = random.nextInt(all.length + 1);
    int to = from + random.nextInt(all.length - from + 1);
    RowIdSequence slice = seq.slice(from, to - from);
    assertThat(slice.toArray()).containsExactly(Arrays.copyOfRange(all, from, to));
    assertThat(RowIdSequence.decode(slice.encode(), "p").toArray()).containsExactly(Arrays.copyOfRange(all, from, to));
  }

  @Provide
  Arbitrary<List<long[]>> chunks() {
    return Arbitraries.oneOf(sortedIds(), unsortedIds()).map(a -> Arrays.copyOf(a, Math.min(a.length, 300))).list().ofMaxSize(5);
  }

  // ---------------------------------------------------------------- corrupt input

  private static final List<byte[]> VALID_SEQUENCES =
      List.of(
          RowIdSequence.ofRange(1000, 500).encode(),
          RowIdSequence.of(
                  new U64Segment.Range(0, 5),
                  new U64Segment.RangeWithHoles(10, 200, EncodedU64Array.of(12, 15, 199)),
                  new U64Segment.RangeWithBitmap(300, 340, LsbBitmap.ofPositions(40, 0, 7, 8, 39)),
                  new U64Segment.SortedArray(EncodedU64Array.withWidth(EncodedU64Array.Width.U32, 400, 90_000)),
                  new U64Segment.Array(EncodedU64Array.withWidth(EncodedU64Array.Width.U64, 9, 3, 1L << 45)))
              .encode(),
          RowVersionSequence.uniform(100, 3).encode());

  @Property(tries = 500)
  void corruptBytesDecodeOrFailCleanly(@ForAll("corrupt") byte[] bytes) {
    try {
      RowIdSequence seq = RowIdSequence.decode(bytes, "fragment 1 row ids");
      assertUsable(seq.length(), seq::get);
      if (seq.length() <= 100_000) {
        assertThat(seq.toArray()).hasSize((int) seq.length());
      }
      Statistics.collect("decoded");
    } catch (FormatException e) {
      assertThat(e.file()).isEqualTo("fragment 1 row ids");
      Statistics.collect("FormatException");
    }
    try {
      RowVersionSequence seq = RowVersionSequence.decode(bytes, "fragment 1 versions");
      assertUsable(seq.length(), seq::versionAt);
    } catch (FormatException e) {
      assertThat(e.file()).isEqualTo("fragment 1 versions");
    }
  }

  private static void assertUsable(long length, java.util.function.LongUnaryOperator get) {
    assertThat(length).isBetween(0L, RowIdSequence.MAX_LENGTH);
    if (length > 0) {
      get.applyAsLong(0);
      get.applyAsLong(length - 1);
      get.applyAsLong(length / 2);
    }
  }

  @Provide
  Arbitrary<byte[]> corrupt() {
    return Arbitraries.of(VALID_SEQUENCES)
        .flatMap(
            valid -> {
              Arbitrary<List<Integer>> positions =
                  Arbitraries.integers().between(0, valid.length - 1).list().ofMinSize(1).ofMaxSize(3);
              Arbitrary<Integer> mask = Arbitraries.integers().between(1, 255);
              Arbitrary<Integer> cut = Arbitraries.integers().between(0, valid.length).injectNull(0.5);
              return Combinators.combine(positions, mask, cut)
                  .as(
                      (at, xor, length) -> {
                        byte[] out = valid.clone();
                        for (int p : at) {
                          out[p] ^= xor.byteValue();
                        }
                        return length == null ? out : Arrays.copyOf(out, length);
                      });
            });
  }
}
