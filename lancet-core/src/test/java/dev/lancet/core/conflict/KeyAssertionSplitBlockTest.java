package dev.lancet.core.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.Ref;
import dev.lancet.core.keys.KeyHasher;
import dev.lancet.core.keys.SplitBlockBloomFilter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Key assertions over real split-block Bloom filters go through the block-wise test. */
class KeyAssertionSplitBlockTest {

  private static KeyAssertion assertion(long... keys) {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.createDefault();
    for (long k : keys) {
      f.insert(KeyHasher.hash(KeyHasher.encodeSigned(k)));
    }
    return new KeyAssertion(List.of(Ref.committed(0)), f.toModel());
  }

  @Test
  void bloomsSharingABitButNoWholeBlockDoNotCollide() {
    // Find a key whose filter shares a set bit with key 1's filter, though not all eight words
    // of a block: the old byte-wise test called that a collision, the split-block test does not.
    KeyAssertion one = assertion(1);
    byte[] oneBits = ((KeyExistenceFilter.Bloom) one.filter()).bitmap().toByteArray();
    KeyAssertion found = null;
    for (long k = 2; k < 1_000_000 && found == null; k++) {
      KeyAssertion other = assertion(k);
      byte[] bits = ((KeyExistenceFilter.Bloom) other.filter()).bitmap().toByteArray();
      for (int i = 0; i < bits.length; i++) {
        if ((bits[i] & oneBits[i]) != 0) {
          SplitBlockBloomFilter a = SplitBlockBloomFilter.fromModel((KeyExistenceFilter.Bloom) one.filter());
          SplitBlockBloomFilter b = SplitBlockBloomFilter.fromModel((KeyExistenceFilter.Bloom) other.filter());
          if (!a.mightIntersect(b)) {
            found = other;
          }
          break;
        }
      }
    }
    assertThat(found).isNotNull();
    assertThat(one.mayShareAKeyWith(found)).isEmpty();
    assertThat(assertion(1, 2).mayShareAKeyWith(assertion(3, 4))).isEmpty();
  }

  @Test
  void bloomsSharingAKeyCollide() {
    assertThat(assertion(1, 2).mayShareAKeyWith(assertion(2, 9))).hasValueSatisfying(
        why -> assertThat(why).contains("may share a key"));
  }

  @Test
  void anExactSetAgainstABloomCollides() {
    KeyAssertion exact = new KeyAssertion(List.of(Ref.committed(0)),
        new KeyExistenceFilter.Exact(List.of(KeyHasher.hash(KeyHasher.encodeSigned(7)))));
    assertThat(exact.mayShareAKeyWith(assertion(8))).isPresent();
  }
}
