package dev.lancet.format.deletion;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The set of deleted physical row offsets of one fragment.
 *
 * <p>Offsets are unsigned 32-bit values held in Java {@code int}s; order, iteration and {@link
 * #contains(int)} treat them as unsigned (in practice offsets are below 2^31, where signed and
 * unsigned agree). Instances are immutable: the backing {@link RoaringBitmap} is a private copy
 * that never escapes.
 */
public final class DeletionVector implements Iterable<Integer> {
  private static final DeletionVector EMPTY = new DeletionVector(new RoaringBitmap());

  private final RoaringBitmap bits;

  // Takes ownership of `bits`; callers must pass a bitmap nobody else holds.
  private DeletionVector(RoaringBitmap bits) {
    this.bits = bits;
  }

  /** The vector with no deleted rows. */
  public static DeletionVector empty() {
    return EMPTY;
  }

  /** A vector holding the given offsets (duplicates are ignored, order does not matter). */
  public static DeletionVector of(int... offsets) {
    RoaringBitmap bitmap = new RoaringBitmap();
    bitmap.add(offsets);
    return new DeletionVector(bitmap);
  }

  /** A vector holding every offset in {@code [start, end)}; bounds are in {@code [0, 2^32]}. */
  public static DeletionVector ofRange(long start, long end) {
    if (start < 0 || end > 0x1_0000_0000L || start > end) {
      throw new IllegalArgumentException("bad offset range [" + start + ", " + end + ")");
    }
    RoaringBitmap bitmap = new RoaringBitmap();
    bitmap.add(start, end);
    return new DeletionVector(bitmap);
  }

  /** A vector holding the values of {@code bitmap}, which is copied. */
  public static DeletionVector fromBitmap(RoaringBitmap bitmap) {
    return new DeletionVector(bitmap.clone());
  }

  // For the codecs in this package, which build a fresh bitmap and hand it over.
  static DeletionVector adopt(RoaringBitmap bitmap) {
    return new DeletionVector(bitmap);
  }

  /** Whether {@code offset} (read as unsigned) is deleted. */
  public boolean contains(int offset) {
    return bits.contains(offset);
  }

  /** The number of deleted rows (up to 2^32, hence a {@code long}). */
  public long cardinality() {
    return bits.getLongCardinality();
  }

  /** Whether no row is deleted. */
  public boolean isEmpty() {
    return bits.isEmpty();
  }

  /** A fresh copy of the backing bitmap; changing it does not change this vector. */
  public RoaringBitmap toBitmap() {
    return bits.clone();
  }

  /** The offsets deleted here or in {@code other}. */
  public DeletionVector union(DeletionVector other) {
    return new DeletionVector(RoaringBitmap.or(bits, other.bits));
  }

  /** Whether some offset is deleted in both vectors. */
  public boolean intersects(DeletionVector other) {
    return RoaringBitmap.intersects(bits, other.bits);
  }

  /** The offsets in ascending unsigned order. */
  public int[] toArray() {
    return bits.toArray();
  }

  /** Iterates the offsets in ascending unsigned order. */
  @Override
  public PrimitiveIterator.OfInt iterator() {
    PeekableIntIterator it = bits.getIntIterator();
    return new PrimitiveIterator.OfInt() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public int nextInt() {
        if (!it.hasNext()) {
          throw new NoSuchElementException();
        }
        return it.next();
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletionVector other && bits.equals(other.bits);
  }

  @Override
  public int hashCode() {
    return bits.hashCode();
  }

  @Override
  public String toString() {
    // Bounded output: a vector can hold millions of offsets.
    StringBuilder sb = new StringBuilder("DeletionVector{cardinality=").append(cardinality());
    sb.append(", offsets=[");
    Iterator<Integer> it = iterator();
    for (int i = 0; i < 10 && it.hasNext(); i++) {
      sb.append(i == 0 ? "" : ", ").append(Integer.toUnsignedString(it.next()));
    }
    return sb.append(it.hasNext() ? ", ...]}" : "]}").toString();
  }
}
