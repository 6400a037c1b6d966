package dev.lancet.interop;

import dev.lancet.interop.lance.LanceFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The real-Lance fixture tables, built once per test JVM (building them takes a few seconds)
 * into a temporary directory that is removed at exit. Tests must not modify them; a test that
 * writes copies a fixture first ({@link #copy}).
 */
public final class SharedFixtures {
  private static Map<String, Path> tables;
  private static Path root;

  private SharedFixtures() {}

  public static synchronized Map<String, Path> all() {
    if (tables == null) {
      try {
        root = Files.createTempDirectory("lancet-fixtures");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root)));
      tables = LanceFixtures.buildAll(root);
    }
    return tables;
  }

  public static Path get(String name) {
    Path p = all().get(name);
    if (p == null) {
      throw new IllegalArgumentException("no fixture " + name + "; have " + all().keySet());
    }
    return p;
  }

  /** A private copy of a fixture that a test may write to. */
  public static Path copy(String name, Path into) {
    Path source = get(name);
    Path target = into.resolve(name);
    try (var walk = Files.walk(source)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path dest = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return target;
  }

  private static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort at exit
    }
  }
}
