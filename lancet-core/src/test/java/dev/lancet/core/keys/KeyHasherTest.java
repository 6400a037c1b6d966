package dev.lancet.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class KeyHasherTest {

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void hashIsTheFirstHalfOfMurmur3x64_128() {
    // Filters written by one Lancet must stay comparable with another: pin the function.
    assertThat(KeyHasher.hash(new byte[0])).isEqualTo(0L);
    assertThat(KeyHasher.hash(ascii("abc")))
        .isEqualTo(org.apache.commons.codec.digest.MurmurHash3.hash128x64(ascii("abc"))[0]);
    assertThat(KeyHasher.hash(ascii("abc"))).isNotEqualTo(KeyHasher.hash(ascii("abd")));
  }

  @Test
  void signedIntegersAreEightLittleEndianBytes() {
    assertThat(KeyHasher.encodeSigned(1)).containsExactly(1, 0, 0, 0, 0, 0, 0, 0);
    assertThat(KeyHasher.encodeSigned(0x0102)).containsExactly(2, 1, 0, 0, 0, 0, 0, 0);
    assertThat(KeyHasher.encodeSigned(-1)).containsExactly(-1, -1, -1, -1, -1, -1, -1, -1);
  }

  @Property
  void int32AndInt64OfTheSameValueHashEqually(@ForAll int v) {
    int narrow = v;
    long wide = v;
    assertThat(KeyHasher.hash(KeyHasher.encodeSigned(narrow)))
        .isEqualTo(KeyHasher.hash(KeyHasher.encodeSigned(wide)));
  }

  @Test
  void unsignedIsZeroExtendedWhileSignedIsSignExtended() {
    byte minusOne = -1;
    byte[] asU8 = KeyHasher.encodeUnsigned(minusOne & 0xFFL);
    byte[] asI8 = KeyHasher.encodeSigned(minusOne);
    assertThat(asU8).containsExactly(-1, 0, 0, 0, 0, 0, 0, 0);
    assertThat(KeyHasher.hash(asU8)).isNotEqualTo(KeyHasher.hash(asI8));
    assertThat(KeyHasher.encodeUnsigned(7)).isEqualTo(KeyHasher.encodeSigned(7));
  }

  @Test
  void stringsAreUtf8() {
    assertThat(KeyHasher.encodeString("é")).containsExactly(0xC3 - 256, 0xA9 - 256);
    assertThat(KeyHasher.hash(KeyHasher.encodeString("é")))
        .isEqualTo(KeyHasher.hash(new byte[] {(byte) 0xC3, (byte) 0xA9}));
  }

  @Test
  void compositeKeysTerminateEveryElementWithAZeroByte() {
    assertThat(KeyHasher.encodeComposite(List.of(ascii("ab"), ascii("c"))))
        .containsExactly('a', 'b', 0, 'c', 0);
    OptionalLong abC = KeyHasher.hashKey(List.of(ascii("ab"), ascii("c")));
    OptionalLong aBc = KeyHasher.hashKey(List.of(ascii("a"), ascii("bc")));
    assertThat(abC).isPresent();
    assertThat(aBc).isPresent();
    assertThat(abC.getAsLong()).isNotEqualTo(aBc.getAsLong());
    assertThat(abC.getAsLong()).isEqualTo(KeyHasher.hash(new byte[] {'a', 'b', 0, 'c', 0}));
  }

  @Test
  void aSingleColumnKeyIsHashedWithoutATerminator() {
    assertThat(KeyHasher.hashKey(List.of(ascii("ab"))))
        .hasValue(KeyHasher.hash(ascii("ab")));
  }

  @Test
  void aNullAnywhereMeansNoKey() {
    assertThat(KeyHasher.hashKey(Arrays.asList(ascii("a"), null))).isEmpty();
    assertThat(KeyHasher.hashKey(Arrays.asList((byte[]) null))).isEmpty();
    assertThat(KeyHasher.hashKey(List.of())).isEmpty();
    assertThat(KeyHasher.encodeComposite(Arrays.asList(null, ascii("b")))).isNull();
  }

  @Property
  void longInputsExerciseEveryTailPathDeterministically(@ForAll byte[] bytes) {
    long h = KeyHasher.hash(bytes);
    assertThat(KeyHasher.hash(bytes.clone())).isEqualTo(h);
    if (bytes.length > 0) {
      byte[] flipped = bytes.clone();
      flipped[bytes.length - 1] ^= 1;
      assertThat(KeyHasher.hash(flipped)).isNotEqualTo(h);
    }
  }
}
