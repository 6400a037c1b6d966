package dev.lancet.interop.mixed;

import dev.lancet.format.layout.ManifestNaming;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How the lance-core workers keep pace with the Lancet writers, so that their commits race
 * instead of finishing before the Lancet JVMs get going: each lance-core operation waits until
 * other writers have published {@code k} versions since the worker's last one, and the worker
 * stops once every Lancet writer has said it is done (its done file exists). Waiting watches the
 * table's {@code _versions/} directory: a condition on the table, bounded by {@link #MAX_WAIT_S}.
 */
final class Pacing {
  static final long MAX_WAIT_S = 120;

  private final Path table;
  private final List<Path> done;

  Pacing(Path table, String doneFiles) {
    this.table = table;
    this.done = Arrays.stream(doneFiles.split(",")).map(Path::of).toList();
  }

  /** Whether every Lancet writer has finished. */
  boolean finished() {
    return done.stream().allMatch(Files::exists);
  }

  /**
   * Waits until the table's latest version is at least {@code since + k}; false when the Lancet
   * writers finished first (the worker should stop).
   */
  boolean awaitVersion(long since, int k) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_WAIT_S);
    while (latest() < since + k) {
      if (finished()) {
        return false;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the table stayed at version " + latest() + " for " + MAX_WAIT_S + " s");
      }
      Thread.sleep(2); // polling a condition on the table, not standing in for one
    }
    return !finished();
  }

  /** The newest version in {@code _versions/} (manifests only: no staging or temporary files). */
  long latest() {
    try (Stream<Path> files = Files.list(table.resolve("_versions"))) {
      return files.map(p -> ManifestNaming.parse(p.getFileName().toString()))
          .flatMap(java.util.Optional::stream).filter(p -> !p.detached())
          .mapToLong(ManifestNaming.Parsed::version).max().orElse(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
