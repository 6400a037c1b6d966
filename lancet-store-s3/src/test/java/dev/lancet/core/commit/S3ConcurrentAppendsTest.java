package dev.lancet.core.commit;

import dev.lancet.store.s3.S3ObjectStore;
import dev.lancet.store.s3.S3ProxyServer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The commit loop on S3 (s3proxy): eight writer threads with their own stores, released
 * together, ten appends each, all landing exactly once ({@link ConcurrentAppends}).
 */
class S3ConcurrentAppendsTest {
  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void concurrentAppendsAllLandExactlyOnce() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String location = "s3://" + server.newBucket("appends") + "/table";
    Ledger ledger = ConcurrentAppends.run(location, () -> S3ObjectStore.open(location, server.storageOptions(),
        Map.of(), S3ObjectStore.Settings.DEFAULT), 8, 10);
    System.out.println("[s3-appends] " + ledger);
  }
}
