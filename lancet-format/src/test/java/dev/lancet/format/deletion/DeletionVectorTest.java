package dev.lancet.format.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class DeletionVectorTest {

  @Test
  void ofIgnoresOrderAndDuplicates() {
    DeletionVector v = DeletionVector.of(7, 3, 7, 0);
    assertThat(v.cardinality()).isEqualTo(3);
    assertThat(v.contains(3)).isTrue();
    assertThat(v.contains(4)).isFalse();
    assertThat(v.toArray()).containsExactly(0, 3, 7);
    assertThat(v).isEqualTo(DeletionVector.of(0, 3, 7));
  }

  @Test
  void emptyHasNothing() {
    assertThat(DeletionVector.empty().isEmpty()).isTrue();
    assertThat(DeletionVector.empty().cardinality()).isZero();
    assertThat(DeletionVector.empty().iterator().hasNext()).isFalse();
    assertThat(DeletionVector.of()).isEqualTo(DeletionVector.empty());
  }

  @Test
  void iteratesInAscendingUnsignedOrder() {
    // -1 is offset 2^32-1, the largest u32.
    DeletionVector v = DeletionVector.of(-1, 5, Integer.MAX_VALUE, 1);
    List<Integer> seen = new ArrayList<>();
    v.forEach(seen::add);
    assertThat(seen).containsExactly(1, 5, Integer.MAX_VALUE, -1);
  }

  @Test
  void unionAndIntersects() {
    DeletionVector a = DeletionVector.of(1, 2, 3);
    DeletionVector b = DeletionVector.of(3, 4);
    DeletionVector c = DeletionVector.of(10);
    assertThat(a.union(b).toArray()).containsExactly(1, 2, 3, 4);
    assertThat(a.intersects(b)).isTrue();
    assertThat(a.intersects(c)).isFalse();
    // union leaves its inputs unchanged
    assertThat(a.toArray()).containsExactly(1, 2, 3);
  }

  @Test
  void bitmapsAreCopiedInAndOut() {
    RoaringBitmap source = RoaringBitmap.bitmapOf(1, 2);
    DeletionVector v = DeletionVector.fromBitmap(source);
    source.add(99);
    RoaringBitmap out = v.toBitmap();
    out.add(100);
    assertThat(v.toArray()).containsExactly(1, 2);
  }

  @Test
  void ofRangeCoversHalfOpenInterval() {
    DeletionVector v = DeletionVector.ofRange(10, 13);
    assertThat(v.toArray()).containsExactly(10, 11, 12);
    assertThat(DeletionVector.ofRange(0x1_0000_0000L - 1, 0x1_0000_0000L).toArray()).containsExactly(-1);
    assertThatThrownBy(() -> DeletionVector.ofRange(5, 4)).isInstanceOf(IllegalArgumentException.class);
  }
}
