package dev.lancet.core.keys;

import dev.lancet.core.action.KeyExistenceFilter;
import java.util.HashSet;
import java.util.Set;

/**
 * The intersection test between two key existence filters (v2-semantics §4.4,
 * {@code KeyExistenceFilter::intersects}). Anything other than {@link Verdict#DISJOINT} is a
 * conflict.
 *
 * <ul>
 *   <li>Exact vs Exact: a shared hash, never a false positive.
 *   <li>Exact vs Bloom (either order): <b>assumed to intersect</b>, the spec's conservative rule.
 *       Within Lancet both sides hash with {@link KeyHasher}, so probing the Bloom filter with each
 *       exact hash would be more precise, but a filter read from a transaction file may come from
 *       a foreign writer whose hash function is unknown (the spec does not pin upstream's), and
 *       the filter carries no hash-scheme marker, so the precise check is not safe in general.
 *   <li>Bloom vs Bloom: a different number of items, a probability differing by more than machine
 *       epsilon, a different {@code num_bits}, or a bitmap that is not a valid split-block bitmap
 *       ({@code num_bits} ≠ bitmap bits, not whole 32-byte blocks) makes them incompatible, which
 *       is a conflict. Otherwise {@link SplitBlockBloomFilter#mightIntersect}. A zero number of
 *       items or probability stands for the default (8192 / 0.00057).
 * </ul>
 */
public final class KeyFilters {

  /** The largest difference between two false-positive probabilities treated as equal. */
  public static final double PROBABILITY_EPSILON = Math.ulp(1.0);

  private KeyFilters() {}

  public enum Verdict {
    /** The filters provably share no key. */
    DISJOINT,
    /** The filters share a key hash (exact sets; no false positive). */
    SHARED_KEY,
    /** The Bloom filters may share a key (possibly a false positive). */
    MAY_SHARE_KEY,
    /** An exact set and a Bloom filter, which are assumed to intersect. */
    ASSUMED,
    /** The filters cannot be compared (the spec's error case), which counts as a conflict. */
    INCOMPATIBLE
  }

  /** The outcome of an intersection test, with a human-readable reason. */
  public record Intersection(Verdict verdict, String reason) {
    /** Whether this outcome is a conflict (anything but {@link Verdict#DISJOINT}). */
    public boolean conflicts() {
      return verdict != Verdict.DISJOINT;
    }
  }

  public static Intersection intersect(KeyExistenceFilter a, KeyExistenceFilter b) {
    if (a instanceof KeyExistenceFilter.Exact ea && b instanceof KeyExistenceFilter.Exact eb) {
      Set<Long> mine = new HashSet<>(ea.keyHashes());
      for (Long h : eb.keyHashes()) {
        if (mine.contains(h)) {
          return new Intersection(Verdict.SHARED_KEY,
              "both inserted a key with hash " + Long.toHexString(h));
        }
      }
      return new Intersection(Verdict.DISJOINT, "the exact key sets share no hash");
    }
    if (a instanceof KeyExistenceFilter.Bloom ba && b instanceof KeyExistenceFilter.Bloom bb) {
      return intersectBlooms(ba, bb);
    }
    return new Intersection(Verdict.ASSUMED,
        "an exact key set cannot be compared with a Bloom filter");
  }

  /**
   * The key hashes two exact sets share, in {@code a}'s order (each once); empty when either
   * filter is a Bloom filter, which cannot name its keys.
   */
  public static java.util.List<Long> sharedKeyHashes(KeyExistenceFilter a, KeyExistenceFilter b) {
    if (!(a instanceof KeyExistenceFilter.Exact ea) || !(b instanceof KeyExistenceFilter.Exact eb)) {
      return java.util.List.of();
    }
    Set<Long> theirs = new HashSet<>(eb.keyHashes());
    Set<Long> shared = new java.util.LinkedHashSet<>();
    for (Long h : ea.keyHashes()) {
      if (theirs.contains(h)) {
        shared.add(h);
      }
    }
    return java.util.List.copyOf(shared);
  }

  private static Intersection intersectBlooms(KeyExistenceFilter.Bloom a, KeyExistenceFilter.Bloom b) {
    if (!sameParameters(a, b)) {
      return new Intersection(Verdict.INCOMPATIBLE,
          "their Bloom filters have different parameters and cannot be compared");
    }
    SplitBlockBloomFilter fa;
    SplitBlockBloomFilter fb;
    try {
      fa = SplitBlockBloomFilter.fromModel(a);
      fb = SplitBlockBloomFilter.fromModel(b);
    } catch (IllegalArgumentException e) {
      return new Intersection(Verdict.INCOMPATIBLE,
          "a Bloom filter is not a valid split-block filter (" + e.getMessage() + ")");
    }
    return fa.mightIntersect(fb)
        ? new Intersection(Verdict.MAY_SHARE_KEY, "their Bloom filters may share a key")
        : new Intersection(Verdict.DISJOINT, "their Bloom filters share no key");
  }

  /**
   * Whether two Bloom filters were built with the same parameters (number of items, probability
   * within machine epsilon, {@code num_bits}, bitmap length), zero sizing standing for the
   * default. Filters with different parameters cannot be compared.
   */
  public static boolean sameParameters(KeyExistenceFilter.Bloom a, KeyExistenceFilter.Bloom b) {
    return items(a) == items(b) && Math.abs(probability(a) - probability(b)) <= PROBABILITY_EPSILON
        && a.numBits() == b.numBits() && a.bitmap().size() == b.bitmap().size();
  }

  /** The number of items a Bloom filter was sized for; zero stands for the default. */
  static long items(KeyExistenceFilter.Bloom b) {
    return b.numberOfItems() == 0 ? KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS : b.numberOfItems();
  }

  /** The probability a Bloom filter was sized for; zero stands for the default. */
  static double probability(KeyExistenceFilter.Bloom b) {
    return b.probability() == 0 ? KeyExistenceFilter.DEFAULT_PROBABILITY : b.probability();
  }
}
