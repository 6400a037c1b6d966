package dev.lancet.store.azure;

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
 * Separate JVMs, released together, race put-if-absent on the same keys of one table on Azurite: every key has exactly one winner across processes, every loser saw
 * AlreadyExistsException, and the object holds exactly the winner's bytes. The model is what
 * each process reported; the check reads the server with its own client.
 * {@code -Dlancet.azure.race.rounds=N} runs more rounds (default 60).
 */
class AzurePutIfAbsentMultiProcessTest {
  private static final int WORKERS = 6;
  private static final int ROUNDS = Integer.getInteger("lancet.azure.race.rounds", 60);

  @TempDir Path dir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void everyKeyHasExactlyOneWinnerAcrossProcesses() throws Exception {
    AzuriteServer azurite = AzuriteServer.shared();
    String container = azurite.newContainer("race-processes");
    String location = "az://" + container + "/table";
    try (WorkerProcesses workers = WorkerProcesses.startReady(dir, WORKERS,
        List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"), AzurePutIfAbsentWorkerMain.class,
        (w, ready, go) -> List.of(azurite.accountUrl(), location, ready.toString(), go.toString(),
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
        byte[] stored = azurite.admin().getBlobContainerClient(container).getBlobClient("table/_versions/" + v + ".manifest")
            .downloadContent().toBytes();
        assertThat(stored).as("content of key %d, won by %s", version, winnerOf.get(version))
            .isEqualTo(AzurePutIfAbsentWorkerMain.payload(winnerOf.get(version), version));
      }
      System.out.println("[azure-race] " + WORKERS + " processes x " + ROUNDS + " keys: exactly one winner each; wins per worker "
          + winnerOf.values().stream().collect(Collectors.groupingBy(s -> s, java.util.TreeMap::new, Collectors.counting())));
    }
  }
}
