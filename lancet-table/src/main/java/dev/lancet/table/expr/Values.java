package dev.lancet.table.expr;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * One evaluated column of a batch, in the evaluator's working form: primitive Java arrays that
 * kernels loop over without boxing, and a validity bitmap.
 *
 * <p>Validity is {@code long} words, bit {@code i % 64} of word {@code i / 64} set when row
 * {@code i} is valid (Arrow's bit order); {@code null} means every row is valid. Bits beyond
 * {@code length} are zero. Integer types (signed and unsigned), dates and timestamps are {@code
 * long}s (an unsigned 64-bit value as its raw bits); float32 and float64 are {@code double}s.
 */
abstract sealed class Values {

  final ArrowType type;
  final int length;
  final long[] valid;

  Values(ArrowType type, int length, long[] valid) {
    this.type = type;
    this.length = length;
    this.valid = valid;
  }

  final boolean isValid(int i) {
    return valid == null || (valid[i >>> 6] & (1L << i)) != 0;
  }

  static int words(int length) {
    return (length + 63) >>> 6;
  }

  /** A validity bitmap with every row of {@code length} valid, explicitly. */
  static long[] allValid(int length) {
    long[] w = new long[words(length)];
    java.util.Arrays.fill(w, -1L);
    clearTail(w, length);
    return w;
  }

  static void clearTail(long[] words, int length) {
    int rem = length & 63;
    if (rem != 0 && words.length > 0) {
      words[words.length - 1] &= (1L << rem) - 1;
    }
  }

  /** The intersection of two validity bitmaps ({@code null} is all valid). */
  static long[] and(long[] a, long[] b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    long[] out = new long[a.length];
    for (int w = 0; w < a.length; w++) {
      out[w] = a[w] & b[w];
    }
    return out;
  }

  static long[] setBitOff(long[] valid, int length, int i) {
    long[] v = valid == null ? allValid(length) : valid;
    v[i >>> 6] &= ~(1L << i);
    return v;
  }

  /** Integer, date and timestamp values. */
  static final class Longs extends Values {
    final long[] v;

    Longs(ArrowType type, long[] v, int length, long[] valid) {
      super(type, length, valid);
      this.v = v;
    }
  }

  /** float32 and float64 values. */
  static final class Doubles extends Values {
    final double[] v;

    Doubles(ArrowType type, double[] v, int length, long[] valid) {
      super(type, length, valid);
      this.v = v;
    }
  }

  /** Booleans: bit set is true (only meaningful where valid; kept zero where invalid). */
  static final class Bools extends Values {
    final long[] bits;

    Bools(long[] bits, int length, long[] valid) {
      super(Types.BOOL, length, valid);
      this.bits = bits;
    }

    boolean get(int i) {
      return (bits[i >>> 6] & (1L << i)) != 0;
    }
  }

  /** utf8, large_utf8 and binary values: row {@code i} is {@code data[offsets[i], offsets[i+1])}. */
  static final class Bytes extends Values {
    final byte[] data;
    final int[] offsets;

    Bytes(ArrowType type, byte[] data, int[] offsets, int length, long[] valid) {
      super(type, length, valid);
      this.data = data;
      this.offsets = offsets;
    }

    String string(int i) {
      return new String(data, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
    }

    byte[] bytes(int i) {
      return java.util.Arrays.copyOfRange(data, offsets[i], offsets[i + 1]);
    }
  }

  /** A dictionary-encoded string column: row {@code i} is {@code dictionary[indices[i]]}. */
  static final class Dict extends Values {
    final int[] indices;
    final Bytes dictionary;

    Dict(ArrowType type, int[] indices, Bytes dictionary, int length, long[] valid) {
      super(type, length, valid);
      this.indices = indices;
      this.dictionary = dictionary;
    }

    /** The plain values, row by row. */
    Bytes decode() {
      int[] off = new int[length + 1];
      int total = 0;
      for (int i = 0; i < length; i++) {
        if (isValid(i)) {
          int d = indices[i];
          total += dictionary.offsets[d + 1] - dictionary.offsets[d];
        }
        off[i + 1] = total;
      }
      byte[] data = new byte[total];
      for (int i = 0; i < length; i++) {
        if (isValid(i)) {
          int d = indices[i];
          int s = dictionary.offsets[d];
          System.arraycopy(dictionary.data, s, data, off[i], off[i + 1] - off[i]);
        }
      }
      return new Bytes(type, data, off, length, valid);
    }
  }

  /** decimal128 values at the type's scale. */
  static final class Decimals extends Values {
    final BigDecimal[] v;

    Decimals(ArrowType type, BigDecimal[] v, int length, long[] valid) {
      super(type, length, valid);
      this.v = v;
    }
  }

  /** Structs and fixed-size lists: only whether each row is null. */
  static final class Opaque extends Values {
    Opaque(ArrowType type, int length, long[] valid) {
      super(type, length, valid);
    }
  }

  /** Builds a column of any type one value at a time (the slow, general path). */
  static final class Builder {
    private final ArrowType type;
    private final int length;
    private final long[] valid;
    private final long[] longs;
    private final double[] doubles;
    private final long[] bits;
    private final BigDecimal[] decimals;
    private final java.io.ByteArrayOutputStream bytes;
    private final int[] offsets;
    private int i;

    private Builder(ArrowType type, int length) {
      this.type = type;
      this.length = length;
      this.valid = new long[words(length)];
      this.longs = Types.isLongBacked(type) ? new long[length] : null;
      this.doubles = Types.isFloat(type) ? new double[length] : null;
      this.bits = Types.isBool(type) ? new long[words(length)] : null;
      this.decimals = Types.isDecimal(type) ? new BigDecimal[length] : null;
      this.bytes = Types.isBytes(type) ? new java.io.ByteArrayOutputStream() : null;
      this.offsets = Types.isBytes(type) ? new int[length + 1] : null;
    }

    static Builder of(ArrowType type, int length) {
      return new Builder(type, length);
    }

    void appendNull() {
      if (offsets != null) {
        offsets[i + 1] = offsets[i];
      }
      i++;
    }

    void append(Scalar s) {
      if (s.isNull()) {
        appendNull();
        return;
      }
      valid[i >>> 6] |= 1L << i;
      Object v = s.value();
      if (longs != null) {
        longs[i] = (Long) v;
      } else if (doubles != null) {
        doubles[i] = (Double) v;
      } else if (bits != null) {
        if ((Boolean) v) {
          bits[i >>> 6] |= 1L << i;
        }
      } else if (decimals != null) {
        decimals[i] = (BigDecimal) v;
      } else if (bytes != null) {
        byte[] b = v instanceof String str ? str.getBytes(StandardCharsets.UTF_8) : (byte[]) v;
        bytes.writeBytes(b);
        offsets[i + 1] = offsets[i] + b.length;
      }
      i++;
    }

    Values build() {
      if (longs != null) {
        return new Longs(type, longs, length, valid);
      }
      if (doubles != null) {
        return new Doubles(type, doubles, length, valid);
      }
      if (bits != null) {
        return new Bools(bits, length, valid);
      }
      if (decimals != null) {
        return new Decimals(type, decimals, length, valid);
      }
      if (bytes != null) {
        return new Bytes(type, bytes.toByteArray(), offsets, length, valid);
      }
      return new Opaque(type, length, valid);
    }
  }
}
