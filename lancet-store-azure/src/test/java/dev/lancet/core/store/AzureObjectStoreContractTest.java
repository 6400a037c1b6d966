package dev.lancet.core.store;

import dev.lancet.store.azure.AzureObjectStore;
import dev.lancet.store.azure.AzuriteServer;
import java.time.Duration;
import java.util.Map;

/**
 * The store contract on Azurite (a real Azure Blob endpoint on loopback): every method, paths,
 * ranges, listing, put-if-absent across 16 threads for 200 rounds. Blobs from 4 MiB are staged
 * as blocks here, so the contract's 5 MiB payloads go through Put Block and Put Block List
 * (with If-None-Match: * for put-if-absent). Skipped, with a message, without Azurite.
 */
class AzureObjectStoreContractTest extends ObjectStoreContract {
  private static final AzureObjectStore.Settings SMALL_BLOCKS = new AzureObjectStore.Settings(
      4L << 20, 4L << 20, Duration.ofMillis(25), Duration.ofSeconds(2));

  @Override
  protected ObjectStore newStore() {
    AzuriteServer azurite = AzuriteServer.shared();
    String container = azurite.newContainer("contract");
    return AzureObjectStore.open("az://" + container + "/tables/t", azurite.storageOptions(), Map.of(), SMALL_BLOCKS);
  }
}
