package dev.lancet.format.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import dev.lancet.format.rowids.RowVersionSequence.Run;
import dev.lancet.format.rowids.U64Segment.Range;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowVersionSequenceTest {
  private static final String WHERE = "fragment 4 created_at versions";

  @Test
  void uniformIsOneRunOverAllOffsets() {
    RowVersionSequence seq = RowVersionSequence.uniform(10, 7);
    assertThat(seq.runs()).containsExactly(new Run(new Range(0, 10), 7));
    assertThat(seq.length()).isEqualTo(10);
    for (int i = 0; i < 10; i++) {
      assertThat(seq.versionAt(i)).isEqualTo(7);
    }
    assertThatThrownBy(() -> seq.versionAt(10)).isInstanceOf(IndexOutOfBoundsException.class);
    RowIdProtos.RowDatasetVersionSequence pb = seq.toProto();
    assertThat(pb.getRuns(0).getVersion()).isEqualTo(7);
    assertThat(pb.getRuns(0).getSpan().getRange().getEnd()).isEqualTo(10);
    // Lance writes no run at all for zero rows.
    assertThat(RowVersionSequence.uniform(0, 7).runs()).isEmpty();
  }

  @Test
  void versionAtIsPositionalAcrossRuns() {
    RowVersionSequence seq =
        RowVersionSequence.of(
            List.of(
                new Run(new Range(0, 3), 1),
                new Run(new U64Segment.SortedArray(EncodedU64Array.of(3, 5)), 2),
                new Run(new Range(5, 5), 9), // empty run: never answers
                new Run(new Range(5, 9), 3)));
    long[] versions = new long[(int) seq.length()];
    for (int i = 0; i < versions.length; i++) {
      versions[i] = seq.versionAt(i);
    }
    assertThat(versions).containsExactly(1, 1, 1, 2, 2, 3, 3, 3, 3);
    assertThat(RowVersionSequence.decode(seq.encode(), WHERE)).isEqualTo(seq);
  }

  @Test
  void rejectsCorruptInput() {
    byte[] noSpan =
        RowIdProtos.RowDatasetVersionSequence.newBuilder()
            .addRuns(RowIdProtos.RowDatasetVersionRun.newBuilder().setVersion(3))
            .build()
            .toByteArray();
    assertRejected(noSpan, "run 0 has no span");
    byte[] valid = RowVersionSequence.uniform(10, 7).encode();
    assertRejected(Arrays.copyOf(valid, valid.length - 2), "not a valid RowDatasetVersionSequence");
    byte[] badSpan =
        RowIdProtos.RowDatasetVersionSequence.newBuilder()
            .addRuns(
                RowIdProtos.RowDatasetVersionRun.newBuilder()
                    .setSpan(RowIdProtos.U64Segment.newBuilder().setSortedArray(EncodedU64Array.of(2, 1).toProto())))
            .build()
            .toByteArray();
    assertRejected(badSpan, "run 0: sorted array values are not strictly ascending");
    assertRejected(RowVersionSequence.uniform(RowVersionSequence.MAX_LENGTH + 1, 1).encode(), "more than 2^32");
  }

  private static void assertRejected(byte[] bytes, String defect) {
    assertThatThrownBy(() -> RowVersionSequence.decode(bytes, WHERE))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(WHERE + ": ")
        .hasMessageContaining(defect);
  }
}
