package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate JVMs race put-if-absent on the same versions of one table: the hard-link publish must
 * give every version exactly one winner across processes, with that winner's complete bytes.
 */
class LocalObjectStoreMultiProcessTest {

  private static final int WORKERS = 6;
  private static final int VERSIONS = 50;

  @TempDir Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void everyVersionHasExactlyOneWinnerAcrossProcesses() throws Exception {
    Path root = dir.resolve("table");
    Path signals = Files.createDirectories(dir.resolve("signals"));
    Path go = signals.resolve("go");
    List<Process> processes = new ArrayList<>();
    try {
      for (int w = 0; w < WORKERS; w++) {
        processes.add(new ProcessBuilder(
            javaBinary(), "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", classPath(),
            PutIfAbsentWorkerMain.class.getName(),
            root.toString(), signals.resolve("ready-" + w).toString(), go.toString(), workerId(w), String.valueOf(VERSIONS))
            .redirectOutput(dir.resolve("out-" + w + ".txt").toFile())
            .redirectError(dir.resolve("err-" + w + ".txt").toFile())
            .start());
      }
      awaitReady(signals, processes);
      Files.createFile(go);

      for (int w = 0; w < WORKERS; w++) {
        Process process = processes.get(w);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("worker %d finished in time", w).isTrue();
        assertThat(process.exitValue()).as("worker %d exit code; stderr: %s", w, stderr(w)).isZero();
      }

      Map<Integer, String> winnerOf = new HashMap<>();
      for (int w = 0; w < WORKERS; w++) {
        List<String> lines = Files.readAllLines(dir.resolve("out-" + w + ".txt"));
        assertThat(lines).as("worker %d output", w).endsWith("DONE").hasSize(VERSIONS + 1);
        Set<Integer> reported = new LinkedHashSet<>();
        for (String line : lines.subList(0, VERSIONS)) {
          String[] parts = line.split(" ");
          int version = Integer.parseInt(parts[1]);
          reported.add(version);
          if (parts[0].equals("WON")) {
            String previous = winnerOf.put(version, workerId(w));
            assertThat(previous).as("version %d claimed by both %s and %s", version, previous, workerId(w)).isNull();
          } else {
            assertThat(parts[0]).isEqualTo("LOST");
          }
        }
        assertThat(reported).as("worker %d tried every version once", w)
            .containsExactlyElementsOf(IntStream.rangeClosed(1, VERSIONS).boxed().collect(Collectors.toList()));
      }
      assertThat(new TreeSet<>(winnerOf.keySet())).as("every version has a winner")
          .containsExactlyElementsOf(IntStream.rangeClosed(1, VERSIONS).boxed().collect(Collectors.toList()));

      LocalObjectStore store = new LocalObjectStore(root);
      for (int version = 1; version <= VERSIONS; version++) {
        assertThat(store.get("_versions/" + version + ".manifest"))
            .as("content of version %d, won by %s", version, winnerOf.get(version))
            .isEqualTo(PutIfAbsentWorkerMain.payload(winnerOf.get(version), version));
      }
      assertThat(store.list("_versions/")).hasSize(VERSIONS);
      try (var names = Files.list(root.resolve("_versions"))) {
        assertThat(names.map(p -> p.getFileName().toString()))
            .as("no temporary files left behind").noneMatch(StorePath::isTemporaryName);
      }
    } finally {
      for (Process process : processes) {
        process.destroyForcibly();
      }
    }
  }

  private static String workerId(int w) {
    return "w" + w;
  }

  /** A file-based barrier: wait until every worker has warmed up, failing fast if one dies. */
  private void awaitReady(Path signals, List<Process> processes) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int w = 0; w < WORKERS; w++) {
      Path ready = signals.resolve("ready-" + w);
      while (!Files.exists(ready)) {
        if (!processes.get(w).isAlive()) {
          throw new AssertionError("worker " + w + " exited before getting ready; stderr: " + stderr(w));
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError("worker " + w + " not ready within 60s");
        }
        processes.get(w).waitFor(5, TimeUnit.MILLISECONDS); // returns early if the worker dies
      }
    }
  }

  private String stderr(int w) throws IOException {
    Path file = dir.resolve("err-" + w + ".txt");
    return Files.exists(file) ? Files.readString(file) : "";
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** This JVM's class path plus the locations of our classes (in case it is a manifest-only jar). */
  private static String classPath() throws Exception {
    Set<String> entries = new LinkedHashSet<>();
    for (Class<?> type : List.of(PutIfAbsentWorkerMain.class, LocalObjectStore.class)) {
      entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }
    entries.add(System.getProperty("java.class.path"));
    return String.join(File.pathSeparator, entries);
  }
}
