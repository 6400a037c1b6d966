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
 * assertions always collide with a concurrent insert. The rule that uses them is in
 * {@link Conflicts} (matched per key-column set; any in-place write of a key column violates).
 */
public record KeyAssertion(List<Ref> keyFields, KeyExistenceFilter filter) {

  public KeyAssertion {
    keyFields = List.copyOf(keyFields);
    Objects.requireNonNull(filter, "filter");
  }

  /**
   * Whether {@code other} (from another transaction) is over the same key-column set, so that
   * the two filters hash the same values and can be compared. Compared as ordered lists of
   * refs across two transactions: a {@link Ref.Local} never matches (see
   * {@link CrossTransactionRefs}).
   */
  public boolean sameKeyColumns(KeyAssertion other) {
    return CrossTransactionRefs.same(keyFields, other.keyFields);
  }

  /**
   * Why this assertion's filter and {@code other}'s (over the same key columns) may share a
   * key, or empty when they provably do not.
   */
  public java.util.Optional<String> mayShareAKeyWith(KeyAssertion other) {
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
