package dev.lancet.core.store;

import static dev.lancet.core.store.FaultInjectingStore.Operation.DELETE;
import static dev.lancet.core.store.FaultInjectingStore.Operation.EXISTS;
import static dev.lancet.core.store.FaultInjectingStore.Operation.GET;
import static dev.lancet.core.store.FaultInjectingStore.Operation.GET_RANGE;
import static dev.lancet.core.store.FaultInjectingStore.Operation.LIST;
import static dev.lancet.core.store.FaultInjectingStore.Operation.PUT;
import static dev.lancet.core.store.FaultInjectingStore.Operation.PUT_IF_ABSENT;
import static dev.lancet.core.store.FaultInjectingStore.Operation.SIZE;
import static dev.lancet.core.store.FaultInjectingStore.Timing.AFTER;
import static dev.lancet.core.store.FaultInjectingStore.Timing.BEFORE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.FaultInjectingStore.Fault;
import dev.lancet.core.store.FaultInjectingStore.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class FaultInjectingStoreTest {

  private final MemoryObjectStore memory = new MemoryObjectStore();
  private final FaultInjectingStore store = FaultInjectingStore.wrap(memory);

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  @Test
  void nthFailureBeforeTheCallLeavesNothingBehind() throws Exception {
    store.failNth(PUT, 2, BEFORE);

    store.put("a", bytes("a"));
    assertThatThrownBy(() -> store.put("b", bytes("b")))
        .isInstanceOf(InjectedFaultException.class)
        .satisfies(e -> {
          InjectedFaultException fault = (InjectedFaultException) e;
          assertThat(fault.operation()).isEqualTo(PUT);
          assertThat(fault.path()).isEqualTo("b");
          assertThat(fault.timing()).isEqualTo(BEFORE);
          assertThat(fault.matchingCall()).isEqualTo(2);
        });
    store.put("c", bytes("c"));

    assertThat(memory.exists("a")).isTrue();
    assertThat(memory.exists("b")).as("a BEFORE fault must not reach the store").isFalse();
    assertThat(memory.exists("c")).isTrue();
    assertThat(store.injectedFaultCount()).isEqualTo(1);
  }

  @Test
  void nthFailureAfterTheCallLandsTheWriteButReportsAnError() throws Exception {
    store.failNth(PUT_IF_ABSENT, 1, AFTER);

    assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", bytes("mine")))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageContaining("AFTER PUT_IF_ABSENT _versions/1.manifest");

    // The unknown outcome: the write did land, so a blind retry now "loses" to itself.
    assertThat(memory.get("_versions/1.manifest")).isEqualTo(bytes("mine"));
    assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", bytes("mine")))
        .isInstanceOf(AlreadyExistsException.class);
  }

  @Test
  void anAfterFaultHidesTheRealOutcomeEvenWhenTheCallFailed() throws Exception {
    memory.put("_versions/1.manifest", bytes("theirs"));
    store.failNth(PUT_IF_ABSENT, 1, AFTER);

    assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", bytes("mine")))
        .isExactlyInstanceOf(InjectedFaultException.class);
    assertThat(memory.get("_versions/1.manifest")).isEqualTo(bytes("theirs"));
  }

  @Test
  void pathPrefixFilterLimitsBothMatchingAndCounting() throws Exception {
    memory.put("_versions/1.manifest", bytes("1"));
    memory.put("data/a.lance", bytes("a"));
    store.failNth(GET, 2, BEFORE, "_versions/");

    store.get("data/a.lance");
    store.get("_versions/1.manifest");
    store.get("data/a.lance");
    store.get("data/a.lance");
    assertThatThrownBy(() -> store.get("_versions/1.manifest")).isInstanceOf(InjectedFaultException.class);
    store.get("_versions/1.manifest");
    assertThat(store.count(GET)).isEqualTo(6);
  }

  @Test
  void failAlwaysWithPrefixFailsEveryMatchingCallAndNothingElse() throws Exception {
    store.failAlways(LIST, BEFORE, "_versions/").failAlways(DELETE, AFTER);
    memory.put("_versions/1.manifest", bytes("1"));

    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> store.list("_versions")).isInstanceOf(InjectedFaultException.class);
    }
    assertThat(store.list("data/")).isEmpty();
    assertThatThrownBy(() -> store.delete("_versions/1.manifest")).isInstanceOf(InjectedFaultException.class);
    assertThat(memory.exists("_versions/1.manifest")).as("AFTER delete still deletes").isFalse();
  }

  @Test
  void faultsInstalledLaterCountFromThen() throws Exception {
    memory.put("a", bytes("a"));
    store.exists("a");
    store.exists("a");
    store.failNth(EXISTS, 1, BEFORE);

    assertThatThrownBy(() -> store.exists("a")).isInstanceOf(InjectedFaultException.class);
    assertThat(store.exists("a")).isTrue();
  }

  @Test
  void aCallRangeFailsExactlyThoseCalls() throws Exception {
    memory.put("a", bytes("abc"));
    store.inject(Fault.calls(GET_RANGE, 2, 3, BEFORE).under("a"));

    List<Boolean> failed = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      try {
        store.getRange("a", 0, 1);
        failed.add(false);
      } catch (InjectedFaultException e) {
        failed.add(true);
      }
    }
    assertThat(failed).containsExactly(false, true, true, false, false);
  }

  @Test
  void countersCountEveryCallIncludingFailedOnes() throws Exception {
    store.failAlways(SIZE, BEFORE);
    store.put("a", bytes("a"));
    store.put("a", bytes("b"));
    store.putIfAbsent("b", bytes("b"));
    assertThatThrownBy(() -> store.putIfAbsent("b", bytes("b"))).isInstanceOf(AlreadyExistsException.class);
    store.get("a");
    store.getRange("a", 0, 1);
    assertThatThrownBy(() -> store.get("missing")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.size("a")).isInstanceOf(InjectedFaultException.class);
    store.exists("a");
    store.list("");
    store.delete("a");
    // Invalid paths are rejected before anything is counted.
    assertThatThrownBy(() -> store.get("../a")).isInstanceOf(InvalidStorePathException.class);

    assertThat(store.counts()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(
        GET, 2L, GET_RANGE, 1L, SIZE, 1L, EXISTS, 1L, PUT, 2L, PUT_IF_ABSENT, 2L, LIST, 1L, DELETE, 1L));

    store.resetCounts();
    assertThat(store.counts().values()).containsOnly(0L);
  }

  @Test
  void injectedLatencyIsObservable() throws Exception {
    memory.put("_versions/1.manifest", bytes("1"));
    memory.put("data/a", bytes("a"));
    Duration latency = Duration.ofMillis(40);
    store.latency(GET, latency)
        .latency((operation, path) -> operation == LIST && path.startsWith("_versions/") ? latency : Duration.ZERO);

    assertThat(elapsed(() -> store.get("data/a"))).isGreaterThanOrEqualTo(latency);
    assertThat(elapsed(() -> store.list("_versions/"))).isGreaterThanOrEqualTo(latency);
  }

  @Test
  void clearInjectionsRemovesFaultsHooksAndLatencyButKeepsCounts() throws Exception {
    memory.put("a", bytes("a"));
    store.failAlways(GET, BEFORE)
        .latency(GET, Duration.ofHours(1))
        .onCall(GET, "", (operation, path, call) -> {
          throw new AssertionError("hook should have been cleared");
        });
    store.clearInjections();

    assertThat(store.get("a")).isEqualTo(bytes("a"));
    assertThat(store.count(GET)).isEqualTo(1);
  }

  @Test
  void hooksRunJustBeforeMatchingCalls() throws Exception {
    // A competing writer commits version 1 in the window before our put-if-absent.
    store.onCall(PUT_IF_ABSENT, "_versions/", (operation, path, call) -> {
      if (call == 1) {
        memory.putIfAbsent(path, bytes("competitor"));
      }
    });

    store.putIfAbsent("data/f.lance", bytes("data"));
    assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", bytes("mine")))
        .isInstanceOf(AlreadyExistsException.class);
    store.putIfAbsent("_versions/2.manifest", bytes("mine"));

    assertThat(memory.get("_versions/1.manifest")).isEqualTo(bytes("competitor"));
    assertThat(memory.get("_versions/2.manifest")).isEqualTo(bytes("mine"));
  }

  @Test
  void wrappersComposeAndEachLayerCounts() throws Exception {
    FaultInjectingStore outer = FaultInjectingStore.wrap(store).failNth(PUT, 1, BEFORE);
    store.failNth(PUT, 1, BEFORE);

    assertThatThrownBy(() -> outer.put("a", bytes("a"))).isInstanceOf(InjectedFaultException.class);
    assertThatThrownBy(() -> outer.put("a", bytes("a"))).isInstanceOf(InjectedFaultException.class);
    outer.put("a", bytes("a"));

    assertThat(outer.count(PUT)).isEqualTo(3);
    assertThat(store.count(PUT)).isEqualTo(2);
    assertThat(memory.get("a")).isEqualTo(bytes("a"));
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void theNthCallFailsExactlyOnceUnderConcurrency() throws Exception {
    memory.put("a", bytes("a"));
    int threads = 8;
    int callsPerThread = 200;
    store.failNth(GET, 777, BEFORE);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> failures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        failures.add(pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          int failed = 0;
          for (int i = 0; i < callsPerThread; i++) {
            try {
              store.get("a");
            } catch (InjectedFaultException e) {
              assertThat(e.matchingCall()).isEqualTo(777);
              failed++;
            }
          }
          return failed;
        }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> failure : failures) {
        total += failure.get(20, TimeUnit.SECONDS);
      }
      assertThat(total).isEqualTo(1);
      assertThat(store.count(GET)).isEqualTo((long) threads * callsPerThread);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void faultRulesAreValidated() {
    assertThatThrownBy(() -> store.failNth(GET, 0, BEFORE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Fault.calls(GET, 3, 2, BEFORE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.latency(GET, Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void everyOperationCanFail() {
    for (Operation operation : Operation.values()) {
      FaultInjectingStore failing = FaultInjectingStore.wrap(new MemoryObjectStore()).failAlways(operation, BEFORE);
      assertThatThrownBy(() -> invoke(failing, operation)).as("%s", operation).isInstanceOf(InjectedFaultException.class);
      assertThat(failing.count(operation)).isEqualTo(1);
    }
  }

  private static void invoke(ObjectStore store, Operation operation) throws Exception {
    switch (operation) {
      case GET -> store.get("a");
      case GET_RANGE -> store.getRange("a", 0, 0);
      case SIZE -> store.size("a");
      case EXISTS -> store.exists("a");
      case PUT -> store.put("a", new byte[0]);
      case PUT_IF_ABSENT -> store.putIfAbsent("a", new byte[0]);
      case LIST -> store.list("");
      case DELETE -> store.delete("a");
    }
  }

  @FunctionalInterface
  private interface IoAction {
    Object run() throws Exception;
  }

  private static Duration elapsed(IoAction action) throws Exception {
    long start = System.nanoTime();
    action.run();
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
