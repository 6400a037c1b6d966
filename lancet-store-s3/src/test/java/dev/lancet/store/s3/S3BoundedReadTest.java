package dev.lancet.store.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.ObjectTooLargeException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bounded read ({@code get(path, maxBytes)}, how the kernel reads .txn files, deletion files
 * and the version hint) is one GET on S3, counted by the server: the length comes with the
 * answer, so no size lookup goes first, and an object above the limit is refused without its
 * body being read into memory.
 */
class S3BoundedReadTest {
  @Test
  void aBoundedReadIsOneGetWithinTheLimitAndAboveIt() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket("bounded");
    S3ObjectStore store = S3ObjectStore.open("s3://" + bucket + "/t", server.storageOptions(), Map.of(),
        S3ObjectStore.Settings.DEFAULT);
    byte[] big = new byte[256 * 1024];
    store.put("_transactions/1-a.txn", "a transaction".getBytes(UTF_8));
    store.put("_deletions/big.bin", big);

    Map<String, Long> before = server.requestCounts(bucket);
    assertThat(store.get("_transactions/1-a.txn", 1024)).isEqualTo("a transaction".getBytes(UTF_8));
    assertThat(server.requestsSince(bucket, before)).isEqualTo(Map.of("GetObject", 1L));

    before = server.requestCounts(bucket);
    assertThatThrownBy(() -> store.get("_deletions/big.bin", 1024))
        .isInstanceOfSatisfying(ObjectTooLargeException.class, e -> assertThat(e.size()).isEqualTo(big.length));
    assertThat(server.requestsSince(bucket, before)).isEqualTo(Map.of("GetObject", 1L));

    // The abandoned answer does not poison the shared connection pool.
    for (int i = 0; i < 20; i++) {
      assertThat(store.get("_transactions/1-a.txn", 1024)).hasSize(13);
    }
    assertThat(store.get("_deletions/big.bin", big.length)).isEqualTo(big);
  }
}
