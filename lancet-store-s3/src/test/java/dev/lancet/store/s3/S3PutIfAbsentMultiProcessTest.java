package dev.lancet.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.WorkerProcesses;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate JVMs, released together, race put-if-absent on the same keys of one table on a real
 * S3 server: every key has exactly one winner across processes, every loser saw
 * AlreadyExistsException, and the object holds exactly the winner's bytes. The model is what
 * each process reported; the check reads the server with its own client.
 * {@code -Dlancet.s3.race.rounds=N} runs more rounds (default 60).
 */
class S3PutIfAbsentMultiProcessTest {
  private static final int WORKERS = 6;
  private static final int ROUNDS = Integer.getInteger("lancet.s3.race.rounds", 60);

  @TempDir Path dir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void everyKeyHasExactlyOneWinnerAcrossProcesses() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket("race-processes");
    String location = "s3://" + bucket + "/table";
    try (WorkerProcesses workers = WorkerProcesses.startReady(dir, WORKERS,
        List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"), S3PutIfAbsentWorkerMain.class,
        (w, ready, go) -> List.of(server.endpoint().toString(), location, ready.toString(), go.toString(),
            "w" + w, String.valueOf(ROUNDS)))) {
      workers.go();
      List<List<String>> outputs = workers.awaitSuccess(150, TimeUnit.SECONDS);

      Map<Integer, String> winnerOf = new HashMap<>();
      for (int w = 0; w < WORKERS; w++) {
        List<String> lines = outputs.get(w);
        assertThat(lines).as("worker %d output", w).endsWith("DONE").hasSize(ROUNDS + 1);
        for (String line : lines.subList(0, ROUNDS)) {
          String[] parts = line.split(" ");
          int version = Integer.parseInt(parts[1]);
          if (parts[0].equals("WON")) {
            String previous = winnerOf.put(version, "w" + w);
            assertThat(previous).as("key %d won by both %s and w%d", version, previous, w).isNull();
          } else {
            assertThat(parts[0]).isEqualTo("LOST");
          }
        }
      }
      assertThat(new TreeSet<>(winnerOf.keySet())).as("every key has a winner")
          .containsExactlyElementsOf(IntStream.rangeClosed(1, ROUNDS).boxed().collect(Collectors.toList()));
      for (int version = 1; version <= ROUNDS; version++) {
        int v = version;
        byte[] stored = server.admin().getObjectAsBytes(r -> r.bucket(bucket).key("table/_versions/" + v + ".manifest"))
            .asByteArray();
        assertThat(stored).as("content of key %d, won by %s", version, winnerOf.get(version))
            .isEqualTo(S3PutIfAbsentWorkerMain.payload(winnerOf.get(version), version));
      }
      System.out.println("[s3-race] " + WORKERS + " processes x " + ROUNDS + " keys: exactly one winner each; wins per worker "
          + winnerOf.values().stream().collect(Collectors.groupingBy(s -> s, java.util.TreeMap::new, Collectors.counting())));
    }
  }
}
