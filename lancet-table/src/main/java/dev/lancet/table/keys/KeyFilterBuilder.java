package dev.lancet.table.keys;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.keys.KeyHasher;
import dev.lancet.core.keys.SplitBlockBloomFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Builds a {@link KeyExistenceFilter} from Arrow key columns (v2-semantics §4.4).
 *
 * <p>Each row's key is the values of the key columns in that row, encoded and hashed by
 * {@link KeyHasher}: one column gives a scalar key, several give a composite key. A row with a
 * null in any key column has no key and is skipped. Supported column types: Utf8 / LargeUtf8,
 * Int8–Int64 (widened to i64), UInt8–UInt64 (zero-extended to u64), Binary / LargeBinary and
 * FixedSizeBinary.
 *
 * <p>The result is an exact set of the distinct key hashes (sorted ascending) when there are at
 * most {@code exactThreshold} of them (default 10,000), otherwise a split-block Bloom filter with
 * the default sizing (8192 items at 0.00057). The sizing is fixed rather than fitted to the key
 * count because Bloom filters of different sizing cannot be compared and so always conflict; a
 * filter holding more keys than it was sized for has a higher false-positive rate (more spurious
 * conflicts), never false negatives.
 *
 * <p>Batches may be added one after another; the builder is not thread-safe.
 */
public final class KeyFilterBuilder {

  /** The default largest number of distinct keys kept as an exact set. */
  public static final int DEFAULT_EXACT_THRESHOLD = 10_000;

  private final int exactThreshold;
  // The exact set while it lasts: hashes appended unsorted, sorted and deduplicated in place
  // whenever the buffer fills (primitive longs: no boxing, no tree per key).
  private long[] exact = new long[16];
  private int exactCount;
  private SplitBlockBloomFilter bloom;

  public KeyFilterBuilder() {
    this(DEFAULT_EXACT_THRESHOLD);
  }

  public KeyFilterBuilder(int exactThreshold) {
    if (exactThreshold < 0) {
      throw new IllegalArgumentException("exactThreshold must not be negative: " + exactThreshold);
    }
    this.exactThreshold = exactThreshold;
  }

  /** The filter over the keys of the given columns, with the default threshold. */
  public static KeyExistenceFilter build(List<? extends FieldVector> keyColumns) {
    return new KeyFilterBuilder().add(keyColumns).build();
  }

  /**
   * Adds the keys of one batch: the key columns in key order, all of the same value count.
   *
   * @throws IllegalArgumentException when there are no columns, their lengths differ, or a column
   *     type is not supported
   */
  public KeyFilterBuilder add(List<? extends FieldVector> keyColumns) {
    forEachKeyHash(keyColumns, this::addHash);
    return this;
  }

  /**
   * Hands the key hash of every row of one batch that has a key (no null in a key column) to
   * {@code sink}, in row order: for engines whose workers hash keys and whose coordinator builds
   * the filter ({@link #addHash}).
   *
   * @throws IllegalArgumentException when there are no columns, their lengths differ, or a column
   *     type is not supported
   */
  public static void forEachKeyHash(List<? extends FieldVector> keyColumns,
      java.util.function.LongConsumer sink) {
    forEachKeyHash(keyColumns, (row, hash) -> sink.accept(hash));
  }

  /** A row's key hash, with the row it came from. */
  @FunctionalInterface
  public interface RowKeyHash {
    void accept(int row, long hash);
  }

  /** {@link #forEachKeyHash(List, java.util.function.LongConsumer)}, naming each hash's row. */
  public static void forEachKeyHash(List<? extends FieldVector> keyColumns, RowKeyHash sink) {
    if (keyColumns.isEmpty()) {
      throw new IllegalArgumentException("at least one key column is required");
    }
    int rows = keyColumns.get(0).getValueCount();
    for (FieldVector v : keyColumns) {
      if (v.getValueCount() != rows) {
        throw new IllegalArgumentException("key columns differ in length: " + rows + " vs "
            + v.getValueCount() + " (" + v.getName() + ")");
      }
      checkSupported(v);
    }
    if (keyColumns.size() == 1 && isInteger(keyColumns.get(0))) {
      // One integer column, the commonest key: its 8 bytes in one reused array (a new array and
      // list per row were most of hashing a merge insert's keys).
      FieldVector v = keyColumns.get(0);
      byte[] bytes = new byte[8];
      for (int row = 0; row < rows; row++) {
        if (!v.isNull(row)) {
          KeyHasher.littleEndian(integer(v, row), bytes);
          sink.accept(row, KeyHasher.hash(bytes));
        }
      }
      return;
    }
    List<byte[]> parts = new ArrayList<>(keyColumns.size());
    for (int row = 0; row < rows; row++) {
      parts.clear();
      for (FieldVector v : keyColumns) {
        parts.add(encode(v, row));
      }
      OptionalLong hash = KeyHasher.hashKey(parts);
      if (hash.isPresent()) {
        sink.accept(row, hash.getAsLong());
      }
    }
  }

  /** Adds one key hash (as {@link #forEachKeyHash} gives them). */
  public KeyFilterBuilder addHash(long hash) {
    if (bloom != null) {
      bloom.insert(hash);
      return this;
    }
    if (exactCount == exact.length) {
      compact();
      if (exactCount > exactThreshold) {
        toBloom();
        bloom.insert(hash);
        return this;
      }
      if (exactCount * 2 > exact.length) {
        exact = java.util.Arrays.copyOf(exact, exact.length * 2);
      }
    }
    exact[exactCount++] = hash;
    return this;
  }

  /** Sorts and deduplicates the exact buffer in place. */
  private void compact() {
    java.util.Arrays.sort(exact, 0, exactCount);
    int out = 0;
    for (int i = 0; i < exactCount; i++) {
      if (out == 0 || exact[i] != exact[out - 1]) {
        exact[out++] = exact[i];
      }
    }
    exactCount = out;
  }

  private void toBloom() {
    bloom = SplitBlockBloomFilter.createDefault();
    for (int i = 0; i < exactCount; i++) {
      bloom.insert(exact[i]);
    }
    exact = null;
  }

  /** The filter over every key added so far. */
  public KeyExistenceFilter build() {
    if (bloom == null) {
      compact();
      if (exactCount > exactThreshold) {
        toBloom();
      }
    }
    if (bloom != null) {
      return bloom.toModel();
    }
    List<Long> hashes = new ArrayList<>(exactCount);
    for (int i = 0; i < exactCount; i++) {
      hashes.add(exact[i]);
    }
    return new KeyExistenceFilter.Exact(hashes);
  }

  private static void checkSupported(FieldVector v) {
    if (!(v instanceof VarCharVector || v instanceof LargeVarCharVector
        || v instanceof TinyIntVector || v instanceof SmallIntVector || v instanceof IntVector
        || v instanceof BigIntVector || v instanceof UInt1Vector || v instanceof UInt2Vector
        || v instanceof UInt4Vector || v instanceof UInt8Vector || v instanceof VarBinaryVector
        || v instanceof LargeVarBinaryVector || v instanceof FixedSizeBinaryVector)) {
      throw new IllegalArgumentException("unsupported key column type " + v.getField().getType()
          + " (" + v.getName() + ")");
    }
  }

  /**
   * The bytes of the key of row {@code row} of the key columns (as hashed into the filter: one
   * column's value, or the composite encoding of several), or null when a key column is null
   * there. Equal keys have equal bytes, so they serve as a lookup key for matching rows.
   */
  public static byte[] keyBytes(List<? extends FieldVector> keyColumns, int row) {
    if (keyColumns.size() == 1) {
      return encode(keyColumns.get(0), row);
    }
    List<byte[]> parts = new ArrayList<>(keyColumns.size());
    for (FieldVector v : keyColumns) {
      parts.add(encode(v, row));
    }
    return KeyHasher.encodeComposite(parts);
  }

  /** Whether a column of this type can be a key column. */
  public static boolean supports(FieldVector v) {
    try {
      checkSupported(v);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isInteger(FieldVector v) {
    return v instanceof TinyIntVector || v instanceof SmallIntVector || v instanceof IntVector
        || v instanceof BigIntVector || v instanceof UInt1Vector || v instanceof UInt2Vector
        || v instanceof UInt4Vector || v instanceof UInt8Vector;
  }

  /** An integer key's u64 bits (§4.4): signed ones sign-extended, unsigned ones zero-extended. */
  private static long integer(FieldVector v, int row) {
    if (v instanceof TinyIntVector i) {
      return i.get(row);
    }
    if (v instanceof SmallIntVector i) {
      return i.get(row);
    }
    if (v instanceof IntVector i) {
      return i.get(row);
    }
    if (v instanceof BigIntVector i) {
      return i.get(row);
    }
    if (v instanceof UInt1Vector u) {
      return u.get(row) & 0xFFL;
    }
    if (v instanceof UInt2Vector u) {
      return u.get(row); // char: already zero-extended
    }
    if (v instanceof UInt4Vector u) {
      return u.get(row) & 0xFFFFFFFFL;
    }
    return ((UInt8Vector) v).get(row);
  }

  /** The §4.4 bytes of one value, or null when it is null. */
  static byte[] encode(FieldVector v, int row) {
    if (v.isNull(row)) {
      return null;
    }
    if (v instanceof VarCharVector s) {
      return s.get(row); // UTF-8 bytes as stored
    }
    if (v instanceof LargeVarCharVector s) {
      return s.get(row);
    }
    if (isInteger(v)) {
      return KeyHasher.encodeSigned(integer(v, row)); // the same 8 bytes as encodeUnsigned's
    }
    if (v instanceof VarBinaryVector b) {
      return b.get(row);
    }
    if (v instanceof LargeVarBinaryVector b) {
      return b.get(row);
    }
    if (v instanceof FixedSizeBinaryVector b) {
      return b.get(row);
    }
    throw new IllegalArgumentException("unsupported key column type " + v.getField().getType());
  }
}
