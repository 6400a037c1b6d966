package dev.lancet.format.rowids;

import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable bit array in the layout of {@code U64Segment.RangeWithBitmap}: bit {@code i} is
 * byte {@code i / 8}, mask {@code 1 << (i % 8)} (least significant bit first, as Lance's
 * rowids/bitmap.rs does, whatever the proto comment says). Exactly {@code ceil(bitLength / 8)}
 * bytes, with the unused high bits of the last byte zero.
 */
public final class LsbBitmap {
  private final byte[] bytes;
  private final long bitLength;
  private final long cardinality;

  private LsbBitmap(byte[] bytes, long bitLength) {
    this.bytes = bytes;
    this.bitLength = bitLength;
    long ones = 0;
    for (byte b : bytes) {
      ones += Integer.bitCount(b & 0xFF);
    }
    this.cardinality = ones;
  }

  /**
   * A bitmap of {@code bitLength} bits read from {@code bytes} (copied).
   *
   * @throws IllegalArgumentException if the byte count is not {@code ceil(bitLength / 8)} or a
   *     padding bit is set
   */
  public static LsbBitmap of(byte[] bytes, long bitLength) {
    // Written without `bitLength + 7`, which could overflow for a corrupt range.
    long needed = (bitLength >>> 3) + ((bitLength & 7) == 0 ? 0 : 1);
    if (bitLength < 0 || bytes.length != needed) {
      throw new IllegalArgumentException(
          "bitmap of " + bitLength + " bits needs " + needed + " bytes, has " + bytes.length);
    }
    int used = (int) (bitLength % 8);
    if (used != 0 && (bytes[bytes.length - 1] & 0xFF) >>> used != 0) {
      throw new IllegalArgumentException("bitmap has bits set past its length " + bitLength);
    }
    return new LsbBitmap(bytes.clone(), bitLength);
  }

  /** A bitmap whose set bits are {@code positions} (each in {@code [0, bitLength)}). */
  public static LsbBitmap ofPositions(long bitLength, long... positions) {
    if (bitLength < 0 || bitLength > 8L * (Integer.MAX_VALUE - 8)) {
      throw new IllegalArgumentException("bad bitmap length " + bitLength);
    }
    byte[] bytes = new byte[(int) ((bitLength + 7) / 8)];
    for (long p : positions) {
      Objects.checkIndex(p, bitLength);
      bytes[(int) (p >>> 3)] |= (byte) (1 << (p & 7));
    }
    return new LsbBitmap(bytes, bitLength);
  }

  /** The number of bits. */
  public long bitLength() {
    return bitLength;
  }

  /** The number of set bits. */
  public long cardinality() {
    return cardinality;
  }

  /** Whether bit {@code i} is set. */
  public boolean get(long i) {
    Objects.checkIndex(i, bitLength);
    return (bytes[(int) (i >>> 3)] & (1 << (i & 7))) != 0;
  }

  /** The position of the set bit with the given rank (0 = the first set bit). */
  public long select(long rank) {
    Objects.checkIndex(rank, cardinality);
    long remaining = rank;
    for (int at = 0; ; at++) {
      int b = bytes[at] & 0xFF;
      int ones = Integer.bitCount(b);
      if (remaining < ones) {
        for (int bit = 0; ; bit++) {
          if ((b & (1 << bit)) != 0 && remaining-- == 0) {
            return 8L * at + bit;
          }
        }
      }
      remaining -= ones;
    }
  }

  /** A copy of the bits {@code [from, to)} as a new bitmap. */
  public LsbBitmap range(long from, long to) {
    Objects.checkFromToIndex(from, to, bitLength);
    long n = to - from;
    byte[] out = new byte[(int) ((n + 7) / 8)];
    for (long i = 0; i < n; i++) {
      if (get(from + i)) {
        out[(int) (i >>> 3)] |= (byte) (1 << (i & 7));
      }
    }
    return new LsbBitmap(out, n);
  }

  /** A copy of the bytes. */
  public byte[] toByteArray() {
    return bytes.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LsbBitmap other
        && bitLength == other.bitLength
        && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(bitLength) + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("LsbBitmap[");
    long n = Math.min(bitLength, 64);
    for (long i = 0; i < n; i++) {
      sb.append(get(i) ? '1' : '0');
    }
    return sb.append(bitLength > n ? "...]" : "]").toString();
  }
}
