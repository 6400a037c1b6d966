package dev.lancet.core.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.action.KeyExistenceFilter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class SplitBlockBloomFilterTest {

  @Test
  void defaultSizingFollowsTheOptimalBitsFormulaInWholeBlocks() {
    // -8 * 8192 / ln(1 - 0.00057^(1/8)) = 131,2xx bits -> 513 blocks of 256 bits.
    SplitBlockBloomFilter f = SplitBlockBloomFilter.createDefault();
    assertThat(f.numBlocks()).isEqualTo(513);
    assertThat(f.numBits()).isEqualTo(513 * 256);
    assertThat(f.toBytes()).hasSize(513 * 32);
    assertThat(SplitBlockBloomFilter.numBlocks(1, 0.5)).isEqualTo(1);
  }

  @Test
  void insertingSetsExactlyOneBitPerWordOfOneBlock() {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.create(100, 0.01);
    f.insert(0x0123456789ABCDEFL);
    byte[] bytes = f.toBytes();
    int total = 0;
    int blocksTouched = 0;
    for (int block = 0; block < f.numBlocks(); block++) {
      int inBlock = 0;
      for (int w = 0; w < 8; w++) {
        int off = block * 32 + w * 4;
        int word = (bytes[off] & 0xFF) | (bytes[off + 1] & 0xFF) << 8
            | (bytes[off + 2] & 0xFF) << 16 | (bytes[off + 3] & 0xFF) << 24;
        if (word != 0) {
          assertThat(Integer.bitCount(word)).isEqualTo(1);
          inBlock++;
        }
      }
      total += inBlock;
      if (inBlock > 0) {
        blocksTouched++;
      }
    }
    assertThat(total).isEqualTo(8);
    assertThat(blocksTouched).isEqualTo(1);
  }

  @Property
  void noFalseNegatives(@ForAll @Size(max = 2000) List<Long> hashes) {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.create(Math.max(1, hashes.size()), 0.01);
    hashes.forEach(f::insert);
    for (long h : hashes) {
      assertThat(f.mightContain(h)).isTrue();
    }
  }

  @Property
  void filtersSharingAHashMightIntersect(@ForAll List<Long> a, @ForAll List<Long> b,
      @ForAll long shared) {
    SplitBlockBloomFilter fa = SplitBlockBloomFilter.create(256, 0.001);
    SplitBlockBloomFilter fb = SplitBlockBloomFilter.create(256, 0.001);
    a.forEach(fa::insert);
    b.forEach(fb::insert);
    fa.insert(shared);
    fb.insert(shared);
    assertThat(fa.mightIntersect(fb)).isTrue();
    assertThat(fb.mightIntersect(fa)).isTrue();
  }

  @Test
  void smallDisjointFiltersDoNotIntersect() {
    SplitBlockBloomFilter fa = SplitBlockBloomFilter.createDefault();
    SplitBlockBloomFilter fb = SplitBlockBloomFilter.createDefault();
    fa.insert(KeyHasher.hash(KeyHasher.encodeSigned(1)));
    fb.insert(KeyHasher.hash(KeyHasher.encodeSigned(2)));
    assertThat(fa.mightIntersect(fb)).isFalse();
    assertThat(SplitBlockBloomFilter.createDefault().mightIntersect(fa)).isFalse();
  }

  @Test
  void filtersOfDifferentSizeCannotBeIntersected() {
    assertThatThrownBy(() -> SplitBlockBloomFilter.create(10, 0.01)
        .mightIntersect(SplitBlockBloomFilter.createDefault()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Property
  void serializationRoundTrips(@ForAll @Size(max = 500) List<Long> hashes) {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.create(500, 0.001);
    hashes.forEach(f::insert);
    SplitBlockBloomFilter back = SplitBlockBloomFilter.fromBytes(f.toBytes(), 500, 0.001);
    assertThat(back).isEqualTo(f);
    assertThat(back.toBytes()).isEqualTo(f.toBytes());
    KeyExistenceFilter.Bloom model = f.toModel();
    assertThat(model.numBits()).isEqualTo(f.numBits());
    assertThat(model.numberOfItems()).isEqualTo(500);
    assertThat(model.probability()).isEqualTo(0.001);
    assertThat(model.bitmap().toByteArray()).isEqualTo(f.toBytes());
    assertThat(SplitBlockBloomFilter.fromModel(model)).isEqualTo(f);
  }

  @Test
  void wireWordsAreLittleEndian() {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.create(1, 0.5);
    f.insert(0L); // lower 32 bits 0: every salt product is 0 -> bit 0 of each word of block 0
    assertThat(f.toBytes()).containsExactly(
        1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
        1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0);
  }

  @Test
  void malformedBitmapsAreRejected() {
    assertThatThrownBy(() -> SplitBlockBloomFilter.fromBytes(new byte[31], 8192, 0.00057))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SplitBlockBloomFilter.fromBytes(new byte[0], 8192, 0.00057))
        .isInstanceOf(IllegalArgumentException.class);
    KeyExistenceFilter.Bloom wrongBits = new KeyExistenceFilter.Bloom(
        com.google.protobuf.ByteString.copyFrom(new byte[32]), 128, 8192, 0.00057);
    assertThatThrownBy(() -> SplitBlockBloomFilter.fromModel(wrongBits))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void measuredFalsePositiveRateIsNearTheTarget() {
    double target = KeyExistenceFilter.DEFAULT_PROBABILITY;
    SplitBlockBloomFilter f = SplitBlockBloomFilter.createDefault();
    SplittableRandom random = new SplittableRandom(20261130L);
    Set<Long> inserted = new HashSet<>();
    while (inserted.size() < 8192) {
      long key = random.nextLong();
      if (inserted.add(key)) {
        f.insert(KeyHasher.hash(KeyHasher.encodeSigned(key)));
      }
    }
    int probes = 0;
    int positives = 0;
    while (probes < 200_000) {
      long key = random.nextLong();
      if (inserted.contains(key)) {
        continue;
      }
      probes++;
      if (f.mightContain(KeyHasher.hash(KeyHasher.encodeSigned(key)))) {
        positives++;
      }
    }
    double rate = (double) positives / probes;
    System.out.printf("SBBF measured false-positive rate: %d / %d = %.6f (target %.5f, %d bits)%n",
        positives, probes, rate, target, f.numBits());
    assertThat(rate).isLessThan(3 * target);
    assertThat(positives).isGreaterThan(0); // the filter is not trivially exact
  }
}
