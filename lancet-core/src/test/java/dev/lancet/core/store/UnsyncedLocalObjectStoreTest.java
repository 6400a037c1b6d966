package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local store without fsync ({@link LocalObjectStore.Durability#NONE}, as Lance's own local
 * store) keeps the whole contract: atomic publish, exactly one put-if-absent winner.
 */
class UnsyncedLocalObjectStoreTest extends ObjectStoreContract {
  @TempDir Path dir;

  @Override
  protected ObjectStore newStore() {
    return new LocalObjectStore(dir, LocalObjectStore.Durability.NONE);
  }

  @Test
  void anAdvisoryPutReplacesAtomicallyAndLeavesNoTemporaryFile() throws Exception {
    ObjectStore s = new LocalObjectStore(dir.resolve("t"));
    s.putAdvisory("_versions/latest_version_hint.json", "{\"version\":1}".getBytes());
    s.putAdvisory("_versions/latest_version_hint.json", "{\"version\":2}".getBytes());

    assertThat(new String(s.get("_versions/latest_version_hint.json"))).isEqualTo("{\"version\":2}");
    try (var files = Files.list(dir.resolve("t/_versions"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("latest_version_hint.json");
    }
  }
}
