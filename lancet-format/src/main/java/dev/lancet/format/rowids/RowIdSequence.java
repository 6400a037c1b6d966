package dev.lancet.format.rowids;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.PrimitiveIterator;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;

/**
 * The stable row ids of a fragment's physical rows, in row order ({@code RowIdSequence},
 * format-facts §5.2): an immutable list of {@link U64Segment}s read one after another.
 *
 * <p>Equality is structural (same segments, same encodings), not merely the same ids.
 */
public final class RowIdSequence implements Iterable<Long> {
  /** Row offsets are u32, so one fragment, and its sequence, holds at most 2^32 rows. */
  public static final long MAX_LENGTH = 1L << 32;

  private static final RowIdSequence EMPTY = new RowIdSequence(List.of());

  private final List<U64Segment> segments;
  // ends[i] = number of ids in segments 0..i, for binary search by position.
  private final long[] ends;

  private RowIdSequence(List<U64Segment> segments) {
    this.segments = List.copyOf(segments);
    this.ends = new long[this.segments.size()];
    long total = 0;
    for (int i = 0; i < ends.length; i++) {
      total = Math.addExact(total, this.segments.get(i).length());
      ends[i] = total;
    }
  }

  /** The sequence with no ids. */
  public static RowIdSequence empty() {
    return EMPTY;
  }

  /** The sequence made of {@code segments}, in order. */
  public static RowIdSequence of(List<U64Segment> segments) {
    return segments.isEmpty() ? EMPTY : new RowIdSequence(segments);
  }

  /** The sequence made of {@code segments}, in order. */
  public static RowIdSequence of(U64Segment... segments) {
    return of(List.of(segments));
  }

  /**
   * The ids {@code start, start + 1, ..., start + count - 1} as one {@link U64Segment.Range}
   * (what Lance assigns to a new fragment).
   */
  public static RowIdSequence ofRange(long start, long count) {
    if (count < 0 || Long.compareUnsigned(start + count, start) < 0) {
      throw new IllegalArgumentException(
          "bad id range: start " + Long.toUnsignedString(start) + ", count " + count);
    }
    return new RowIdSequence(List.of(new U64Segment.Range(start, start + count)));
  }

  /** The given ids, in order, as one compact segment (see {@link U64Segment#fromValues}). */
  public static RowIdSequence fromIds(long... ids) {
    return ids.length == 0 ? EMPTY : new RowIdSequence(List.of(U64Segment.fromValues(ids)));
  }

  /**
   * Decodes a serialized {@code RowIdSequence} message.
   *
   * @param where names the data in errors, e.g. {@code "fragment 3 row ids"}
   * @throws FormatException naming {@code where} if the bytes are not a valid sequence
   */
  public static RowIdSequence decode(byte[] bytes, String where) {
    RowIdProtos.RowIdSequence pb;
    try {
      pb = RowIdProtos.RowIdSequence.parseFrom(bytes);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new FormatException(where, "not a valid RowIdSequence message (" + e.getMessage() + ")", e);
    }
    return fromProto(pb, where);
  }

  /**
   * Converts the protobuf form, checking every segment and the total length.
   *
   * @throws FormatException naming {@code where} and the failing segment
   */
  public static RowIdSequence fromProto(RowIdProtos.RowIdSequence pb, String where) {
    List<U64Segment> segments = new ArrayList<>(pb.getSegmentsCount());
    long total = 0;
    for (int i = 0; i < pb.getSegmentsCount(); i++) {
      U64Segment segment;
      try {
        segment = U64Segment.fromProto(pb.getSegments(i), where);
      } catch (FormatException e) {
        throw new FormatException(where, "segment " + i + ": " + e.defect(), e);
      }
      total += segment.length(); // cannot overflow: total <= 2^32 before, length < 2^63
      if (total > MAX_LENGTH) {
        throw new FormatException(
            where, "segments hold more than 2^32 ids, more rows than a fragment can have");
      }
      segments.add(segment);
    }
    return of(segments);
  }

  /** The protobuf form. */
  public RowIdProtos.RowIdSequence toProto() {
    RowIdProtos.RowIdSequence.Builder b = RowIdProtos.RowIdSequence.newBuilder();
    for (U64Segment segment : segments) {
      b.addSegments(segment.toProto());
    }
    return b.build();
  }

  /** The serialized {@code RowIdSequence} message. */
  public byte[] encode() {
    return toProto().toByteArray();
  }

  /** The segments, in order (unmodifiable). */
  public List<U64Segment> segments() {
    return segments;
  }

  /** The number of ids (computed arithmetically, never by materializing). */
  public long length() {
    return ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /** Whether the sequence holds no ids. */
  public boolean isEmpty() {
    return length() == 0;
  }

  /**
   * The id of the row at {@code position}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= position < length()}
   */
  public long get(long position) {
    Objects.checkIndex(position, length());
    int segment = segmentAt(position);
    long before = segment == 0 ? 0 : ends[segment - 1];
    return segments.get(segment).get(position - before);
  }

  /** Whether {@code id} occurs in the sequence. */
  public boolean contains(long id) {
    for (U64Segment segment : segments) {
      if (segment.contains(id)) {
        return true;
      }
    }
    return false;
  }

  /** The ids in row order. */
  @Override
  public PrimitiveIterator.OfLong iterator() {
    return new PrimitiveIterator.OfLong() {
      int segment = 0;
      PrimitiveIterator.OfLong current = segments.isEmpty() ? null : segments.get(0).iterator();

      @Override
      public boolean hasNext() {
        while (current != null && !current.hasNext()) {
          segment++;
          current = segment < segments.size() ? segments.get(segment).iterator() : null;
        }
        return current != null;
      }

      @Override
      public long nextLong() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.nextLong();
      }
    };
  }

  /** The ids in row order. */
  public LongStream stream() {
    return StreamSupport.longStream(
        Spliterators.spliterator(iterator(), length(), Spliterator.ORDERED | Spliterator.SIZED),
        false);
  }

  /**
   * All ids in an array.
   *
   * @throws IllegalStateException if there are too many to fit a Java array
   */
  public long[] toArray() {
    if (length() > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("sequence of " + length() + " ids is too long for an array");
    }
    long[] out = new long[(int) length()];
    PrimitiveIterator.OfLong it = iterator();
    for (int i = 0; i < out.length; i++) {
      out[i] = it.nextLong();
    }
    return out;
  }

  /**
   * This sequence followed by {@code other}. A trailing range of this sequence and a leading
   * range of {@code other} that touch are merged into one range, as Lance does.
   */
  public RowIdSequence concat(RowIdSequence other) {
    if (other.segments.isEmpty()) {
      return this;
    }
    if (segments.isEmpty()) {
      return other;
    }
    List<U64Segment> out = new ArrayList<>(segments);
    List<U64Segment> rest = other.segments;
    if (out.get(out.size() - 1) instanceof U64Segment.Range a
        && rest.get(0) instanceof U64Segment.Range b
        && a.end() == b.start()) {
      out.set(out.size() - 1, new U64Segment.Range(a.start(), b.end()));
      rest = rest.subList(1, rest.size());
    }
    out.addAll(rest);
    return new RowIdSequence(out);
  }

  /**
   * The ids at positions {@code [offset, offset + length)}.
   *
   * @throws IndexOutOfBoundsException if the positions are not all inside the sequence
   */
  public RowIdSequence slice(long offset, long length) {
    Objects.checkFromIndexSize(offset, length, length());
    List<U64Segment> out = new ArrayList<>();
    long from = offset;
    long to = offset + length;
    for (int i = 0; i < segments.size() && from < to; i++) {
      long segStart = i == 0 ? 0 : ends[i - 1];
      long segEnd = ends[i];
      if (segEnd <= from) {
        continue;
      }
      long take = Math.min(segEnd, to) - from;
      out.add(segments.get(i).slice(from - segStart, take));
      from += take;
    }
    return of(out);
  }

  // First segment whose cumulative end exceeds position (skips empty segments).
  private int segmentAt(long position) {
    int lo = 0;
    int hi = ends.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] <= position) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowIdSequence other && segments.equals(other.segments);
  }

  @Override
  public int hashCode() {
    return segments.hashCode();
  }

  @Override
  public String toString() {
    return "RowIdSequence" + segments;
  }
}
