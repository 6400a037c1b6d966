package dev.lancet.store.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.SharedClients;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The Azure store's shared clients: stores with the same options share them, other options
 * (another SAS token, say) get their own; idle configurations beyond the bound are dropped, held
 * ones never; a store used after its close says so.
 */
class AzureClientsTest {
  private final AzuriteServer azurite = AzuriteServer.shared();

  private AzureObjectStore open(String container, Map<String, String> options) {
    return AzureObjectStore.open("az://" + container + "/t", options, Map.of(),
        AzureObjectStore.Settings.DEFAULT);
  }

  private Map<String, String> with(String key, String value) {
    Map<String, String> o = new HashMap<>(azurite.storageOptions());
    o.put(key, value);
    return o;
  }

  private static Map<String, String> key(Map<String, String> options) {
    AzureOptions resolved = AzureOptions.resolve(options, Map.of());
    Map<String, String> k = new TreeMap<>(resolved.asMap());
    k.put(" account", resolved.account(AzureLocation.parse("az://c/t")));
    return k;
  }

  @Test
  void storesShareTheClientsOfTheirOptionsAndIdleOnesBeyondTheBoundAreDropped() throws Exception {
    String container = azurite.newContainer("clients");
    Map<String, String> base = with("client_max_retries", "7"); // no other test uses it
    try (AzureObjectStore a = open(container, base); AzureObjectStore b = open(container, base)) {
      assertThat(AzureObjectStore.CLIENTS.leases(key(base))).isEqualTo(2);
      a.put("x", "x".getBytes(UTF_8));
      assertThat(b.get("x")).isEqualTo("x".getBytes(UTF_8));
      try (AzureObjectStore other = open(container, with("client_max_retries", "6"))) {
        assertThat(AzureObjectStore.CLIENTS.leases(key(with("client_max_retries", "6")))).isEqualTo(1);
        assertThat(other.get("x")).isEqualTo("x".getBytes(UTF_8));
      }
    }
    assertThat(AzureObjectStore.CLIENTS.leases(key(base))).isZero();
    // More idle configurations than the bound: the least recently used (base) is dropped.
    for (int i = 0; i <= SharedClients.DEFAULT_MAX_IDLE; i++) {
      open(container, with("client_max_retries", Integer.toString(20 + i))).close();
    }
    // (the cache's size is not checked: stores other test classes left open are held, not idle)
    assertThat(AzureObjectStore.CLIENTS.leases(key(base))).isEqualTo(-1);
    try (AzureObjectStore again = open(container, base)) { // built afresh
      assertThat(again.get("x")).isEqualTo("x".getBytes(UTF_8));
    }
  }

  @Test
  void aStoreUsedAfterItsCloseSaysSo() throws Exception {
    String container = azurite.newContainer("closed");
    AzureObjectStore store = open(container, azurite.storageOptions());
    store.put("x", new byte[1]);
    store.close();
    store.close(); // a second close does nothing
    assertThatThrownBy(() -> store.get("x")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("x").hasMessageContaining("az://" + container + "/t")
        .hasMessageContaining("is closed");
    assertThatThrownBy(() -> store.putIfAbsent("y", new byte[1]))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
    assertThatThrownBy(() -> store.list("")).isInstanceOf(IllegalStateException.class);
  }
}
