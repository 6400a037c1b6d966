package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate JVMs race put-if-absent on the same versions of one table: the hard-link publish must
 * give every version exactly one winner across processes, with that winner's complete bytes
 * ({@link PutIfAbsentProcessRace}), and leave no temporary file behind.
 */
class LocalObjectStoreMultiProcessTest {

  private static final int WORKERS = 6;
  private static final int VERSIONS = 50;

  @TempDir Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void everyVersionHasExactlyOneWinnerAcrossProcesses() throws Exception {
    Path root = dir.resolve("table");
    PutIfAbsentProcessRace.run(dir, root.toString(), Map.of(), WORKERS, VERSIONS);
    try (var names = Files.list(root.resolve("_versions"))) {
      assertThat(names.map(p -> p.getFileName().toString()))
          .as("no temporary files left behind").noneMatch(StorePath::isTemporaryName);
    }
  }
}
