package dev.lancet.format.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import dev.lancet.format.rowids.EncodedU64Array.Width;
import dev.lancet.format.rowids.U64Segment.Range;
import dev.lancet.format.rowids.U64Segment.RangeWithBitmap;
import dev.lancet.format.rowids.U64Segment.RangeWithHoles;
import dev.lancet.format.rowids.U64Segment.SortedArray;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class U64SegmentTest {

  static Stream<U64Segment> everyKindAndWidth() {
    Stream<U64Segment> ranges =
        Stream.of(
            new Range(0, 0),
            new Range(5, 10),
            new RangeWithHoles(10, 20, EncodedU64Array.of(12, 15)),
            new RangeWithHoles(0, 1L << 40, EncodedU64Array.withWidth(Width.U64, 5, 1L << 35)),
            new RangeWithBitmap(100, 110, LsbBitmap.ofPositions(10, 0, 2, 9)));
    Stream<U64Segment> arrays =
        Stream.of(Width.values())
            .flatMap(
                w ->
                    Stream.of(
                        new SortedArray(EncodedU64Array.withWidth(w, 7, 8, 300)),
                        new U64Segment.Array(EncodedU64Array.withWidth(w, 300, 7, 8))));
    return Stream.concat(ranges, arrays);
  }

  @ParameterizedTest
  @MethodSource("everyKindAndWidth")
  void roundTripsThroughProtoBytes(U64Segment segment) throws Exception {
    byte[] bytes = segment.toProto().toByteArray();
    U64Segment back = U64Segment.fromProto(RowIdProtos.U64Segment.parseFrom(bytes), "s");
    assertThat(back).isEqualTo(segment);
    assertThat(back.toProto().toByteArray()).isEqualTo(bytes);
  }

  @ParameterizedTest
  @MethodSource("everyKindAndWidth")
  void getContainsAndIterationAgree(U64Segment segment) {
    if (segment.length() > 10_000) {
      return; // the 2^40 range is checked arithmetically below
    }
    long[] values = segment.stream().toArray();
    assertThat(values).hasSize((int) segment.length());
    for (int i = 0; i < values.length; i++) {
      assertThat(segment.get(i)).isEqualTo(values[i]);
      assertThat(segment.contains(values[i])).isTrue();
    }
    assertThatThrownBy(() -> segment.get(values.length)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(segment.contains(6)).isEqualTo(LongStream.of(values).anyMatch(v -> v == 6));
  }

  @Test
  void lsbFirstBitmapFromHandBuiltBytes() {
    // 10 values from 100: byte 0 = 0b0000_0101 (bits 0 and 2), byte 1 = 0b0000_0010 (bit 9).
    // LSB-first gives 100, 102, 109; MSB-first would give 105, 107, 114.
    RowIdProtos.U64Segment pb =
        RowIdProtos.U64Segment.newBuilder()
            .setRangeWithBitmap(
                RowIdProtos.U64Segment.RangeWithBitmap.newBuilder()
                    .setStart(100)
                    .setEnd(110)
                    .setBitmap(ByteString.copyFrom(new byte[] {0b0000_0101, 0b0000_0010})))
            .build();
    U64Segment segment = U64Segment.fromProto(pb, "s");
    assertThat(segment.stream().toArray()).containsExactly(100, 102, 109);
    assertThat(segment.length()).isEqualTo(3);
    // And building from those values produces the same bytes.
    U64Segment built = U64Segment.fromValues(100, 102, 109);
    assertThat(built).isInstanceOf(RangeWithBitmap.class);
    assertThat(built.toProto()).isEqualTo(pb);
  }

  @Test
  void hugeRangesAreArithmetic() {
    Range range = new Range(1L << 40, 1L << 41);
    assertThat(range.length()).isEqualTo(1L << 40);
    assertThat(range.get((1L << 40) - 1)).isEqualTo((1L << 41) - 1);
    assertThat(range.contains(1L << 41)).isFalse();
    assertThat(range.slice(5, 3)).isEqualTo(new Range((1L << 40) + 5, (1L << 40) + 8));

    RangeWithHoles holes = new RangeWithHoles(0, 1L << 40, EncodedU64Array.of(5, 1L << 35));
    assertThat(holes.length()).isEqualTo((1L << 40) - 2);
    assertThat(holes.get(4)).isEqualTo(4);
    assertThat(holes.get(5)).isEqualTo(6);
    // Positions 5 .. 2^35-2 hold ids 6 .. 2^35-1; the next position skips the hole at 2^35.
    assertThat(holes.get((1L << 35) - 2)).isEqualTo((1L << 35) - 1);
    assertThat(holes.get((1L << 35) - 1)).isEqualTo((1L << 35) + 1);
    assertThat(holes.get((1L << 40) - 3)).isEqualTo((1L << 40) - 1);
    assertThat(holes.contains(5)).isFalse();
    assertThat(holes.contains(6)).isTrue();
  }

  @Test
  void slicesStayCompact() {
    RangeWithHoles holes = new RangeWithHoles(10, 20, EncodedU64Array.of(12, 15));
    // values: 10 11 13 14 16 17 18 19
    assertThat(holes.slice(1, 4)).isEqualTo(new RangeWithHoles(11, 17, EncodedU64Array.of(12, 15)));
    assertThat(holes.slice(3, 3)).isEqualTo(new RangeWithHoles(14, 18, EncodedU64Array.of(15)));
    assertThat(holes.slice(4, 4)).isEqualTo(new Range(16, 20));

    RangeWithBitmap bitmap = new RangeWithBitmap(100, 110, LsbBitmap.ofPositions(10, 0, 1, 2, 5, 9));
    assertThat(bitmap.slice(0, 3)).isEqualTo(new Range(100, 103));
    assertThat(bitmap.slice(2, 2)).isEqualTo(new RangeWithBitmap(102, 106, LsbBitmap.ofPositions(4, 0, 3)));

    SortedArray sorted = new SortedArray(EncodedU64Array.of(1, 1L << 40, (1L << 40) + 1));
    assertThat(sorted.slice(1, 2)).isEqualTo(new SortedArray(EncodedU64Array.of(1L << 40, (1L << 40) + 1)));
    assertThat(((SortedArray) sorted.slice(1, 2)).values().width()).isEqualTo(Width.U16);
  }

  @Test
  void fromValuesPicksTheCompactShape() {
    assertThat(U64Segment.fromValues()).isEqualTo(new Range(0, 0));
    assertThat(U64Segment.fromValues(7, 8, 9)).isEqualTo(new Range(7, 10));
    long[] fewHoles = LongStream.range(0, 1000).filter(v -> v != 10 && v != 500).toArray();
    assertThat(U64Segment.fromValues(fewHoles)).isEqualTo(new RangeWithHoles(0, 1000, EncodedU64Array.of(10, 500)));
    long[] everyOther = LongStream.range(0, 1000).map(v -> 2 * v).toArray();
    assertThat(U64Segment.fromValues(everyOther)).isInstanceOf(RangeWithBitmap.class);
    assertThat(U64Segment.fromValues(0, 1000, 1L << 50))
        .isEqualTo(new SortedArray(EncodedU64Array.of(0, 1000, 1L << 50)));
    assertThat(U64Segment.fromValues(3, 1, 2)).isEqualTo(new U64Segment.Array(EncodedU64Array.of(3, 1, 2)));
    // Repeats are not ascending, so they need an Array.
    assertThat(U64Segment.fromValues(4, 4)).isInstanceOf(U64Segment.Array.class);
    // A run ending at 2^64-1 cannot be a Range (its end would not fit).
    assertThat(U64Segment.fromValues(-2L, -1L)).isInstanceOf(SortedArray.class);
  }

  // ---------------------------------------------------------------- corrupt segments

  @Test
  void rejectsEndBelowStart() {
    assertRejected(range(10, 9), "below start");
    assertRejected(range(0, -1L), "exceeds 2^63-1");
  }

  @Test
  void rejectsBadHoles() {
    assertRejected(holes(10, 20, EncodedU64Array.of(15, 12)), "not strictly ascending");
    assertRejected(holes(10, 20, EncodedU64Array.of(12, 12)), "not strictly ascending");
    assertRejected(holes(10, 20, EncodedU64Array.of(20)), "outside the range");
    assertRejected(holes(10, 20, EncodedU64Array.of(9)), "outside the range");
    RowIdProtos.U64Segment noHoles =
        RowIdProtos.U64Segment.newBuilder()
            .setRangeWithHoles(RowIdProtos.U64Segment.RangeWithHoles.newBuilder().setStart(1).setEnd(2))
            .build();
    assertRejected(noHoles, "no holes array");
  }

  @Test
  void rejectsBadBitmaps() {
    assertRejected(bitmap(100, 110, new byte[] {1}), "needs 2 bytes");
    assertRejected(bitmap(100, 110, new byte[] {1, 0, 0}), "needs 2 bytes");
    assertRejected(bitmap(100, 110, new byte[] {1, 0b0000_0100}), "past its length");
    // A huge range with a tiny bitmap must not allocate the range.
    assertRejected(bitmap(0, 1L << 62, new byte[] {1}), "needs");
  }

  @Test
  void rejectsUnsortedSortedArrayAndMissingVariant() {
    RowIdProtos.U64Segment pb =
        RowIdProtos.U64Segment.newBuilder().setSortedArray(EncodedU64Array.of(5, 3).toProto()).build();
    assertRejected(pb, "not strictly ascending");
    assertRejected(RowIdProtos.U64Segment.getDefaultInstance(), "no known variant");
  }

  private static RowIdProtos.U64Segment range(long start, long end) {
    return RowIdProtos.U64Segment.newBuilder()
        .setRange(RowIdProtos.U64Segment.Range.newBuilder().setStart(start).setEnd(end))
        .build();
  }

  private static RowIdProtos.U64Segment holes(long start, long end, EncodedU64Array holes) {
    return RowIdProtos.U64Segment.newBuilder()
        .setRangeWithHoles(
            RowIdProtos.U64Segment.RangeWithHoles.newBuilder().setStart(start).setEnd(end).setHoles(holes.toProto()))
        .build();
  }

  private static RowIdProtos.U64Segment bitmap(long start, long end, byte[] bits) {
    return RowIdProtos.U64Segment.newBuilder()
        .setRangeWithBitmap(
            RowIdProtos.U64Segment.RangeWithBitmap.newBuilder()
                .setStart(start)
                .setEnd(end)
                .setBitmap(ByteString.copyFrom(bits)))
        .build();
  }

  private static void assertRejected(RowIdProtos.U64Segment pb, String defect) {
    assertThatThrownBy(() -> U64Segment.fromProto(pb, "fragment 3 row ids"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("fragment 3 row ids: ")
        .hasMessageContaining(defect);
  }

  @Test
  void recordsAreImmutableValues() {
    byte[] bits = {0b101};
    LsbBitmap bitmap = LsbBitmap.of(bits, 3);
    bits[0] = 0;
    assertThat(bitmap.get(0)).isTrue();
    bitmap.toByteArray()[0] = 0;
    assertThat(bitmap.get(2)).isTrue();
    assertThat(List.of(new Range(1, 2))).containsExactly(new Range(1, 2));
  }
}
