package dev.lancet.table.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.keys.KeyFilters;
import dev.lancet.core.keys.KeyHasher;
import dev.lancet.core.keys.SplitBlockBloomFilter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeyFilterBuilderTest {

  private BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close(); // fails the test if a vector leaked
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private VarCharVector strings(String name, String... values) {
    VarCharVector v = new VarCharVector(name, allocator);
    v.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        v.setNull(i);
      } else {
        v.setSafe(i, utf8(values[i]));
      }
    }
    v.setValueCount(values.length);
    return v;
  }

  private static List<Long> hashes(KeyExistenceFilter f) {
    assertThat(f).isInstanceOf(KeyExistenceFilter.Exact.class);
    return ((KeyExistenceFilter.Exact) f).keyHashes();
  }

  @Test
  void stringKeysHashTheirUtf8AndNullsAreSkipped() {
    try (VarCharVector v = strings("k", "a", null, "é", "a")) {
      List<Long> got = hashes(KeyFilterBuilder.build(List.of(v)));
      assertThat(got).containsExactlyInAnyOrder(KeyHasher.hash(utf8("a")), KeyHasher.hash(utf8("é")));
    }
  }

  @Test
  void largeUtf8HashesLikeUtf8() {
    try (VarCharVector v = strings("k", "x", "y");
        LargeVarCharVector l = new LargeVarCharVector("l", allocator)) {
      l.allocateNew(2);
      l.setSafe(0, utf8("x"));
      l.setSafe(1, utf8("y"));
      l.setValueCount(2);
      assertThat(KeyFilterBuilder.build(List.of(l))).isEqualTo(KeyFilterBuilder.build(List.of(v)));
    }
  }

  @Test
  void everySignedWidthHashesLikeTheWidenedInt64() {
    try (TinyIntVector i8 = new TinyIntVector("a", allocator);
        SmallIntVector i16 = new SmallIntVector("b", allocator);
        IntVector i32 = new IntVector("c", allocator);
        BigIntVector i64 = new BigIntVector("d", allocator)) {
      i8.allocateNew(2);
      i16.allocateNew(2);
      i32.allocateNew(2);
      i64.allocateNew(2);
      i8.set(0, -5);
      i16.set(0, -5);
      i32.set(0, -5);
      i64.set(0, -5L);
      i8.set(1, 100);
      i16.set(1, 100);
      i32.set(1, 100);
      i64.set(1, 100L);
      for (var v : List.of(i8, i16, i32, i64)) {
        v.setValueCount(2);
      }
      List<Long> expected = List.of(KeyHasher.hash(KeyHasher.encodeSigned(-5)),
          KeyHasher.hash(KeyHasher.encodeSigned(100)));
      assertThat(hashes(KeyFilterBuilder.build(List.of(i8)))).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(hashes(KeyFilterBuilder.build(List.of(i16)))).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(hashes(KeyFilterBuilder.build(List.of(i32)))).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(hashes(KeyFilterBuilder.build(List.of(i64)))).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void unsignedColumnsAreZeroExtended() {
    try (UInt1Vector u8 = new UInt1Vector("a", allocator);
        UInt2Vector u16 = new UInt2Vector("b", allocator);
        UInt4Vector u32 = new UInt4Vector("c", allocator);
        UInt8Vector u64 = new UInt8Vector("d", allocator)) {
      u8.allocateNew(1);
      u16.allocateNew(1);
      u32.allocateNew(1);
      u64.allocateNew(1);
      u8.set(0, (byte) -1); // 255
      u16.set(0, 0xFFFF);
      u32.set(0, -1); // 4294967295
      u64.set(0, -1L); // 2^64 - 1
      for (var v : List.of(u8, u16, u32, u64)) {
        v.setValueCount(1);
      }
      assertThat(hashes(KeyFilterBuilder.build(List.of(u8))))
          .containsExactly(KeyHasher.hash(KeyHasher.encodeUnsigned(255)));
      assertThat(hashes(KeyFilterBuilder.build(List.of(u16))))
          .containsExactly(KeyHasher.hash(KeyHasher.encodeUnsigned(65535)));
      assertThat(hashes(KeyFilterBuilder.build(List.of(u32))))
          .containsExactly(KeyHasher.hash(KeyHasher.encodeUnsigned(4294967295L)));
      assertThat(hashes(KeyFilterBuilder.build(List.of(u64))))
          .containsExactly(KeyHasher.hash(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1}));
      assertThat(hashes(KeyFilterBuilder.build(List.of(u8))))
          .doesNotContain(KeyHasher.hash(KeyHasher.encodeSigned(-1)));
    }
  }

  @Test
  void binaryAndFixedSizeBinaryAreTakenAsIs() {
    try (VarBinaryVector b = new VarBinaryVector("b", allocator);
        FixedSizeBinaryVector f = new FixedSizeBinaryVector("f", allocator, 3)) {
      b.allocateNew(1);
      b.setSafe(0, new byte[] {1, 2, 3});
      b.setValueCount(1);
      f.allocateNew(2);
      f.set(0, new byte[] {1, 2, 3});
      f.setNull(1);
      f.setValueCount(2);
      long expected = KeyHasher.hash(new byte[] {1, 2, 3});
      assertThat(hashes(KeyFilterBuilder.build(List.of(b)))).containsExactly(expected);
      assertThat(hashes(KeyFilterBuilder.build(List.of(f)))).containsExactly(expected);
    }
  }

  @Test
  void compositeKeysSeparateColumnsAndSkipRowsWithANull() {
    try (VarCharVector x = strings("x", "ab", "a", "q");
        VarCharVector y = strings("y", "c", "bc", null)) {
      List<Long> got = hashes(KeyFilterBuilder.build(List.of(x, y)));
      long abC = KeyHasher.hash(new byte[] {'a', 'b', 0, 'c', 0});
      long aBc = KeyHasher.hash(new byte[] {'a', 0, 'b', 'c', 0});
      assertThat(got).containsExactlyInAnyOrder(abC, aBc);
    }
  }

  @Test
  void compositeOfStringAndIntegerEncodesBothParts() {
    try (VarCharVector x = strings("x", "k");
        IntVector y = new IntVector("y", allocator)) {
      y.allocateNew(1);
      y.set(0, 1);
      y.setValueCount(1);
      byte[] expected = KeyHasher.encodeComposite(List.of(utf8("k"), KeyHasher.encodeSigned(1)));
      assertThat(hashes(KeyFilterBuilder.build(List.of(x, y))))
          .containsExactly(KeyHasher.hash(expected));
    }
  }

  @Test
  void moreDistinctKeysThanTheThresholdGiveADefaultBloomWithNoFalseNegatives() {
    try (BigIntVector v = new BigIntVector("k", allocator)) {
      int n = 10_001;
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, i * 7919L);
      }
      v.setValueCount(n);
      KeyExistenceFilter f = KeyFilterBuilder.build(List.of(v));
      assertThat(f).isInstanceOf(KeyExistenceFilter.Bloom.class);
      KeyExistenceFilter.Bloom bloom = (KeyExistenceFilter.Bloom) f;
      assertThat(bloom.numberOfItems()).isEqualTo(KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS);
      assertThat(bloom.probability()).isEqualTo(KeyExistenceFilter.DEFAULT_PROBABILITY);
      SplitBlockBloomFilter sbbf = SplitBlockBloomFilter.fromModel(bloom);
      for (int i = 0; i < n; i++) {
        assertThat(sbbf.mightContain(KeyHasher.hash(KeyHasher.encodeSigned(i * 7919L)))).isTrue();
      }
    }
  }

  @Test
  void exactlyTheThresholdStaysExactAndDuplicatesCountOnce() {
    try (IntVector v = new IntVector("k", allocator)) {
      v.allocateNew(6);
      int[] values = {1, 2, 3, 1, 2, 3};
      for (int i = 0; i < values.length; i++) {
        v.set(i, values[i]);
      }
      v.setValueCount(values.length);
      assertThat(hashes(new KeyFilterBuilder(3).add(List.of(v)).build())).hasSize(3);
      assertThat(new KeyFilterBuilder(2).add(List.of(v)).build())
          .isInstanceOf(KeyExistenceFilter.Bloom.class);
    }
  }

  @Test
  void batchesAccumulateAndBuiltFiltersFollowTheCompatibilityRules() {
    try (VarCharVector a = strings("k", "alice", "bob");
        VarCharVector b = strings("k", "carol");
        VarCharVector c = strings("k", "bob")) {
      KeyExistenceFilter ab = new KeyFilterBuilder().add(List.of(a)).add(List.of(b)).build();
      assertThat(hashes(ab)).hasSize(3);
      KeyExistenceFilter onlyC = KeyFilterBuilder.build(List.of(c));
      assertThat(KeyFilters.intersect(ab, onlyC).conflicts()).isTrue();
      assertThat(KeyFilters.intersect(KeyFilterBuilder.build(List.of(b)), onlyC).conflicts()).isFalse();
    }
  }

  @Test
  void mismatchedLengthsAndUnsupportedTypesAreRejected() {
    try (VarCharVector a = strings("a", "x", "y");
        VarCharVector b = strings("b", "x");
        ListVector list = ListVector.empty("l", allocator)) {
      assertThatThrownBy(() -> KeyFilterBuilder.build(List.of(a, b)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> KeyFilterBuilder.build(List.of(list)))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> KeyFilterBuilder.build(List.of()))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
