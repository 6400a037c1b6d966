package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.CompressiveEncoding;
import dev.lancet.format.pb.Encodings21Protos.FixedSizeList;
import dev.lancet.format.pb.Encodings21Protos.Flat;
import dev.lancet.format.pb.Encodings21Protos.InlineBitpacking;
import dev.lancet.format.pb.Encodings21Protos.OutOfLineBitpacking;
import dev.lancet.format.pb.Encodings21Protos.Variable;

/** The compressive-encoding descriptions the writer emits. */
final class Encodings {
  private Encodings() {}

  static CompressiveEncoding flat(int bits) {
    return CompressiveEncoding.newBuilder().setFlat(Flat.newBuilder().setBitsPerValue(bits))
        .build();
  }

  static CompressiveEncoding inlineBitpacking(int bits) {
    return CompressiveEncoding.newBuilder().setInlineBitpacking(
        InlineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)).build();
  }

  static CompressiveEncoding outOfLineBitpacking(int bits, int width) {
    return CompressiveEncoding.newBuilder().setOutOfLineBitpacking(
        OutOfLineBitpacking.newBuilder().setUncompressedBitsPerValue(bits)
            .setValues(flat(width))).build();
  }

  static CompressiveEncoding variable(int offsetBits) {
    return CompressiveEncoding.newBuilder().setVariable(
        Variable.newBuilder().setOffsets(flat(offsetBits))).build();
  }

  static CompressiveEncoding fixedSizeList(int dimension, int itemBits, boolean hasValidity) {
    return CompressiveEncoding.newBuilder().setFixedSizeList(FixedSizeList.newBuilder()
        .setItemsPerValue(dimension).setHasValidity(hasValidity).setValues(flat(itemBits)))
        .build();
  }
}
