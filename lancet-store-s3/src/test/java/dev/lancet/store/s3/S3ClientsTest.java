package dev.lancet.store.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.SharedClients;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shared SDK clients ({@link SharedClients} of {@link S3Clients}): one set per configuration, never shared between
 * stores whose storage options differ, kept open for the next store while few configurations
 * are idle, and closed (so nothing leaks) beyond that bound, never while a store holds them.
 */
class S3ClientsTest {
  private final S3ProxyServer server = S3ProxyServer.shared();

  private S3ObjectStore open(String bucket, Map<String, String> options) {
    return S3ObjectStore.open("s3://" + bucket + "/t", options, Map.of(), S3ObjectStore.Settings.DEFAULT);
  }

  private Map<String, String> with(String key, String value) {
    Map<String, String> options = new HashMap<>(server.storageOptions());
    options.put(key, value);
    return options;
  }

  @Test
  void storesWithTheSameOptionsShareClientsAndStoresWithOtherOptionsDoNot() throws Exception {
    String bucket = server.newBucket("clients-share");
    Map<String, String> base = new HashMap<>(server.storageOptions());
    base.put("timeout", "29s"); // a configuration no other test uses
    try (S3ObjectStore a = open(bucket, base); S3ObjectStore b = open(bucket, base)) {
      assertThat(b.sharedClients()).isSameAs(a.sharedClients());
      assertThat(S3ObjectStore.CLIENTS.leases(S3Options.resolve(base, Map.of()).asMap())).isEqualTo(2);
      List<Map<String, String>> variants = List.of(
          variant(base, "aws_endpoint", server.endpoint().toString().replace("127.0.0.1", "localhost")),
          variant(base, "aws_region", "eu-west-1"),
          variant(base, "aws_secret_access_key", "another-secret"),
          variant(base, "aws_access_key_id", "another-key"),
          variant(base, "aws_session_token", "a-token"),
          variant(base, "aws_virtual_hosted_style_request", "true"),
          variant(base, "client_max_retries", "3"));
      for (Map<String, String> v : variants) {
        try (S3ObjectStore other = open(bucket, v)) {
          assertThat(other.sharedClients()).as("clients for %s", v).isNotSameAs(a.sharedClients());
        }
      }
      // allow_http alone (an https endpoint opens with it on or off; no request is sent).
      Map<String, String> https = variant(base, "aws_endpoint", "https://127.0.0.1:9/");
      try (S3ObjectStore on = open(bucket, https); S3ObjectStore off = open(bucket, variant(https, "allow_http", "false"))) {
        assertThat(off.sharedClients()).isNotSameAs(on.sharedClients());
      }
      // The store with the same options still works on the shared clients.
      a.put("x", "x".getBytes(UTF_8));
      assertThat(b.get("x")).isEqualTo("x".getBytes(UTF_8));
    }
    assertThat(S3ObjectStore.CLIENTS.leases(S3Options.resolve(base, Map.of()).asMap())).isEqualTo(0);
  }

  private static Map<String, String> variant(Map<String, String> base, String key, String value) {
    Map<String, String> v = new HashMap<>(base);
    v.put(key, value);
    return v;
  }

  @Test
  void idleConfigurationsBeyondTheBoundAreClosedAndHeldOnesNever() {
    SharedClients<S3Clients> pool = S3Clients.cache(2);
    String bucket = server.newBucket("clients-bound");
    List<Map<String, String>> keys = new ArrayList<>();
    List<SharedClients<S3Clients>.Lease> leases = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Map<String, String> options = with("timeout", (40 + i) + "s");
      S3Options resolved = S3Options.resolve(options, Map.of());
      keys.add(resolved.asMap());
      leases.add(pool.acquire(resolved.asMap(), () -> S3ObjectStore.clients(resolved, resolved.endpoint())));
    }
    // Five held configurations: more than the bound, and all of them open and working.
    assertThat(pool.size()).isEqualTo(5);
    for (SharedClients<S3Clients>.Lease lease : leases) {
      lease.clients().client().headBucket(r -> r.bucket(bucket));
    }
    SharedClients<S3Clients>.Lease again = pool.acquire(keys.get(0), () -> {
      throw new AssertionError("a held configuration is not built again");
    });
    assertThat(again.clients()).isSameAs(leases.get(0).clients());
    again.release();
    again.release(); // a second release does nothing
    assertThat(pool.leases(keys.get(0))).isEqualTo(1);

    for (SharedClients<S3Clients>.Lease lease : leases) {
      lease.release();
    }
    // The two most recently released stay open; the three released first are closed.
    assertThat(pool.size()).isEqualTo(2);
    assertThat(pool.leases(keys.get(3))).isZero();
    assertThat(pool.leases(keys.get(4))).isZero();
    leases.get(4).clients().client().headBucket(r -> r.bucket(bucket));
    for (int i = 0; i < 3; i++) {
      assertThat(pool.leases(keys.get(i))).isEqualTo(-1);
      S3Clients closed = leases.get(i).clients();
      assertThatThrownBy(() -> closed.client().headBucket(r -> r.bucket(bucket)))
          .as("configuration %d was closed", i).isInstanceOf(RuntimeException.class);
    }
    // A closed configuration is built afresh when a store needs it again.
    S3Options first = S3Options.resolve(with("timeout", "40s"), Map.of());
    SharedClients<S3Clients>.Lease rebuilt = pool.acquire(first.asMap(), () -> S3ObjectStore.clients(first, first.endpoint()));
    assertThat(rebuilt.clients()).isNotSameAs(leases.get(0).clients());
    rebuilt.clients().client().headBucket(r -> r.bucket(bucket));
    rebuilt.release();
    assertThat(pool.size()).isEqualTo(2);
  }

  @Test
  void twoStoresBuildingOneConfigurationAtOnceKeepOneSetAndCloseTheOther() throws Exception {
    SharedClients<S3Clients> pool = S3Clients.cache(2);
    String bucket = server.newBucket("clients-race");
    S3Options options = S3Options.resolve(with("timeout", "31s"), Map.of());
    CyclicBarrier bothBuilding = new CyclicBarrier(2);
    List<S3Clients> built = java.util.Collections.synchronizedList(new ArrayList<>());
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<SharedClients<S3Clients>.Lease>> leases = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        leases.add(threads.submit(() -> pool.acquire(options.asMap(), () -> {
          S3Clients c = S3ObjectStore.clients(options, options.endpoint());
          built.add(c);
          try {
            bothBuilding.await(30, TimeUnit.SECONDS); // neither found the other's clients
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return c;
        })));
      }
      SharedClients<S3Clients>.Lease a = leases.get(0).get(60, TimeUnit.SECONDS);
      SharedClients<S3Clients>.Lease b = leases.get(1).get(60, TimeUnit.SECONDS);
      assertThat(built).hasSize(2);
      assertThat(a.clients()).isSameAs(b.clients());
      assertThat(pool.size()).isEqualTo(1);
      assertThat(pool.leases(options.asMap())).isEqualTo(2);
      S3Clients kept = a.clients();
      S3Clients other = built.get(0) == kept ? built.get(1) : built.get(0);
      kept.client().headBucket(r -> r.bucket(bucket));
      assertThatThrownBy(() -> other.client().headBucket(r -> r.bucket(bucket)))
          .as("the set that was not kept is closed").isInstanceOf(RuntimeException.class);
      a.release();
      b.release();
      assertThat(pool.leases(options.asMap())).isZero();
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aStoreUsedAfterItsCloseSaysSoEvenOnceItsClientsAreClosed() throws Exception {
    String bucket = server.newBucket("clients-closed");
    Map<String, String> options = with("timeout", "33s");
    S3ObjectStore store = open(bucket, options);
    store.put("x", "x".getBytes(UTF_8));
    store.close();
    store.close(); // a second close does nothing
    // Evict its configuration: more idle configurations than the bound.
    for (int i = 0; i <= dev.lancet.core.store.SharedClients.DEFAULT_MAX_IDLE; i++) {
      open(bucket, with("timeout", (60 + i) + "s")).close();
    }
    assertThat(S3ObjectStore.CLIENTS.leases(S3Options.resolve(options, Map.of()).asMap())).isEqualTo(-1);
    assertThatThrownBy(() -> store.get("x")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GET x").hasMessageContaining("s3://" + bucket + "/t")
        .hasMessageContaining("is closed");
    assertThatThrownBy(() -> store.putIfAbsent("y", new byte[1]))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
    assertThatThrownBy(() -> store.list("")).isInstanceOf(IllegalStateException.class);
    try (S3ObjectStore again = open(bucket, options)) {
      assertThat(again.get("x")).isEqualTo("x".getBytes(UTF_8));
    }
  }
}
