package dev.lancet.format.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import dev.lancet.format.rowids.U64Segment.Range;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RowIdSequenceTest {
  private static final String WHERE = "fragment 3 row ids";

  private static final RowIdSequence MIXED =
      RowIdSequence.of(
          new Range(0, 5),
          new Range(7, 7), // empty segments are legal and skipped by position lookups
          new U64Segment.RangeWithHoles(10, 20, EncodedU64Array.of(12, 15)),
          new U64Segment.SortedArray(EncodedU64Array.of(100, 200)),
          new U64Segment.Array(EncodedU64Array.of(50, 40)));

  private static final long[] MIXED_IDS = {0, 1, 2, 3, 4, 10, 11, 13, 14, 16, 17, 18, 19, 100, 200, 50, 40};

  @Test
  void iteratesAndIndexesAcrossSegments() {
    assertThat(MIXED.length()).isEqualTo(MIXED_IDS.length);
    assertThat(MIXED.toArray()).containsExactly(MIXED_IDS);
    assertThat(MIXED.stream().toArray()).containsExactly(MIXED_IDS);
    for (int i = 0; i < MIXED_IDS.length; i++) {
      assertThat(MIXED.get(i)).as("position %d", i).isEqualTo(MIXED_IDS[i]);
    }
    assertThatThrownBy(() -> MIXED.get(MIXED_IDS.length)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> MIXED.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(MIXED.contains(40)).isTrue();
    assertThat(MIXED.contains(12)).isFalse();
  }

  @Test
  void encodesAndDecodes() {
    byte[] bytes = MIXED.encode();
    assertThat(RowIdSequence.decode(bytes, WHERE)).isEqualTo(MIXED);
    assertThat(RowIdSequence.decode(new byte[0], WHERE)).isEqualTo(RowIdSequence.empty());
  }

  @Test
  void newFragmentRangeIsOneRangeSegment() {
    RowIdSequence seq = RowIdSequence.ofRange(1000, 50);
    assertThat(seq.segments()).containsExactly(new Range(1000, 1050));
    RowIdProtos.RowIdSequence pb = seq.toProto();
    assertThat(pb.getSegments(0).getRange().getStart()).isEqualTo(1000);
    assertThat(pb.getSegments(0).getRange().getEnd()).isEqualTo(1050);
  }

  @Test
  void lengthIsArithmetic() {
    RowIdSequence big = RowIdSequence.ofRange(1L << 40, RowIdSequence.MAX_LENGTH);
    assertThat(big.length()).isEqualTo(1L << 32);
    assertThat(big.get((1L << 32) - 1)).isEqualTo((1L << 40) + (1L << 32) - 1);
    assertThat(RowIdSequence.decode(big.encode(), WHERE)).isEqualTo(big);
    assertThatThrownBy(big::toArray).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void rejectsMoreIdsThanAFragmentCanHave() {
    byte[] tooLong = RowIdSequence.ofRange(0, RowIdSequence.MAX_LENGTH + 1).encode();
    assertRejected(tooLong, "more than 2^32");
    byte[] tooLongInTotal = RowIdSequence.ofRange(0, 1L << 31).concat(RowIdSequence.ofRange(1L << 40, (1L << 31) + 1)).encode();
    assertRejected(tooLongInTotal, "more than 2^32");
  }

  @Test
  void concatMergesTouchingRanges() {
    RowIdSequence a = RowIdSequence.ofRange(0, 10);
    assertThat(a.concat(RowIdSequence.ofRange(10, 5)).segments()).containsExactly(new Range(0, 15));
    assertThat(a.concat(RowIdSequence.ofRange(11, 5)).segments()).containsExactly(new Range(0, 10), new Range(11, 16));
    assertThat(a.concat(RowIdSequence.empty())).isEqualTo(a);
    assertThat(RowIdSequence.empty().concat(a)).isEqualTo(a);
    RowIdSequence joined = MIXED.concat(MIXED);
    assertThat(joined.length()).isEqualTo(2L * MIXED_IDS.length);
    assertThat(joined.get(MIXED_IDS.length)).isEqualTo(0);
  }

  @Test
  void slicesAcrossSegments() {
    for (int from = 0; from <= MIXED_IDS.length; from++) {
      for (int to = from; to <= MIXED_IDS.length; to++) {
        assertThat(MIXED.slice(from, to - from).toArray())
            .as("slice [%d, %d)", from, to)
            .containsExactly(Arrays.copyOfRange(MIXED_IDS, from, to));
      }
    }
    assertThatThrownBy(() -> MIXED.slice(10, 100)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void fromIdsChoosesACompactSegment() {
    assertThat(RowIdSequence.fromIds(LongStream.range(5, 100).toArray()).segments()).containsExactly(new Range(5, 100));
    assertThat(RowIdSequence.fromIds().isEmpty()).isTrue();
    long[] shuffled = {9, 3, 7};
    assertThat(RowIdSequence.fromIds(shuffled).toArray()).containsExactly(shuffled);
  }

  @Test
  void reportsCorruptBytesWithWhere() {
    byte[] valid = MIXED.encode();
    assertRejected(Arrays.copyOf(valid, valid.length - 1), "not a valid RowIdSequence message");
    assertRejected(new byte[] {(byte) 0x0A, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, "not a valid RowIdSequence");
    // Second segment has end < start.
    byte[] badSegment =
        RowIdProtos.RowIdSequence.newBuilder()
            .addSegments(new Range(0, 3).toProto())
            .addSegments(RowIdProtos.U64Segment.newBuilder().setRange(RowIdProtos.U64Segment.Range.newBuilder().setStart(9).setEnd(4)))
            .build()
            .toByteArray();
    assertThatThrownBy(() -> RowIdSequence.decode(badSegment, WHERE))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(WHERE + ": segment 1: ")
        .hasMessageContaining("below start");
  }

  private static void assertRejected(byte[] bytes, String defect) {
    assertThatThrownBy(() -> RowIdSequence.decode(bytes, WHERE))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(WHERE + ": ")
        .hasMessageContaining(defect);
  }
}
