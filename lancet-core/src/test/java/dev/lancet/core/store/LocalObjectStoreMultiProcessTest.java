package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.WorkerProcesses;

import java.nio.file.Files;
import java.nio.file.Path;
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
    try (WorkerProcesses workers = WorkerProcesses.startReady(dir, WORKERS,
        List.of("-Xmx64m", "-XX:TieredStopAtLevel=1"), PutIfAbsentWorkerMain.class,
        (w, ready, go) -> List.of(root.toString(), ready.toString(), go.toString(), workerId(w),
            String.valueOf(VERSIONS)))) {
      workers.go();
      List<List<String>> outputs = workers.awaitSuccess(60, TimeUnit.SECONDS);

      Map<Integer, String> winnerOf = new HashMap<>();
      for (int w = 0; w < WORKERS; w++) {
        List<String> lines = outputs.get(w);
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
    }
  }

  private static String workerId(int w) {
    return "w" + w;
  }
}
