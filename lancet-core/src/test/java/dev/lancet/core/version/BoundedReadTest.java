package dev.lancet.core.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.FormatException;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, part 1: a version hint, a manifest and a .txn file are size-checked before they are
 * read, so a huge file costs no memory. The 1.5 GiB files here are sparse (no disk space); read
 * whole (as before the fix), each takes 1.5 GB of heap and seconds before it is found wanting.
 */
class BoundedReadTest {
  private static final long HUGE = 3L << 29;

  @TempDir Path dir;
  LocalObjectStore store;

  @BeforeEach
  void createTable() throws Exception {
    Manifest v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 1, List.of(new DataFile("a.lance", List.of(0), List.of(0), 2, 1, 1)))))
        .build();
    store = new LocalObjectStore(dir);
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
  }

  private static void sparse(Path file, long size) throws Exception {
    Files.createDirectories(file.getParent());
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
  }

  @Test
  void aHugeVersionHintIsIgnoredUnread() throws Exception {
    sparse(dir.resolve(Versions.HINT_PATH), HUGE);
    long start = System.nanoTime();
    assertThat(Versions.latest(store).orElseThrow().version()).isEqualTo(1);
    assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
  }

  @Test
  void aHugeManifestThatIsNotAManifestIsRefusedAfterReadingItsFooter() throws Exception {
    sparse(dir.resolve(ManifestNaming.V2.path(2)), HUGE);
    assertThatThrownBy(() -> Table.open(dir.toString(), store).latest())
        .isInstanceOf(FormatException.class)
        .hasMessageContaining(ManifestNaming.V2.path(2))
        .hasMessageContaining("more than the");
    System.setProperty("lancet.maxManifestBytes", String.valueOf(4L << 30));
    try {
      assertThatThrownBy(() -> Table.open(dir.toString(), store).latest())
          .isInstanceOf(FormatException.class).hasMessageContaining("wrong magic");
    } finally {
      System.clearProperty("lancet.maxManifestBytes");
    }
  }

  @Test
  void aHugeTransactionFileIsRefusedUnread() throws Exception {
    Table table = Table.open(dir.toString(), store);
    table.newTransaction().step("c", s -> s.setConfig("k", "v")).commit();
    Snapshot v2 = table.latest();
    sparse(dir.resolve("_transactions").resolve(v2.manifest().transactionFile()), HUGE);
    assertThatThrownBy(v2::transaction).isInstanceOf(FormatException.class)
        .hasMessageContaining("more than the 268435456 bytes Lancet reads");
  }
}
