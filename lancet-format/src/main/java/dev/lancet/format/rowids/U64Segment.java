package dev.lancet.format.rowids;

import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import java.util.Objects;
import java.util.PrimitiveIterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;

/**
 * A run of unsigned 64-bit values in one of the five shapes of {@code U64Segment}.
 *
 * <p>Values are unsigned; ordering and comparisons use {@link Long#compareUnsigned}. Lengths are
 * computed arithmetically, so a {@link Range} of 2^40 values costs 16 bytes. Every record checks
 * its invariants on construction ({@link IllegalArgumentException}); {@link #fromProto} turns
 * those into {@link FormatException}s.
 */
public sealed interface U64Segment
    permits U64Segment.Range,
        U64Segment.RangeWithHoles,
        U64Segment.RangeWithBitmap,
        U64Segment.SortedArray,
        U64Segment.Array {

  /** The number of values. */
  long length();

  /**
   * The value at position {@code index}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= index < length()}
   */
  long get(long index);

  /** Whether {@code value} is one of the values. */
  boolean contains(long value);

  /** The values in segment order. */
  PrimitiveIterator.OfLong iterator();

  /** The values in segment order. */
  default LongStream stream() {
    return StreamSupport.longStream(
        Spliterators.spliterator(iterator(), length(), Spliterator.ORDERED | Spliterator.SIZED),
        false);
  }

  /**
   * The values at positions {@code [offset, offset + length)}, as a compact segment of the same
   * kind where possible.
   */
  U64Segment slice(long offset, long length);

  /** The protobuf form. */
  RowIdProtos.U64Segment toProto();

  /**
   * Decodes the protobuf form.
   *
   * @throws FormatException naming {@code where} for a missing variant, end below start, holes
   *     out of order or outside the range, a bitmap of the wrong size, an unsorted sorted array,
   *     or a malformed encoded array
   */
  static U64Segment fromProto(RowIdProtos.U64Segment pb, String where) {
    try {
      return switch (pb.getSegmentCase()) {
        case RANGE -> new Range(pb.getRange().getStart(), pb.getRange().getEnd());
        case RANGE_WITH_HOLES -> {
          RowIdProtos.U64Segment.RangeWithHoles h = pb.getRangeWithHoles();
          if (!h.hasHoles()) {
            throw new FormatException(where, "range with holes has no holes array");
          }
          yield new RangeWithHoles(
              h.getStart(), h.getEnd(), EncodedU64Array.fromProto(h.getHoles(), where));
        }
        case RANGE_WITH_BITMAP -> {
          RowIdProtos.U64Segment.RangeWithBitmap b = pb.getRangeWithBitmap();
          long bits = rangeLength(b.getStart(), b.getEnd());
          yield new RangeWithBitmap(
              b.getStart(), b.getEnd(), LsbBitmap.of(b.getBitmap().toByteArray(), bits));
        }
        case SORTED_ARRAY -> new SortedArray(EncodedU64Array.fromProto(pb.getSortedArray(), where));
        case ARRAY -> new Array(EncodedU64Array.fromProto(pb.getArray(), where));
        case SEGMENT_NOT_SET -> throw new FormatException(where, "segment has no known variant");
      };
    } catch (IllegalArgumentException e) {
      throw new FormatException(where, e.getMessage(), e);
    }
  }

  /**
   * The most compact segment holding {@code values} in this order, chosen as Lance does: an
   * ascending run without gaps is a {@link Range}; other ascending runs take whichever of {@link
   * RangeWithHoles}, {@link RangeWithBitmap} or {@link SortedArray} has the smallest estimated
   * size; anything else is an {@link Array}. Arrays use the narrowest width.
   */
  static U64Segment fromValues(long... values) {
    int n = values.length;
    if (n == 0) {
      return new Range(0, 0);
    }
    for (int i = 1; i < n; i++) {
      if (Long.compareUnsigned(values[i], values[i - 1]) <= 0) {
        return new Array(EncodedU64Array.of(values));
      }
    }
    long min = values[0];
    long max = values[n - 1];
    long spread = max - min; // unsigned; >= n - 1 since values are distinct
    // A range's exclusive end must fit u64, and huge spreads can only be arrays.
    if (max != -1L && Long.compareUnsigned(spread, 1L << 40) < 0) {
      if (spread == n - 1) {
        return new Range(min, max + 1);
      }
      long slots = spread + 1;
      long holes = slots - n;
      // Size estimates from Lance's segment.rs; ties prefer holes, then bitmap.
      long withHoles = 24 + 4 * holes;
      long withBitmap = 24 + (slots + 7) / 8;
      long sorted = 24 + 2L * n;
      long best = Math.min(withHoles, Math.min(withBitmap, sorted));
      if (best == withHoles) {
        long[] gaps = new long[(int) holes];
        int g = 0;
        for (int i = 1; i < n; i++) {
          for (long v = values[i - 1] + 1; v != values[i]; v++) {
            gaps[g++] = v;
          }
        }
        return new RangeWithHoles(min, max + 1, EncodedU64Array.of(gaps));
      }
      if (best == withBitmap) {
        long[] positions = new long[n];
        for (int i = 0; i < n; i++) {
          positions[i] = values[i] - min;
        }
        return new RangeWithBitmap(min, max + 1, LsbBitmap.ofPositions(slots, positions));
      }
    }
    return new SortedArray(EncodedU64Array.of(values));
  }

  /** {@code end - start}, checked: end must not be below start and the length must fit a long. */
  private static long rangeLength(long start, long end) {
    if (Long.compareUnsigned(end, start) < 0) {
      throw new IllegalArgumentException(
          "range end " + Long.toUnsignedString(end) + " is below start " + Long.toUnsignedString(start));
    }
    long length = end - start;
    if (length < 0) {
      throw new IllegalArgumentException("range length exceeds 2^63-1");
    }
    return length;
  }

  private static boolean inRange(long value, long start, long end) {
    return Long.compareUnsigned(value, start) >= 0 && Long.compareUnsigned(value, end) < 0;
  }

  /** First index whose value is >= {@code value} (unsigned); the array must be ascending. */
  private static int lowerBound(EncodedU64Array array, long value) {
    int lo = 0;
    int hi = array.length();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(array.get(mid), value) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static void checkAscending(EncodedU64Array array, String what) {
    for (int i = 1; i < array.length(); i++) {
      if (Long.compareUnsigned(array.get(i), array.get(i - 1)) <= 0) {
        throw new IllegalArgumentException(what + " are not strictly ascending at index " + i);
      }
    }
  }

  private static long[] subArray(EncodedU64Array array, long offset, long length) {
    long[] out = new long[(int) length];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get((int) offset + i);
    }
    return out;
  }

  /** Every value in {@code [start, end)}. */
  record Range(long start, long end) implements U64Segment {
    public Range {
      rangeLength(start, end);
    }

    @Override
    public long length() {
      return end - start;
    }

    @Override
    public long get(long index) {
      return start + Objects.checkIndex(index, length());
    }

    @Override
    public boolean contains(long value) {
      return inRange(value, start, end);
    }

    @Override
    public PrimitiveIterator.OfLong iterator() {
      return new CountedLongIterator(length()) {
        long next = start;

        @Override
        long produce() {
          return next++;
        }
      };
    }

    @Override
    public U64Segment slice(long offset, long length) {
      Objects.checkFromIndexSize(offset, length, length());
      return new Range(start + offset, start + offset + length);
    }

    @Override
    public RowIdProtos.U64Segment toProto() {
      return RowIdProtos.U64Segment.newBuilder()
          .setRange(RowIdProtos.U64Segment.Range.newBuilder().setStart(start).setEnd(end))
          .build();
    }
  }

  /** Every value in {@code [start, end)} except the strictly ascending {@code holes}. */
  record RangeWithHoles(long start, long end, EncodedU64Array holes) implements U64Segment {
    public RangeWithHoles {
      rangeLength(start, end);
      Objects.requireNonNull(holes, "holes");
      checkAscending(holes, "holes");
      for (int i = 0; i < holes.length(); i++) {
        if (!inRange(holes.get(i), start, end)) {
          throw new IllegalArgumentException(
              "hole " + Long.toUnsignedString(holes.get(i)) + " lies outside the range");
        }
      }
    }

    @Override
    public long length() {
      return (end - start) - holes.length();
    }

    @Override
    public long get(long index) {
      Objects.checkIndex(index, length());
      // Before hole j sit (holes[j] - start - j) present values; count the holes passed.
      int lo = 0;
      int hi = holes.length();
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (holes.get(mid) - start - mid <= index) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return start + index + lo;
    }

    @Override
    public boolean contains(long value) {
      if (!inRange(value, start, end)) {
        return false;
      }
      int at = lowerBound(holes, value);
      return at == holes.length() || holes.get(at) != value;
    }

    @Override
    public PrimitiveIterator.OfLong iterator() {
      return new CountedLongIterator(length()) {
        long next = start;
        int hole = 0;

        @Override
        long produce() {
          while (hole < holes.length() && holes.get(hole) == next) {
            hole++;
            next++;
          }
          return next++;
        }
      };
    }

    @Override
    public U64Segment slice(long offset, long length) {
      Objects.checkFromIndexSize(offset, length, length());
      if (length == 0) {
        return new Range(start, start);
      }
      long first = get(offset);
      long last = get(offset + length - 1);
      int from = lowerBound(holes, first);
      int to = lowerBound(holes, last);
      if (from == to) {
        return new Range(first, last + 1);
      }
      return new RangeWithHoles(first, last + 1, EncodedU64Array.of(subArray(holes, from, to - from)));
    }

    @Override
    public RowIdProtos.U64Segment toProto() {
      return RowIdProtos.U64Segment.newBuilder()
          .setRangeWithHoles(
              RowIdProtos.U64Segment.RangeWithHoles.newBuilder()
                  .setStart(start)
                  .setEnd(end)
                  .setHoles(holes.toProto()))
          .build();
    }
  }

  /** The values {@code start + i} of {@code [start, end)} whose bit {@code i} is set. */
  record RangeWithBitmap(long start, long end, LsbBitmap bitmap) implements U64Segment {
    public RangeWithBitmap {
      long bits = rangeLength(start, end);
      Objects.requireNonNull(bitmap, "bitmap");
      if (bitmap.bitLength() != bits) {
        throw new IllegalArgumentException(
            "bitmap has " + bitmap.bitLength() + " bits for a range of " + bits + " values");
      }
    }

    @Override
    public long length() {
      return bitmap.cardinality();
    }

    @Override
    public long get(long index) {
      Objects.checkIndex(index, length());
      return start + bitmap.select(index);
    }

    @Override
    public boolean contains(long value) {
      return inRange(value, start, end) && bitmap.get(value - start);
    }

    @Override
    public PrimitiveIterator.OfLong iterator() {
      return new CountedLongIterator(length()) {
        long bit = 0;

        @Override
        long produce() {
          while (!bitmap.get(bit)) {
            bit++;
          }
          return start + bit++;
        }
      };
    }

    @Override
    public U64Segment slice(long offset, long length) {
      Objects.checkFromIndexSize(offset, length, length());
      if (length == 0) {
        return new Range(start, start);
      }
      long first = bitmap.select(offset);
      long last = bitmap.select(offset + length - 1);
      LsbBitmap bits = bitmap.range(first, last + 1);
      if (bits.cardinality() == bits.bitLength()) {
        return new Range(start + first, start + last + 1);
      }
      return new RangeWithBitmap(start + first, start + last + 1, bits);
    }

    @Override
    public RowIdProtos.U64Segment toProto() {
      return RowIdProtos.U64Segment.newBuilder()
          .setRangeWithBitmap(
              RowIdProtos.U64Segment.RangeWithBitmap.newBuilder()
                  .setStart(start)
                  .setEnd(end)
                  .setBitmap(com.google.protobuf.ByteString.copyFrom(bitmap.toByteArray())))
          .build();
    }
  }

  /** Strictly ascending values. */
  record SortedArray(EncodedU64Array values) implements U64Segment {
    public SortedArray {
      Objects.requireNonNull(values, "values");
      checkAscending(values, "sorted array values");
    }

    @Override
    public long length() {
      return values.length();
    }

    @Override
    public long get(long index) {
      return values.get((int) Objects.checkIndex(index, length()));
    }

    @Override
    public boolean contains(long value) {
      int at = lowerBound(values, value);
      return at < values.length() && values.get(at) == value;
    }

    @Override
    public PrimitiveIterator.OfLong iterator() {
      return iterate(values);
    }

    @Override
    public U64Segment slice(long offset, long length) {
      Objects.checkFromIndexSize(offset, length, length());
      return new SortedArray(EncodedU64Array.of(subArray(values, offset, length)));
    }

    @Override
    public RowIdProtos.U64Segment toProto() {
      return RowIdProtos.U64Segment.newBuilder().setSortedArray(values.toProto()).build();
    }
  }

  /** Values in any order. */
  record Array(EncodedU64Array values) implements U64Segment {
    public Array {
      Objects.requireNonNull(values, "values");
    }

    @Override
    public long length() {
      return values.length();
    }

    @Override
    public long get(long index) {
      return values.get((int) Objects.checkIndex(index, length()));
    }

    @Override
    public boolean contains(long value) {
      for (int i = 0; i < values.length(); i++) {
        if (values.get(i) == value) {
          return true;
        }
      }
      return false;
    }

    @Override
    public PrimitiveIterator.OfLong iterator() {
      return iterate(values);
    }

    @Override
    public U64Segment slice(long offset, long length) {
      Objects.checkFromIndexSize(offset, length, length());
      return new Array(EncodedU64Array.of(subArray(values, offset, length)));
    }

    @Override
    public RowIdProtos.U64Segment toProto() {
      return RowIdProtos.U64Segment.newBuilder().setArray(values.toProto()).build();
    }
  }

  /** The values of an encoded array, in stored order. */
  private static PrimitiveIterator.OfLong iterate(EncodedU64Array values) {
    return new CountedLongIterator(values.length()) {
      int next = 0;

      @Override
      long produce() {
        return values.get(next++);
      }
    };
  }
}
