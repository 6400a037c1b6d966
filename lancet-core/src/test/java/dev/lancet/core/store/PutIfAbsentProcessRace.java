package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.WorkerProcesses;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Separate JVMs ({@link PutIfAbsentWorkerMain}), released together, race put-if-absent on the
 * same keys of one table location, for any store: every key must have exactly one winner across
 * processes, every worker must have tried every key, and each object must hold exactly its
 * winner's bytes (read back through a store of the test's own).
 */
public final class PutIfAbsentProcessRace {
  private PutIfAbsentProcessRace() {}

  /** Runs the race and checks it; returns the winner of each key (for the test log). */
  public static Map<Integer, String> run(Path dir, String location, Map<String, String> options, int workers,
      int rounds) throws Exception {
    List<String> optionArgs = new ArrayList<>();
    options.forEach((k, v) -> optionArgs.add(k + "=" + v));
    Map<Integer, String> winnerOf = new HashMap<>();
    try (WorkerProcesses processes = WorkerProcesses.startReady(dir, workers,
        List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"), PutIfAbsentWorkerMain.class,
        (w, ready, go) -> {
          List<String> args = new ArrayList<>(List.of(location, ready.toString(), go.toString(), workerId(w),
              String.valueOf(rounds)));
          args.addAll(optionArgs);
          return args;
        })) {
      processes.go();
      List<List<String>> outputs = processes.awaitSuccess(150, TimeUnit.SECONDS);
      for (int w = 0; w < workers; w++) {
        List<String> lines = outputs.get(w);
        assertThat(lines).as("worker %d output", w).endsWith("DONE").hasSize(rounds + 1);
        List<Integer> tried = new ArrayList<>();
        for (String line : lines.subList(0, rounds)) {
          String[] parts = line.split(" ");
          int version = Integer.parseInt(parts[1]);
          tried.add(version);
          if (parts[0].equals("WON")) {
            String previous = winnerOf.put(version, workerId(w));
            assertThat(previous).as("key %d won by both %s and %s", version, previous, workerId(w)).isNull();
          } else {
            assertThat(parts[0]).isEqualTo("LOST");
          }
        }
        assertThat(tried).as("worker %d tried every key once", w)
            .containsExactlyElementsOf(IntStream.rangeClosed(1, rounds).boxed().collect(Collectors.toList()));
      }
    }
    assertThat(new TreeSet<>(winnerOf.keySet())).as("every key has a winner")
        .containsExactlyElementsOf(IntStream.rangeClosed(1, rounds).boxed().collect(Collectors.toList()));
    try (ObjectStore reader = ObjectStores.forUri(location, options)) {
      for (int version = 1; version <= rounds; version++) {
        assertThat(reader.get("_versions/" + version + ".manifest"))
            .as("content of key %d, won by %s", version, winnerOf.get(version))
            .isEqualTo(PutIfAbsentWorkerMain.payload(winnerOf.get(version), version));
      }
      assertThat(reader.list("_versions/")).hasSize(rounds);
    }
    return winnerOf;
  }

  private static String workerId(int w) {
    return "w" + w;
  }

  /** Wins per worker, for the test log. */
  public static Map<String, Long> winsPerWorker(Map<Integer, String> winnerOf) {
    return winnerOf.values().stream().collect(Collectors.groupingBy(s -> s, java.util.TreeMap::new, Collectors.counting()));
  }
}
