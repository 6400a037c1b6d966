package dev.lancet.format.rowids;

import com.google.protobuf.ByteString;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable array of unsigned 64-bit values stored as in {@code EncodedU64Array}: either
 * {@code base} plus little-endian u16 or u32 offsets, or plain little-endian u64 values.
 *
 * <p>The width and base are kept as found so that decoding then encoding gives the same bytes.
 * Values are unsigned; Java {@code long}s above 2^63-1 read as negative.
 */
public final class EncodedU64Array {
  /** How each value is stored. */
  public enum Width {
    U16(2),
    U32(4),
    U64(8);

    private final int bytes;

    Width(int bytes) {
      this.bytes = bytes;
    }

    /** Bytes per stored value. */
    public int bytes() {
      return bytes;
    }
  }

  private static final EncodedU64Array EMPTY = new EncodedU64Array(Width.U16, 0, new byte[0]);

  private final Width width;
  private final long base; // always 0 for U64
  private final byte[] data; // little-endian offsets (U16/U32) or values (U64)

  private EncodedU64Array(Width width, long base, byte[] data) {
    this.width = width;
    this.base = base;
    this.data = data;
  }

  /** The empty array (U16, base 0, as Lance encodes an empty list). */
  public static EncodedU64Array empty() {
    return EMPTY;
  }

  /**
   * Encodes {@code values} in the narrowest width: base = minimum, then u16 offsets if the
   * spread fits 16 bits, else u32 if it fits 32 bits, else plain u64.
   */
  public static EncodedU64Array of(long... values) {
    if (values.length == 0) {
      return EMPTY;
    }
    long min = values[0];
    long max = values[0];
    for (long v : values) {
      if (Long.compareUnsigned(v, min) < 0) {
        min = v;
      }
      if (Long.compareUnsigned(v, max) > 0) {
        max = v;
      }
    }
    long spread = max - min; // unsigned
    Width width =
        Long.compareUnsigned(spread, 0xFFFFL) <= 0
            ? Width.U16
            : Long.compareUnsigned(spread, 0xFFFF_FFFFL) <= 0 ? Width.U32 : Width.U64;
    return withWidth(width, values);
  }

  /**
   * Encodes {@code values} in the given width with base = minimum.
   *
   * @throws IllegalArgumentException if the values' spread does not fit the width
   */
  public static EncodedU64Array withWidth(Width width, long... values) {
    long base = 0;
    if (width != Width.U64 && values.length > 0) {
      base = values[0];
      for (long v : values) {
        if (Long.compareUnsigned(v, base) < 0) {
          base = v;
        }
      }
    }
    byte[] data = new byte[values.length * width.bytes];
    for (int i = 0; i < values.length; i++) {
      long stored = values[i] - base;
      if (width != Width.U64 && Long.compareUnsigned(stored, maxOffset(width)) > 0) {
        throw new IllegalArgumentException("value spread does not fit " + width);
      }
      putLe(data, i * width.bytes, width.bytes, stored);
    }
    return new EncodedU64Array(width, base, data);
  }

  /** The storage width. */
  public Width width() {
    return width;
  }

  /** The base added to every stored offset (0 for {@link Width#U64}). */
  public long base() {
    return base;
  }

  /** The number of values. */
  public int length() {
    return data.length / width.bytes;
  }

  /** The value at {@code index}. */
  public long get(int index) {
    Objects.checkIndex(index, length());
    return base + getLe(data, index * width.bytes, width.bytes);
  }

  /** All values, in stored order. */
  public long[] toArray() {
    long[] out = new long[length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(i);
    }
    return out;
  }

  /** The protobuf form. */
  public RowIdProtos.EncodedU64Array toProto() {
    ByteString bytes = ByteString.copyFrom(data);
    RowIdProtos.EncodedU64Array.Builder b = RowIdProtos.EncodedU64Array.newBuilder();
    switch (width) {
      case U16 -> b.setU16Array(
          RowIdProtos.EncodedU64Array.U16Array.newBuilder().setBase(base).setOffsets(bytes));
      case U32 -> b.setU32Array(
          RowIdProtos.EncodedU64Array.U32Array.newBuilder().setBase(base).setOffsets(bytes));
      case U64 -> b.setU64Array(RowIdProtos.EncodedU64Array.U64Array.newBuilder().setValues(bytes));
    }
    return b.build();
  }

  /**
   * Decodes the protobuf form.
   *
   * @throws FormatException naming {@code where} if no variant is set, the byte count is not a
   *     multiple of the width, or base + offset exceeds 2^64-1
   */
  public static EncodedU64Array fromProto(RowIdProtos.EncodedU64Array pb, String where) {
    Width width;
    long base;
    ByteString bytes;
    switch (pb.getArrayCase()) {
      case U16_ARRAY -> {
        width = Width.U16;
        base = pb.getU16Array().getBase();
        bytes = pb.getU16Array().getOffsets();
      }
      case U32_ARRAY -> {
        width = Width.U32;
        base = pb.getU32Array().getBase();
        bytes = pb.getU32Array().getOffsets();
      }
      case U64_ARRAY -> {
        width = Width.U64;
        base = 0;
        bytes = pb.getU64Array().getValues();
      }
      default -> throw new FormatException(where, "encoded array has no known variant");
    }
    if (bytes.size() % width.bytes != 0) {
      throw new FormatException(
          where, width + " array has " + bytes.size() + " bytes, not a multiple of " + width.bytes);
    }
    byte[] data = bytes.toByteArray();
    if (width != Width.U64) {
      for (int at = 0; at < data.length; at += width.bytes) {
        long offset = getLe(data, at, width.bytes);
        if (Long.compareUnsigned(base + offset, base) < 0) {
          throw new FormatException(where, width + " array: base + offset exceeds 2^64-1");
        }
      }
    }
    return new EncodedU64Array(width, base, data);
  }

  private static long maxOffset(Width width) {
    return width == Width.U16 ? 0xFFFFL : 0xFFFF_FFFFL;
  }

  private static long getLe(byte[] data, int at, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = v << 8 | (data[at + i] & 0xFF);
    }
    return v;
  }

  private static void putLe(byte[] data, int at, int n, long v) {
    for (int i = 0; i < n; i++) {
      data[at + i] = (byte) (v >>> (8 * i));
    }
  }

  /** Equal when width, base and stored bytes are equal (the same encoding, not just values). */
  @Override
  public boolean equals(Object o) {
    return o instanceof EncodedU64Array other
        && width == other.width
        && base == other.base
        && Arrays.equals(data, other.data);
  }

  @Override
  public int hashCode() {
    return Objects.hash(width, base, Arrays.hashCode(data));
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(width.name()).append('[');
    int n = Math.min(length(), 16);
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(get(i)));
    }
    return sb.append(length() > n ? ", ...]" : "]").toString();
  }
}
