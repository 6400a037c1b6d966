package dev.lancet.core.commit;

import dev.lancet.store.azure.AzureObjectStore;
import dev.lancet.store.azure.AzuriteServer;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The commit loop on Azure Blob (Azurite): eight writer threads with their own stores, released
 * together, ten appends each, all landing exactly once ({@link ConcurrentAppends}).
 */
class AzureConcurrentAppendsTest {
  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void concurrentAppendsAllLandExactlyOnce() throws Exception {
    AzuriteServer server = AzuriteServer.shared();
    String location = "az://" + server.newContainer("appends") + "/table";
    Ledger ledger = ConcurrentAppends.run(location, () -> AzureObjectStore.open(location, server.storageOptions(),
        Map.of(), AzureObjectStore.Settings.DEFAULT), 8, 10);
    System.out.println("[azure-appends] " + ledger);
  }
}
