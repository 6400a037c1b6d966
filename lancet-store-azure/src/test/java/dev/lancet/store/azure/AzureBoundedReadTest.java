package dev.lancet.store.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectTooLargeException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bounded read ({@code get(path, maxBytes)}, how the kernel reads .txn files, winners'
 * manifests and deletion files) is one Get Blob on Azure, counted by Azurite (its access log):
 * the size comes with the answer, so no Get Blob Properties goes first, and a blob above the
 * limit is refused after at most {@code maxBytes + 1} bytes of it.
 */
class AzureBoundedReadTest {
  @Test
  void aBoundedReadIsOneGetWithinTheLimitAndAboveIt() throws Exception {
    AzuriteServer server = AzuriteServer.shared();
    String container = server.newContainer("bounded");
    AzureObjectStore store = AzureObjectStore.open("az://" + container + "/t", server.storageOptions(), Map.of(),
        AzureObjectStore.Settings.DEFAULT);
    byte[] big = new byte[256 * 1024];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) i;
    }
    store.put("_transactions/1-a.txn", "a transaction".getBytes(UTF_8));
    store.put("_deletions/big.bin", big);
    store.put("empty", new byte[0]);

    Map<String, Long> before = server.requestCounts(container);
    assertThat(store.get("_transactions/1-a.txn", 1024)).isEqualTo("a transaction".getBytes(UTF_8));
    assertThat(server.requestsSince(container, before)).isEqualTo(Map.of("Get Blob", 1L));

    before = server.requestCounts(container);
    assertThatThrownBy(() -> store.get("_deletions/big.bin", 1024))
        .isInstanceOfSatisfying(ObjectTooLargeException.class, e -> assertThat(e.size()).isEqualTo(big.length));
    assertThat(server.requestsSince(container, before)).isEqualTo(Map.of("Get Blob", 1L));

    // Exactly at the limit, and a blob larger than the first block: read whole.
    assertThat(store.get("_transactions/1-a.txn", 13)).hasSize(13);
    assertThat(store.get("_deletions/big.bin", big.length)).isEqualTo(big);
    assertThat(store.get("empty", 0)).isEmpty();
    assertThatThrownBy(() -> store.get("_transactions/missing.txn", 100)).isInstanceOf(NotFoundException.class);
  }
}
