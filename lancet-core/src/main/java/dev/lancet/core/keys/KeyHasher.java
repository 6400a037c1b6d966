package dev.lancet.core.keys;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;

/**
 * Hashes unique-key values to the 64-bit hashes carried by key existence filters
 * (v2-semantics §4.4).
 *
 * <p><b>Byte encoding</b> (§4.4): strings are UTF-8; signed integers are widened to i64 and
 * written as 8 little-endian bytes (so an int32 and an int64 of the same value encode, and hash,
 * identically); unsigned integers are zero-extended to u64 and written as 8 little-endian bytes
 * (a non-negative value therefore encodes the same whether signed or unsigned); binary is taken
 * as is. A composite (multi-column) key, like a list or struct, is each element's bytes followed
 * by a single {@code 0} byte, so {@code ("ab","c")} and {@code ("a","bc")} differ. A single-column
 * scalar key is its bytes with no terminator. A null anywhere in the key means the row has no key
 * (the hash methods return empty).
 *
 * <p><b>Hash function</b>: the first 64 bits of MurmurHash3 x64-128 (seed 0), from Apache
 * Commons Codec rather than written here. The spec does not establish which hash function
 * upstream Lance applies to these bytes, so Lancet's hashes are only guaranteed to be comparable
 * with filters Lancet itself wrote; this is why {@link KeyFilters} keeps the conservative
 * exact-vs-Bloom rule.
 */
public final class KeyHasher {


  private KeyHasher() {}

  // ---- encodings ----

  /** A string key: its UTF-8 bytes. */
  public static byte[] encodeString(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A signed integer key of any width, already widened to i64: 8 bytes little-endian. */
  public static byte[] encodeSigned(long value) {
    return littleEndian(value);
  }

  /**
   * An unsigned integer key, zero-extended to u64 by the caller ({@code value} holds the u64 bit
   * pattern, e.g. {@code b & 0xFF} for a u8): 8 bytes little-endian.
   */
  public static byte[] encodeUnsigned(long u64Bits) {
    return littleEndian(u64Bits);
  }

  /** A binary key: its bytes as is (a copy). */
  public static byte[] encodeBinary(byte[] value) {
    return value.clone();
  }

  /**
   * A composite (multi-column), list or struct key: each element's bytes followed by a 0 byte;
   * null when any element is null (no key).
   */
  public static byte[] encodeComposite(List<byte[]> parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      if (part == null) {
        return null;
      }
      out.writeBytes(part);
      out.write(0);
    }
    return out.toByteArray();
  }

  /**
   * The hash of a key made of the given column values: one part is hashed as is, two or more as a
   * composite key ({@link #encodeComposite}); empty when any part is null or there are no parts.
   */
  public static OptionalLong hashKey(List<byte[]> parts) {
    if (parts.isEmpty()) {
      return OptionalLong.empty();
    }
    if (parts.size() == 1) {
      byte[] only = parts.get(0);
      return only == null ? OptionalLong.empty() : OptionalLong.of(hash(only));
    }
    byte[] encoded = encodeComposite(parts);
    return encoded == null ? OptionalLong.empty() : OptionalLong.of(hash(encoded));
  }

  private static byte[] littleEndian(long v) {
    byte[] b = new byte[8];
    littleEndian(v, b);
    return b;
  }

  /** Writes {@code v} as 8 bytes little-endian into {@code out[0..8)}. */
  public static void littleEndian(long v, byte[] out) {
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (v >>> (8 * i));
    }
  }

  /** The 64-bit hash of an encoded key. */
  public static long hash(byte[] encodedKey) {
    return org.apache.commons.codec.digest.MurmurHash3.hash128x64(encodedKey)[0];
  }
}
