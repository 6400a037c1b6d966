package dev.lancet.core.conflict;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.HashSet;

/**
 * A transaction's claim that the keys it inserted under {@code keyFields} are unique
 * (v2-semantics §4.4). The refs are kept as the action gave them; comparing key columns across
 * two transactions is conservative: any {@link Ref.Local} key column counts as different from
 * every key column of the other transaction (see {@link CrossTransactionRefs}), so such
 * assertions always collide with a concurrent insert.
 */
public record KeyAssertion(List<Ref> keyFields, KeyExistenceFilter filter) {

  /** The largest difference between two false-positive probabilities treated as equal. */
  static final double PROBABILITY_EPSILON = Math.ulp(1.0);

  public KeyAssertion {
    keyFields = List.copyOf(keyFields);
    Objects.requireNonNull(filter, "filter");
  }

  /**
   * Why this assertion and {@code other} (from another transaction) may collide, or empty when
   * they provably cannot: different key columns, a shared key, or filters that cannot be
   * compared.
   */
  public java.util.Optional<String> collision(KeyAssertion other) {
    if (!CrossTransactionRefs.same(keyFields, other.keyFields)) {
      return java.util.Optional.of("the assertions are over different key columns ("
          + keyFields + " vs " + other.keyFields + "), so their key hashes cannot be compared");
    }
    return intersection(filter, other.filter);
  }

  /**
   * Whether two key filters may share a key, with the reason; empty when they cannot.
   * Exact vs Exact: a shared hash. Exact vs Bloom: assumed to intersect (different hash
   * schemes). Bloom vs Bloom: parameters that differ (number of items, probability, bit count
   * or bitmap length) cannot be compared and count as intersecting; otherwise the filters are
   * conservatively taken to intersect when their bitmaps share any set bit (a superset of the
   * split-block might-intersect test).
   */
  static java.util.Optional<String> intersection(KeyExistenceFilter a, KeyExistenceFilter b) {
    if (a instanceof KeyExistenceFilter.Exact ea && b instanceof KeyExistenceFilter.Exact eb) {
      Set<Long> mine = new HashSet<>(ea.keyHashes());
      for (Long h : eb.keyHashes()) {
        if (mine.contains(h)) {
          return java.util.Optional.of("both inserted a key with hash " + Long.toHexString(h));
        }
      }
      return java.util.Optional.empty();
    }
    if (a instanceof KeyExistenceFilter.Bloom ba && b instanceof KeyExistenceFilter.Bloom bb) {
      long itemsA = ba.numberOfItems() == 0 ? KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS : ba.numberOfItems();
      long itemsB = bb.numberOfItems() == 0 ? KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS : bb.numberOfItems();
      double pA = ba.probability() == 0 ? KeyExistenceFilter.DEFAULT_PROBABILITY : ba.probability();
      double pB = bb.probability() == 0 ? KeyExistenceFilter.DEFAULT_PROBABILITY : bb.probability();
      if (itemsA != itemsB || Math.abs(pA - pB) > PROBABILITY_EPSILON
          || ba.numBits() != bb.numBits() || ba.bitmap().size() != bb.bitmap().size()) {
        return java.util.Optional.of("their Bloom filters have different parameters and cannot be compared");
      }
      for (int i = 0; i < ba.bitmap().size(); i++) {
        if ((ba.bitmap().byteAt(i) & bb.bitmap().byteAt(i)) != 0) {
          return java.util.Optional.of("their Bloom filters may share a key");
        }
      }
      return java.util.Optional.empty();
    }
    return java.util.Optional.of("an exact key set cannot be compared with a Bloom filter");
  }
}
