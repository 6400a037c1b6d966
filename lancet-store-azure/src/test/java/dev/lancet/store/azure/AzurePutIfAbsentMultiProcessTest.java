package dev.lancet.store.azure;

import dev.lancet.core.store.PutIfAbsentProcessRace;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six JVMs, released together, race put-if-absent on the same keys of one table on a real Azure Blob
 * endpoint (Azurite): exactly one winner per key, with the winner's bytes
 * ({@link PutIfAbsentProcessRace}). {@code -Dlancet.azure.race.rounds=N} runs more rounds (default 60).
 */
class AzurePutIfAbsentMultiProcessTest {
  private static final int ROUNDS = Integer.getInteger("lancet.azure.race.rounds", 60);

  @TempDir Path dir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void everyKeyHasExactlyOneWinnerAcrossProcesses() throws Exception {
    AzuriteServer server = AzuriteServer.shared();
    String location = "az://" + server.newContainer("race-processes") + "/table";
    Map<Integer, String> winners = PutIfAbsentProcessRace.run(dir, location, server.storageOptions(), 6, ROUNDS);
    System.out.println("[azure-race] 6 processes x " + ROUNDS + " keys: exactly one winner each; wins per worker "
        + PutIfAbsentProcessRace.winsPerWorker(winners));
  }
}
