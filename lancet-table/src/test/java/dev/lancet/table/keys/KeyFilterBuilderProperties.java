package dev.lancet.table.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.keys.SplitBlockBloomFilter;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Whatever the order and repetition of the hashes added, the builder gives the sorted distinct
 * hashes exactly when there are at most the threshold of them, and otherwise a Bloom filter
 * holding every one: checked against a sorted set of the same hashes.
 */
class KeyFilterBuilderProperties {

  @Property(tries = 400)
  void theFilterIsTheDistinctHashesUpToTheThresholdElseABloomFilterOfThem(
      @ForAll @Size(max = 400) List<@LongRange(min = -150, max = 150) Long> hashes,
      @ForAll @IntRange(min = 0, max = 200) int threshold,
      @ForAll @IntRange(min = 1, max = 400) int buildAfter) {
    KeyFilterBuilder b = new KeyFilterBuilder(threshold);
    TreeSet<Long> model = new TreeSet<>();
    for (int i = 0; i < hashes.size(); i++) {
      b.addHash(hashes.get(i));
      model.add(hashes.get(i));
      if (i + 1 == buildAfter) {
        check(b.build(), model, threshold); // a build midway leaves the builder usable
      }
    }
    check(b.build(), model, threshold);
  }

  private static void check(KeyExistenceFilter f, TreeSet<Long> model, int threshold) {
    if (model.size() <= threshold) {
      assertThat(f).isInstanceOf(KeyExistenceFilter.Exact.class);
      assertThat(((KeyExistenceFilter.Exact) f).keyHashes()).containsExactlyElementsOf(model);
    } else {
      assertThat(f).isInstanceOf(KeyExistenceFilter.Bloom.class);
      SplitBlockBloomFilter bloom = SplitBlockBloomFilter.fromModel((KeyExistenceFilter.Bloom) f);
      for (long h : model) {
        assertThat(bloom.mightContain(h)).as("hash %d", h).isTrue();
      }
    }
  }
}
