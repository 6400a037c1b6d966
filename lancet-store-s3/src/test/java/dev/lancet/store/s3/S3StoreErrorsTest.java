package dev.lancet.store.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.store.StoreAccessException;
import dev.lancet.core.store.StoreAccessException.Reason;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How the S3 store fails, against a real server: one-line, specific errors for bad credentials,
 * a missing bucket and a server that ignores If-None-Match (no commit, no overwrite); throttled
 * conditional puts retried until they land exactly once. Uses its own s3proxy, whose storage
 * faults it switches on.
 */
class S3StoreErrorsTest {
  private static S3ProxyServer server;

  @BeforeAll
  static void start() {
    server = S3ProxyServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Map<String, String> options(String... overrides) {
    Map<String, String> o = new HashMap<>(server.storageOptions());
    for (int i = 0; i < overrides.length; i += 2) {
      o.put(overrides[i], overrides[i + 1]);
    }
    return o;
  }

  private static S3ObjectStore open(String bucket, Map<String, String> options) {
    return S3ObjectStore.open("s3://" + bucket + "/t", options, Map.of(), S3ObjectStore.Settings.DEFAULT);
  }

  @Test
  void s3LocationsOpenThroughTheServiceLoader() throws Exception {
    String bucket = server.newBucket("spi");
    try (ObjectStore store = ObjectStores.forUri("s3://" + bucket + "/tables/t", server.storageOptions())) {
      assertThat(store).isInstanceOf(S3ObjectStore.class);
      store.put("a", "x".getBytes(UTF_8));
    }
    assertThat(server.admin().getObjectAsBytes(r -> r.bucket(bucket).key("tables/t/a")).asUtf8String()).isEqualTo("x");
  }

  @Test
  void badCredentialsAreOneSpecificLine() {
    String bucket = server.newBucket("creds");
    try (S3ObjectStore store = open(bucket, options("aws_secret_access_key", "wrong"))) {
      for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
          () -> store.get("_versions/1.manifest"), () -> store.list("_versions/"),
          () -> store.put("x", new byte[1]), () -> store.putIfAbsent("y", new byte[1]))) {
        assertThatThrownBy(call).isInstanceOfSatisfying(StoreAccessException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.BAD_CREDENTIALS))
            .hasMessageContaining("rejected the credentials for s3://" + bucket + "/t")
            .hasMessageContaining("aws_secret_access_key")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
      }
    }
    try (S3ObjectStore store = open(bucket, options("aws_access_key_id", "nobody"))) {
      assertThatThrownBy(() -> store.list("")).isInstanceOfSatisfying(StoreAccessException.class,
          e -> assertThat(e.reason()).isEqualTo(Reason.BAD_CREDENTIALS));
    }
  }

  @Test
  void aMissingBucketIsOneSpecificLine() {
    try (S3ObjectStore store = open("no-such-bucket-here", options())) {
      assertThatThrownBy(() -> store.list("_versions/"))
          .isInstanceOfSatisfying(StoreAccessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_BUCKET))
          .hasMessage("S3 bucket 'no-such-bucket-here' does not exist at " + server.endpoint()
              + ": create it, or check the table location s3://no-such-bucket-here/t");
      assertThatThrownBy(() -> store.get("_versions/latest_version_hint.json"))
          .isInstanceOfSatisfying(StoreAccessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.MISSING_BUCKET));
    }
  }

  @Test
  void invalidOptionsAndLocationsAreRejectedBeforeAnyRequest() {
    Map<String, String> http = options();
    http.remove("allow_http");
    assertThatThrownBy(() -> open("b", http)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is plain HTTP; set allow_http=true");
    assertThatThrownBy(() -> open("b", options("allow_http", "maybe"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Storage option allow_http=maybe is not a boolean; write true or false");
    Map<String, String> keyOnly = options();
    keyOnly.remove("aws_secret_access_key");
    assertThatThrownBy(() -> open("b", keyOnly)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("aws_access_key_id and aws_secret_access_key go together");
    assertThatThrownBy(() -> ObjectStores.forUri("s3:///t", options())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the bucket name is empty");
    assertThatThrownBy(() -> ObjectStores.forUri("s3://b/a/../t", options())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'..'");
  }

  @Test
  void environmentFillsWhatTheCallerDidNotGiveAndExplicitOptionsWin() throws Exception {
    String bucket = server.newBucket("env");
    Map<String, String> env = Map.of(
        "AWS_ENDPOINT", server.endpoint().toString(),
        "AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY", "wrong-in-the-environment",
        "AWS_ALLOW_HTTP", "true",
        "REGION", "ignored: not AWS_-prefixed");
    // Only the right secret comes from the caller; everything else from the environment.
    try (S3ObjectStore store = S3ObjectStore.open("s3://" + bucket + "/t",
        Map.of("secret_access_key", S3ProxyServer.SECRET_KEY), env, S3ObjectStore.Settings.DEFAULT)) {
      store.put("from-env", new byte[] {1});
      assertThat(store.exists("from-env")).isTrue();
    }
    try (S3ObjectStore store = S3ObjectStore.open("s3://" + bucket + "/t", Map.of(), env, S3ObjectStore.Settings.DEFAULT)) {
      assertThatThrownBy(() -> store.exists("from-env")).isInstanceOf(StoreAccessException.class);
    }
  }

  @Test
  void aServerThatIgnoresIfNoneMatchIsRefusedAndNothingIsOverwritten() throws Exception {
    S3ProxyServer unsafe = S3ProxyServer.start();
    try {
      unsafe.faults().ignoreConditions(true);
      String bucket = unsafe.newBucket("unsafe");
      try (S3ObjectStore store = S3ObjectStore.open("s3://" + bucket + "/t", unsafe.storageOptions(), Map.of(),
          S3ObjectStore.Settings.DEFAULT)) {
        store.put("_versions/1.manifest", "the real version 1".getBytes(UTF_8));
        assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", "an overwrite".getBytes(UTF_8)))
            .isInstanceOfSatisfying(StoreAccessException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.NO_CONDITIONAL_WRITES))
            .hasMessageContaining("ignores If-None-Match on PutObject")
            .hasMessageContaining("Lancet refuses to commit to s3://" + bucket + "/t")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(store.get("_versions/1.manifest")).asString(UTF_8).isEqualTo("the real version 1");
        assertThatThrownBy(() -> store.putIfAbsent("_versions/2.manifest", new byte[1]))
            .isInstanceOf(StoreAccessException.class);
        assertThat(store.exists("_versions/2.manifest")).isFalse();
      }
    } finally {
      unsafe.close();
    }
  }

  @Test
  void throttledConditionalPutsAreRetriedAndLandOnce() throws Exception {
    S3ProxyServer busy = S3ProxyServer.start();
    try {
      String bucket = busy.newBucket("busy");
      try (S3ObjectStore store = S3ObjectStore.open("s3://" + bucket + "/t", busy.storageOptions(), Map.of(),
          S3ObjectStore.Settings.DEFAULT)) {
        store.verifyConditionalWrites();
        long before = busy.faults().putAttempts();
        busy.faults().throttleNextPuts(3);
        store.putIfAbsent("_versions/1.manifest", "v1".getBytes(UTF_8));
        assertThat(busy.faults().putAttempts() - before).as("3 throttled attempts, then the one that landed").isEqualTo(4);
        assertThat(store.get("_versions/1.manifest")).asString(UTF_8).isEqualTo("v1");

        busy.faults().throttleNextPuts(2);
        assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", "v1 again".getBytes(UTF_8)))
            .isInstanceOf(AlreadyExistsException.class);
        // Plain puts are retried by the SDK's standard strategy.
        busy.faults().throttleNextPuts(2);
        store.put("_transactions/a.txn", "txn".getBytes(UTF_8));
        assertThat(store.get("_transactions/a.txn")).asString(UTF_8).isEqualTo("txn");
      }
      try (S3ObjectStore store = S3ObjectStore.open("s3://" + bucket + "/t", options(busy, "client_max_retries", "1"),
          Map.of(), S3ObjectStore.Settings.DEFAULT)) {
        busy.faults().throttleNextPuts(5);
        assertThatThrownBy(() -> store.putIfAbsent("_versions/2.manifest", "v2".getBytes(UTF_8)))
            .isInstanceOf(java.io.IOException.class).isNotInstanceOf(AlreadyExistsException.class)
            .hasMessageContaining("HTTP 503");
        busy.faults().throttleNextPuts(0);
        assertThat(store.exists("_versions/2.manifest")).isFalse();
      }
    } finally {
      busy.close();
    }
  }

  private static Map<String, String> options(S3ProxyServer s, String key, String value) {
    Map<String, String> o = new HashMap<>(s.storageOptions());
    o.put(key, value);
    return o;
  }
}
