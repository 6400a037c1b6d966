package dev.lancet.format.rowids;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import dev.lancet.format.rowids.EncodedU64Array.Width;
import org.junit.jupiter.api.Test;

class EncodedU64ArrayTest {

  @Test
  void u16OffsetsAreLittleEndianFromTheMinimum() {
    EncodedU64Array a = EncodedU64Array.of(11, 10, 268);
    assertThat(a.width()).isEqualTo(Width.U16);
    assertThat(a.base()).isEqualTo(10);
    RowIdProtos.EncodedU64Array pb = a.toProto();
    assertThat(pb.getU16Array().getBase()).isEqualTo(10);
    assertThat(pb.getU16Array().getOffsets().toByteArray()).containsExactly(1, 0, 0, 0, 2, 1);
    assertThat(a.toArray()).containsExactly(11, 10, 268);
  }

  @Test
  void u32OffsetsAreLittleEndian() {
    EncodedU64Array a = EncodedU64Array.of(5, 70_005);
    assertThat(a.width()).isEqualTo(Width.U32);
    // 70000 = 0x00011170
    assertThat(a.toProto().getU32Array().getOffsets().toByteArray()).containsExactly(0, 0, 0, 0, 0x70, 0x11, 0x01, 0);
  }

  @Test
  void u64ValuesAreLittleEndian() {
    EncodedU64Array a = EncodedU64Array.of(1, 0x0102_0304_0506_0708L);
    assertThat(a.width()).isEqualTo(Width.U64);
    assertThat(a.toProto().getU64Array().getValues().toByteArray())
        .containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1);
    assertThat(a.toArray()).containsExactly(1, 0x0102_0304_0506_0708L);
  }

  @Test
  void choosesTheNarrowestWidth() {
    assertThat(EncodedU64Array.of(0, 0xFFFF).width()).isEqualTo(Width.U16);
    assertThat(EncodedU64Array.of(0, 0x1_0000).width()).isEqualTo(Width.U32);
    assertThat(EncodedU64Array.of(7, 7 + 0xFFFF_FFFFL).width()).isEqualTo(Width.U32);
    assertThat(EncodedU64Array.of(0, 0x1_0000_0000L).width()).isEqualTo(Width.U64);
    // Unsigned: 2^64-1 and 2^64-2 are close together.
    EncodedU64Array high = EncodedU64Array.of(-1L, -2L);
    assertThat(high.width()).isEqualTo(Width.U16);
    assertThat(high.base()).isEqualTo(-2L);
    assertThat(high.toArray()).containsExactly(-1L, -2L);
  }

  @Test
  void everyWidthRoundTripsThroughProtoBytes() throws Exception {
    long[] values = {3, 9, 1000};
    for (Width width : Width.values()) {
      EncodedU64Array a = EncodedU64Array.withWidth(width, values);
      assertThat(a.width()).isEqualTo(width);
      byte[] bytes = a.toProto().toByteArray();
      EncodedU64Array back = EncodedU64Array.fromProto(RowIdProtos.EncodedU64Array.parseFrom(bytes), "w");
      assertThat(back).isEqualTo(a);
      assertThat(back.toArray()).containsExactly(values);
    }
    assertThatThrownBy(() -> EncodedU64Array.withWidth(Width.U16, 0, 70_000))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void keepsAForeignBaseAsFound() {
    // Lance uses base = min, but any base is legal on the wire.
    RowIdProtos.EncodedU64Array pb =
        RowIdProtos.EncodedU64Array.newBuilder()
            .setU16Array(
                RowIdProtos.EncodedU64Array.U16Array.newBuilder()
                    .setBase(100)
                    .setOffsets(ByteString.copyFrom(new byte[] {5, 0, 1, 0})))
            .build();
    EncodedU64Array a = EncodedU64Array.fromProto(pb, "w");
    assertThat(a.toArray()).containsExactly(105, 101);
    assertThat(a.toProto()).isEqualTo(pb);
  }

  @Test
  void rejectsOffsetsNotAMultipleOfTheWidth() {
    assertRejected(u16(0, new byte[3]), "not a multiple of 2");
    assertRejected(
        RowIdProtos.EncodedU64Array.newBuilder()
            .setU32Array(RowIdProtos.EncodedU64Array.U32Array.newBuilder().setOffsets(ByteString.copyFrom(new byte[6])))
            .build(),
        "not a multiple of 4");
    assertRejected(
        RowIdProtos.EncodedU64Array.newBuilder()
            .setU64Array(RowIdProtos.EncodedU64Array.U64Array.newBuilder().setValues(ByteString.copyFrom(new byte[12])))
            .build(),
        "not a multiple of 8");
  }

  @Test
  void rejectsOverflowAndMissingVariant() {
    assertRejected(u16(-1L, new byte[] {1, 0}), "exceeds 2^64-1");
    assertRejected(RowIdProtos.EncodedU64Array.getDefaultInstance(), "no known variant");
  }

  private static RowIdProtos.EncodedU64Array u16(long base, byte[] offsets) {
    return RowIdProtos.EncodedU64Array.newBuilder()
        .setU16Array(
            RowIdProtos.EncodedU64Array.U16Array.newBuilder().setBase(base).setOffsets(ByteString.copyFrom(offsets)))
        .build();
  }

  private static void assertRejected(RowIdProtos.EncodedU64Array pb, String defect) {
    assertThatThrownBy(() -> EncodedU64Array.fromProto(pb, "fragment 9 row ids"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("fragment 9 row ids: ")
        .hasMessageContaining(defect);
  }
}
