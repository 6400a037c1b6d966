package dev.lancet.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.keys.KeyFilters.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyFiltersTest {

  private static long h(long v) {
    return KeyHasher.hash(KeyHasher.encodeSigned(v));
  }

  private static KeyExistenceFilter.Bloom bloom(long... keys) {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.createDefault();
    for (long k : keys) {
      f.insert(h(k));
    }
    return f.toModel();
  }

  @Test
  void exactSetsIntersectOnASharedHashOnly() {
    var a = new KeyExistenceFilter.Exact(List.of(h(1), h(2)));
    var b = new KeyExistenceFilter.Exact(List.of(h(3), h(2)));
    var c = new KeyExistenceFilter.Exact(List.of(h(4)));
    assertThat(KeyFilters.intersect(a, b).verdict()).isEqualTo(Verdict.SHARED_KEY);
    assertThat(KeyFilters.intersect(a, c).verdict()).isEqualTo(Verdict.DISJOINT);
    assertThat(KeyFilters.intersect(a, c).conflicts()).isFalse();
    assertThat(KeyFilters.intersect(a, new KeyExistenceFilter.Exact(List.of())).conflicts()).isFalse();
  }

  @Test
  void exactVersusBloomIsAssumedToIntersectEitherWay() {
    var exact = new KeyExistenceFilter.Exact(List.of(h(1)));
    var bloom = bloom(2); // does not contain key 1, still a conflict by rule
    assertThat(KeyFilters.intersect(exact, bloom).verdict()).isEqualTo(Verdict.ASSUMED);
    assertThat(KeyFilters.intersect(bloom, exact).verdict()).isEqualTo(Verdict.ASSUMED);
    assertThat(KeyFilters.intersect(bloom, exact).conflicts()).isTrue();
  }

  @Test
  void bloomsWithTheSameSizingUseTheSplitBlockTest() {
    assertThat(KeyFilters.intersect(bloom(1, 2), bloom(3, 4)).verdict()).isEqualTo(Verdict.DISJOINT);
    assertThat(KeyFilters.intersect(bloom(1, 2), bloom(2, 5)).verdict())
        .isEqualTo(Verdict.MAY_SHARE_KEY);
  }

  @Test
  void zeroSizingStandsForTheDefault() {
    KeyExistenceFilter.Bloom full = bloom(1);
    var zero = new KeyExistenceFilter.Bloom(bloom(1).bitmap(), full.numBits(), 0, 0.0);
    assertThat(KeyFilters.sameParameters(full, zero)).isTrue();
    assertThat(KeyFilters.intersect(full, zero).verdict()).isEqualTo(Verdict.MAY_SHARE_KEY);
  }

  @Test
  void mismatchedBloomParametersAreIncompatible() {
    KeyExistenceFilter.Bloom a = bloom(1);
    KeyExistenceFilter.Bloom b = bloom(2);
    var otherItems = new KeyExistenceFilter.Bloom(b.bitmap(), b.numBits(), 4096, b.probability());
    var otherP = new KeyExistenceFilter.Bloom(b.bitmap(), b.numBits(), b.numberOfItems(), 0.001);
    var epsilonP = new KeyExistenceFilter.Bloom(b.bitmap(), b.numBits(), b.numberOfItems(),
        Math.nextUp(b.probability()));
    var otherBits = new KeyExistenceFilter.Bloom(b.bitmap(), b.numBits() - 256,
        b.numberOfItems(), b.probability());
    assertThat(KeyFilters.intersect(a, otherItems).verdict()).isEqualTo(Verdict.INCOMPATIBLE);
    assertThat(KeyFilters.intersect(a, otherP).verdict()).isEqualTo(Verdict.INCOMPATIBLE);
    assertThat(KeyFilters.intersect(a, otherBits).verdict()).isEqualTo(Verdict.INCOMPATIBLE);
    // within machine epsilon the probabilities count as equal
    assertThat(KeyFilters.intersect(a, epsilonP).verdict()).isEqualTo(Verdict.DISJOINT);
  }

  @Test
  void invalidSplitBlockBitmapsAreIncompatible() {
    var a = new KeyExistenceFilter.Bloom(ByteString.copyFrom(new byte[16]), 128, 8192, 0.00057);
    var b = new KeyExistenceFilter.Bloom(ByteString.copyFrom(new byte[16]), 128, 8192, 0.00057);
    assertThat(KeyFilters.intersect(a, b).verdict()).isEqualTo(Verdict.INCOMPATIBLE);
  }
}
