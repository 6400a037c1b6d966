package dev.lancet.store.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.store.StoreAccessException;
import dev.lancet.core.store.StoreAccessException.Reason;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Azure store on Azurite beyond the contract: opening through the service loader, one-line
 * errors for bad credentials and a missing container, options from the environment, location
 * and option checks before any request.
 */
class AzureStoreTest {

  private static Map<String, String> options(AzuriteServer azurite, String... overrides) {
    Map<String, String> o = new HashMap<>(azurite.storageOptions());
    for (int i = 0; i < overrides.length; i += 2) {
      o.put(overrides[i], overrides[i + 1]);
    }
    return o;
  }

  @Test
  void azLocationsOpenThroughTheServiceLoader() throws Exception {
    AzuriteServer azurite = AzuriteServer.shared();
    String container = azurite.newContainer("spi");
    try (ObjectStore store = ObjectStores.forUri("az://" + container + "/tables/t", azurite.storageOptions())) {
      assertThat(store).isInstanceOf(AzureObjectStore.class);
      store.put("a", "x".getBytes(UTF_8));
    }
    assertThat(azurite.admin().getBlobContainerClient(container).getBlobClient("tables/t/a").downloadContent()
        .toString()).isEqualTo("x");
  }

  @Test
  void badCredentialsAndMissingContainersAreOneSpecificLine() {
    AzuriteServer azurite = AzuriteServer.shared();
    String container = azurite.newContainer("creds");
    String wrongKey = java.util.Base64.getEncoder().encodeToString("not the key".getBytes(UTF_8));
    try (AzureObjectStore store = AzureObjectStore.open("az://" + container + "/t",
        options(azurite, "azure_storage_account_key", wrongKey), Map.of(), AzureObjectStore.Settings.DEFAULT)) {
      assertThatThrownBy(() -> store.list("_versions/"))
          .isInstanceOfSatisfying(StoreAccessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.BAD_CREDENTIALS))
          .hasMessageContaining("Azure rejected the credentials for az://" + container + "/t")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
      assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", new byte[1]))
          .isInstanceOfSatisfying(StoreAccessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.BAD_CREDENTIALS));
    }
    try (AzureObjectStore store = AzureObjectStore.open("az://no-such-container/t", azurite.storageOptions(), Map.of(),
        AzureObjectStore.Settings.DEFAULT)) {
      assertThatThrownBy(() -> store.list("_versions/"))
          .isInstanceOfSatisfying(StoreAccessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_BUCKET))
          .hasMessage("Azure container 'no-such-container' does not exist at " + azurite.accountUrl()
              + ": create it, or check the table location az://no-such-container/t");
      assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", new byte[1]))
          .isInstanceOfSatisfying(StoreAccessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_BUCKET));
    }
  }

  @Test
  void theEnvironmentFillsWhatTheCallerDidNotGive() throws Exception {
    AzuriteServer azurite = AzuriteServer.shared();
    String container = azurite.newContainer("env");
    Map<String, String> env = Map.of(
        "AZURE_STORAGE_ACCOUNT_NAME", AzureOptions.EMULATOR_ACCOUNT,
        "AZURE_STORAGE_ACCOUNT_KEY", AzureOptions.EMULATOR_KEY,
        "AZURE_STORAGE_ENDPOINT", azurite.accountUrl());
    try (AzureObjectStore store = AzureObjectStore.open("az://" + container + "/t", Map.of("allow_http", "true"), env,
        AzureObjectStore.Settings.DEFAULT)) {
      store.put("from-env", new byte[] {7});
      assertThat(store.get("from-env")).containsExactly(7);
    }
    // The emulator switch alone is enough when AZURITE_BLOB_STORAGE_URL says where Azurite is.
    try (AzureObjectStore store = AzureObjectStore.open("az://" + container + "/t",
        Map.of("azure_storage_use_emulator", "true"),
        Map.of("AZURITE_BLOB_STORAGE_URL", azurite.accountUrl().replace("/" + AzureOptions.EMULATOR_ACCOUNT, "")),
        AzureObjectStore.Settings.DEFAULT)) {
      assertThat(store.get("from-env")).containsExactly(7);
    }
  }

  @Test
  void invalidLocationsAndOptionsAreRejectedBeforeAnyRequest() {
    assertThatThrownBy(() -> AzureObjectStore.open("az:///t", Map.of("azure_storage_use_emulator", "true")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the container name is empty");
    assertThatThrownBy(() -> AzureObjectStore.open("az://c/t", Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("set azure_storage_account_name");
    assertThatThrownBy(() -> AzureObjectStore.open("az://c/t", Map.of("azure_storage_account_name", "acct")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("No Azure credentials for account acct");
    assertThatThrownBy(() -> AzureObjectStore.open("az://c/t", Map.of("azure_storage_account_name", "a",
        "azure_storage_account_key", AzureOptions.EMULATOR_KEY, "azure_storage_endpoint", "http://127.0.0.1:1/a")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("set allow_http=true");
    AzureLocation abfss = AzureLocation.parse("abfss://data@myaccount.dfs.core.windows.net/tables/t/");
    assertThat(abfss).isEqualTo(new AzureLocation("data", "tables/t", java.util.Optional.of("myaccount")));
  }
}
