package dev.lancet.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.FormatException;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestValidator;
import dev.lancet.format.layout.TransactionFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Real manifests and transaction files written by lance-core, with bytes flipped or cut off:
 * every case ends in a clean {@link FormatException} naming the file, or in a correct read.
 * Never another exception, a hang or an out-of-memory.
 */
class LanceFileCorruptionProperties {

  private static List<Path> manifests;
  private static List<Path> transactions;

  private static synchronized void collect() {
    if (manifests != null) {
      return;
    }
    manifests = new ArrayList<>();
    transactions = new ArrayList<>();
    for (Path table : SharedFixtures.all().values()) {
      try (var s = Files.list(table.resolve("_versions"))) {
        s.filter(p -> p.toString().endsWith(".manifest")).sorted().forEach(manifests::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      try (var s = Files.list(table.resolve("_transactions"))) {
        s.sorted().forEach(transactions::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    assertThat(manifests).hasSizeGreaterThan(20);
    assertThat(transactions).hasSizeGreaterThan(20);
  }

  private static byte[] pick(List<Path> files, int which) throws IOException {
    return Files.readAllBytes(files.get(which % files.size()));
  }

  @Property(tries = 600)
  void flippedLanceManifestsFailCleanly(@ForAll @IntRange(min = 0, max = 10_000) int file,
      @ForAll @IntRange(min = 0, max = 1_000_000) int position,
      @ForAll @IntRange(min = 1, max = 255) int mask) throws IOException {
    collect();
    byte[] bytes = pick(manifests, file);
    bytes[position % bytes.length] ^= (byte) mask;
    readManifest(bytes);
  }

  @Property(tries = 200)
  void truncatedLanceManifestsAreRejected(@ForAll @IntRange(min = 0, max = 10_000) int file,
      @ForAll @IntRange(min = 0, max = 1_000_000) int cut) throws IOException {
    collect();
    byte[] bytes = pick(manifests, file);
    assertThat(readManifest(Arrays.copyOf(bytes, cut % bytes.length))).isFalse();
  }

  @Property(tries = 400)
  void corruptLanceTransactionFilesFailCleanly(@ForAll @IntRange(min = 0, max = 10_000) int file,
      @ForAll @IntRange(min = 0, max = 1_000_000) int position,
      @ForAll @IntRange(min = 1, max = 255) int mask,
      @ForAll boolean truncate) throws IOException {
    collect();
    byte[] bytes = pick(transactions, file);
    if (truncate) {
      bytes = Arrays.copyOf(bytes, position % bytes.length);
    } else {
      bytes[position % bytes.length] ^= (byte) mask;
    }
    try {
      TransactionFile.decode(bytes, "_transactions/x.txn");
    } catch (FormatException e) {
      assertThat(e.getMessage()).startsWith("_transactions/x.txn: ");
    }
  }

  @Property(tries = 50)
  void untouchedLanceFilesReadCleanly(@ForAll @IntRange(min = 0, max = 10_000) int file) throws IOException {
    collect();
    assertThat(readManifest(pick(manifests, file))).isTrue();
    TransactionFile.decode(pick(transactions, file), "t.txn");
  }

  private static boolean readManifest(byte[] bytes) {
    try {
      ManifestFile.Contents c = ManifestFile.read(bytes, "_versions/x.manifest");
      c.indices();
      c.inlineTransaction();
      ManifestValidator.validate(c.manifest(), "_versions/x.manifest");
      return true;
    } catch (FormatException e) {
      assertThat(e.getMessage()).startsWith("_versions/x.manifest");
      return false;
    }
  }
}
