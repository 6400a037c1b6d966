package dev.lancet.store.s3;

import dev.lancet.core.store.PutIfAbsentProcessRace;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six JVMs, released together, race put-if-absent on the same keys of one table on a real S3
 * server (s3proxy): exactly one winner per key, with the winner's bytes
 * ({@link PutIfAbsentProcessRace}). {@code -Dlancet.s3.race.rounds=N} runs more rounds (default 60).
 */
class S3PutIfAbsentMultiProcessTest {
  private static final int ROUNDS = Integer.getInteger("lancet.s3.race.rounds", 60);

  @TempDir Path dir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void everyKeyHasExactlyOneWinnerAcrossProcesses() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String location = "s3://" + server.newBucket("race-processes") + "/table";
    Map<Integer, String> winners = PutIfAbsentProcessRace.run(dir, location, server.storageOptions(), 6, ROUNDS);
    System.out.println("[s3-race] 6 processes x " + ROUNDS + " keys: exactly one winner each; wins per worker "
        + PutIfAbsentProcessRace.winsPerWorker(winners));
  }
}
