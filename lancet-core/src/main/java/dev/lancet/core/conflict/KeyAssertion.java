package dev.lancet.core.conflict;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import dev.lancet.core.keys.KeyFilters;
import dev.lancet.core.keys.SplitBlockBloomFilter;
import java.util.List;
import java.util.Objects;

/**
 * A transaction's claim that the keys it inserted under {@code keyFields} are unique
 * (v2-semantics §4.4). The refs are kept as the action gave them; comparing key columns across
 * two transactions is conservative: any {@link Ref.Local} key column counts as different from
 * every key column of the other transaction (see {@link CrossTransactionRefs}), so such
 * assertions always collide with a concurrent insert.
 */
public record KeyAssertion(List<Ref> keyFields, KeyExistenceFilter filter) {

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
   * Whether two key filters may share a key, with the reason; empty when they cannot. Decided by
   * {@link KeyFilters#intersect}: Exact vs Exact: a shared hash. Exact vs Bloom: assumed to
   * intersect (different hash schemes). Bloom vs Bloom: parameters that differ (number of items,
   * probability, bit count or bitmap length) cannot be compared and count as intersecting;
   * otherwise the split-block might-intersect test.
   *
   * <p>One exception is kept from before the split-block test existed: two Bloom filters with
   * equal parameters whose bitmaps are empty or not whole 32-byte blocks (not split-block bitmaps)
   * are compared conservatively by whether they share any set bit, rather than being rejected.
   */
  static java.util.Optional<String> intersection(KeyExistenceFilter a, KeyExistenceFilter b) {
    if (a instanceof KeyExistenceFilter.Bloom ba && b instanceof KeyExistenceFilter.Bloom bb
        && ba.bitmap().size() == bb.bitmap().size()
        && (ba.bitmap().isEmpty() || ba.bitmap().size() % SplitBlockBloomFilter.BLOCK_BYTES != 0)) {
      if (!KeyFilters.sameParameters(ba, bb)) {
        return java.util.Optional.of(
            "their Bloom filters have different parameters and cannot be compared");
      }
      for (int i = 0; i < ba.bitmap().size(); i++) {
        if ((ba.bitmap().byteAt(i) & bb.bitmap().byteAt(i)) != 0) {
          return java.util.Optional.of("their Bloom filters may share a key");
        }
      }
      return java.util.Optional.empty();
    }
    KeyFilters.Intersection result = KeyFilters.intersect(a, b);
    return result.conflicts() ? java.util.Optional.of(result.reason()) : java.util.Optional.empty();
  }
}
