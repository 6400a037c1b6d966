package dev.lancet.format.layout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.FormatException;
import dev.lancet.format.ManifestSamples;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Flipped and truncated manifests end in a clean FormatException or a correct read: never
 * another exception, a hang or an out-of-memory.
 */
class ManifestCorruptionProperties {

  private static final byte[] GOOD = ManifestFile.write(ManifestSamples.manifest(7, 20),
      ManifestSamples.indices(), Optional.of(dev.lancet.format.pb.TransactionProtos.Transaction
          .newBuilder().setReadVersion(6).setUuid("u").build()));

  @Property(tries = 1000)
  void flippedBytesFailCleanly(@ForAll @IntRange(min = 0, max = 1_000_000) int position,
      @ForAll @IntRange(min = 1, max = 255) int mask) {
    byte[] bytes = GOOD.clone();
    int i = position % bytes.length;
    bytes[i] ^= (byte) mask;
    readFully(bytes);
  }

  @Property(tries = 300)
  void truncatedFilesFailCleanly(@ForAll @IntRange(min = 0, max = 1_000_000) int cut) {
    int length = cut % GOOD.length;
    byte[] bytes = java.util.Arrays.copyOf(GOOD, length);
    assertThat(readFully(bytes)).isFalse();
  }

  /** True when the bytes read cleanly; false when they were rejected with FormatException. */
  static boolean readFully(byte[] bytes) {
    try {
      ManifestFile.Contents c = ManifestFile.read(bytes, "7.manifest");
      c.indices().forEach(s -> s.coveredFragments());
      c.inlineTransaction();
      ManifestValidator.validate(c.manifest(), "7.manifest");
      return true;
    } catch (FormatException e) {
      assertThat(e.getMessage()).startsWith("7.manifest");
      return false;
    }
  }
}
