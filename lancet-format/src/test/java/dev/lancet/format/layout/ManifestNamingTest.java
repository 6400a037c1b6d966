package dev.lancet.format.layout;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ManifestNamingTest {

  @Test
  void v1NamesAreUnpaddedDecimal() {
    assertThat(ManifestNaming.V1.fileName(1)).isEqualTo("1.manifest");
    assertThat(ManifestNaming.V1.fileName(42)).isEqualTo("42.manifest");
  }

  @Test
  void v2NamesAreInvertedAndZeroPadded() {
    assertThat(ManifestNaming.V2.fileName(1)).isEqualTo("18446744073709551614.manifest");
    assertThat(ManifestNaming.V2.fileName(42)).isEqualTo("18446744073709551573.manifest");
    assertThat(ManifestNaming.V2.fileName(0)).isEqualTo("18446744073709551615.manifest");
    // A large version inverts to a short number that must be zero-padded to 20 digits.
    assertThat(ManifestNaming.V2.fileName(-2L)).isEqualTo("00000000000000000001.manifest");
  }

  @Test
  void v2NamesSortNewestFirst() {
    assertThat(ManifestNaming.V2.fileName(10)).isLessThan(ManifestNaming.V2.fileName(9));
  }

  @Test
  void nonManifestsAreSkipped() {
    assertThat(ManifestNaming.parse("7.manifest-1b2c")).isEmpty();
    assertThat(ManifestNaming.parse("latest_version_hint.json")).isEmpty();
    assertThat(ManifestNaming.parse(".tmp-abc")).isEmpty();
    assertThat(ManifestNaming.parse(".manifest")).isEmpty();
    assertThat(ManifestNaming.parse("x1.manifest")).isEmpty();
    assertThat(ManifestNaming.parse("99999999999999999999999.manifest")).isEmpty();
  }

  @Test
  void detachedNamesParseAsDetached() {
    long v = 0x8000000000000005L;
    ManifestNaming.Parsed p = ManifestNaming.parse("d" + Long.toUnsignedString(v) + ".manifest").orElseThrow();
    assertThat(p.detached()).isTrue();
    assertThat(p.version()).isEqualTo(v);
  }

  @Property
  void bothSchemesRoundTrip(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long version) {
    for (ManifestNaming naming : ManifestNaming.values()) {
      ManifestNaming.Parsed p = ManifestNaming.parse(naming.fileName(version)).orElseThrow();
      assertThat(p.version()).isEqualTo(version);
      assertThat(p.detached()).isFalse();
      // A V1 name that happens to be 20 digits long would read as V2; Lance has the same rule.
      if (naming == ManifestNaming.V2 || Long.toUnsignedString(version).length() != 20) {
        assertThat(p.naming()).isEqualTo(naming);
      }
    }
  }
}
