package dev.lancet.core.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The behaviour every {@link ObjectStore} must have. Each implementation's test class extends
 * this and supplies a fresh, empty store.
 */
abstract class ObjectStoreContract {

  protected ObjectStore store;

  /** A fresh, empty store for one test. */
  protected abstract ObjectStore newStore() throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = newStore();
  }

  @AfterEach
  void closeStore() {
    if (store != null) { // null when newStore() skipped the test (its server is not installed)
      store.close();
    }
  }

  static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  /** Deterministic bytes that differ for every (seed, position), so a mixed file cannot pass for either source. */
  static byte[] payload(long seed, int size) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }

  @Test
  void putThenGetReturnsTheBytes() throws Exception {
    store.put("_versions/1.manifest", bytes("one"));
    store.put("empty", new byte[0]);

    assertThat(store.get("_versions/1.manifest")).isEqualTo(bytes("one"));
    assertThat(store.get("empty")).isEmpty();
  }

  @Test
  void aBoundedGetReadsAnObjectWithinItsLimitAndRefusesOneAbove() throws Exception {
    store.put("_transactions/1-a.txn", bytes("twelve bytes"));
    store.put("empty", new byte[0]);

    assertThat(store.get("_transactions/1-a.txn", 12)).isEqualTo(bytes("twelve bytes"));
    assertThat(store.get("_transactions/1-a.txn", Long.MAX_VALUE)).isEqualTo(bytes("twelve bytes"));
    assertThat(store.get("empty", 0)).isEmpty();
    assertThatThrownBy(() -> store.get("_transactions/1-a.txn", 11))
        .isInstanceOfSatisfying(ObjectTooLargeException.class, e -> {
          assertThat(e.path()).isEqualTo("_transactions/1-a.txn");
          assertThat(e.size()).isEqualTo(12);
          assertThat(e.limit()).isEqualTo(11);
        });
    assertThatThrownBy(() -> store.get("_transactions/missing.txn", 100)).isInstanceOf(NotFoundException.class);
    // A refused read leaves the store usable.
    assertThat(store.get("_transactions/1-a.txn", 100)).isEqualTo(bytes("twelve bytes"));
  }

  @Test
  void putOverwrites() throws Exception {
    store.put("data/a.lance", bytes("first version, longer"));
    store.put("data/a.lance", bytes("second"));

    assertThat(store.get("data/a.lance")).isEqualTo(bytes("second"));
    assertThat(store.size("data/a.lance")).isEqualTo(6);
  }

  @Test
  void missingObjectsAreNotFound() throws Exception {
    store.put("data/present", bytes("x"));

    assertThatThrownBy(() -> store.get("data/absent"))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("data/absent");
    assertThatThrownBy(() -> store.size("data/absent"))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("data/absent");
    assertThatThrownBy(() -> store.getRange("data/absent", 0, 0))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("data/absent");
    assertThatThrownBy(() -> store.get("nowhere/at/all"))
        .isInstanceOf(NotFoundException.class);
    // An object is not a directory, and a directory-like prefix is not an object.
    assertThatThrownBy(() -> store.get("data/present/child")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.get("data")).isInstanceOf(NotFoundException.class);
    assertThat(((NotFoundException) catchIo(() -> store.get("data/absent"))).path()).isEqualTo("data/absent");
  }

  @Test
  void sizeAndExists() throws Exception {
    store.put("data/a", payload(1, 1234));

    assertThat(store.size("data/a")).isEqualTo(1234);
    assertThat(store.exists("data/a")).isTrue();
    assertThat(store.exists("data/b")).isFalse();
    assertThat(store.exists("data")).isFalse();
    assertThat(store.exists("data/a/b")).isFalse();
  }

  @Test
  void rangeReads() throws Exception {
    byte[] data = payload(2, 1000);
    store.put("data/r", data);

    assertThat(store.getRange("data/r", 0, 10)).isEqualTo(Arrays.copyOfRange(data, 0, 10));
    assertThat(store.getRange("data/r", 500, 123)).isEqualTo(Arrays.copyOfRange(data, 500, 623));
    assertThat(store.getRange("data/r", 990, 10)).isEqualTo(Arrays.copyOfRange(data, 990, 1000));
    assertThat(store.getRange("data/r", 0, 1000)).isEqualTo(data);
    assertThat(store.getRange("data/r", 1000, 0)).isEmpty();
  }

  @Test
  void rangeReadsPastTheEndFail() throws Exception {
    store.put("data/r", payload(3, 100));

    assertThatThrownBy(() -> store.getRange("data/r", 95, 6))
        .isInstanceOf(EOFException.class).hasMessageContaining("data/r").hasMessageContaining("size 100");
    assertThatThrownBy(() -> store.getRange("data/r", 101, 0)).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> store.getRange("data/r", Long.MAX_VALUE, 1)).isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> store.getRange("data/r", -1, 5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.getRange("data/r", 0, -5)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void listIsNonRecursiveSortedAndScopedToTheDirectory() throws Exception {
    store.put("_versions/2.manifest", bytes("22"));
    store.put("_versions/10.manifest", bytes("1010"));
    store.put("_versions/1.manifest", bytes("1"));
    store.put("_versions/sub/deeper.manifest", bytes("deep"));
    store.put("_versionsX/other", bytes("other"));
    store.put("top", bytes("top"));

    List<ObjectInfo> expected = List.of(
        new ObjectInfo("_versions/1.manifest", 1),
        new ObjectInfo("_versions/10.manifest", 4),
        new ObjectInfo("_versions/2.manifest", 2));
    assertThat(store.list("_versions/")).containsExactlyElementsOf(expected);
    assertThat(store.list("_versions")).containsExactlyElementsOf(expected);
    assertThat(store.list("_versions/sub/")).containsExactly(new ObjectInfo("_versions/sub/deeper.manifest", 4));
    assertThat(store.list("")).containsExactly(new ObjectInfo("top", 3));
    assertThat(store.list("_versions/")).extracting(ObjectInfo::name)
        .containsExactly("1.manifest", "10.manifest", "2.manifest");
  }

  @Test
  void listOfAMissingDirectoryIsEmpty() throws Exception {
    assertThat(store.list("_versions/")).isEmpty();
    assertThat(store.list("")).isEmpty();
    store.put("file", bytes("f"));
    assertThat(store.list("file/")).isEmpty();
    assertThat(store.list("nothing/here/")).isEmpty();
  }

  @Test
  void deleteIsIdempotent() throws Exception {
    store.put("_versions/1.manifest", bytes("one"));

    store.delete("_versions/1.manifest");
    store.delete("_versions/1.manifest");
    store.delete("never/existed");

    assertThat(store.exists("_versions/1.manifest")).isFalse();
    assertThat(store.list("_versions/")).isEmpty();
    assertThatThrownBy(() -> store.get("_versions/1.manifest")).isInstanceOf(NotFoundException.class);
    store.putIfAbsent("_versions/1.manifest", bytes("again"));
    assertThat(store.get("_versions/1.manifest")).isEqualTo(bytes("again"));
  }

  @Test
  void putIfAbsentCreatesOnlyOnce() throws Exception {
    store.putIfAbsent("_versions/1.manifest", bytes("winner"));

    assertThatThrownBy(() -> store.putIfAbsent("_versions/1.manifest", bytes("loser")))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("_versions/1.manifest")
        .satisfies(e -> assertThat(((AlreadyExistsException) e).path()).isEqualTo("_versions/1.manifest"));
    assertThat(store.get("_versions/1.manifest")).isEqualTo(bytes("winner"));

    store.put("_versions/2.manifest", bytes("plain put"));
    assertThatThrownBy(() -> store.putIfAbsent("_versions/2.manifest", bytes("loser")))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(store.get("_versions/2.manifest")).isEqualTo(bytes("plain put"));
  }

  @Test
  void callersCannotChangeStoredBytes() throws Exception {
    byte[] written = bytes("original");
    store.put("a", written);
    store.putIfAbsent("b", written);
    written[0] = 'X';
    store.get("a")[0] = 'Y';

    assertThat(store.get("a")).isEqualTo(bytes("original"));
    assertThat(store.get("b")).isEqualTo(bytes("original"));
  }

  @Test
  void largePayloadsRoundTrip() throws Exception {
    byte[] large = payload(4, 5 * 1024 * 1024 + 17);
    store.put("data/large.lance", large);
    store.putIfAbsent("data/large-2.lance", large);

    assertThat(store.get("data/large.lance")).isEqualTo(large);
    assertThat(store.get("data/large-2.lance")).isEqualTo(large);
    assertThat(store.size("data/large.lance")).isEqualTo(large.length);
    assertThat(store.getRange("data/large.lance", 3_000_000, 1_000_000))
        .isEqualTo(Arrays.copyOfRange(large, 3_000_000, 4_000_000));
    assertThat(store.list("data/")).containsExactly(
        new ObjectInfo("data/large-2.lance", large.length), new ObjectInfo("data/large.lance", large.length));
  }

  static Stream<String> escapingOrMalformedPaths() {
    return Stream.of("../x", "/etc/passwd", "a//b", "a/../../b", "..", "a/..", "", "a/./b", ".",
        "a\\b", "..\\x", "a\u0000b", "a\nb", "a/", "/", StorePath.TEMP_PREFIX + "x", "data/" + StorePath.TEMP_PREFIX + "y",
        "C:/windows", "c:x");
  }

  @ParameterizedTest
  @MethodSource("escapingOrMalformedPaths")
  void everyMethodRejectsBadPaths(String bad) {
    List<ThrowingCallable> calls = List.of(
        () -> store.get(bad),
        () -> store.getRange(bad, 0, 0),
        () -> store.size(bad),
        () -> store.exists(bad),
        () -> store.put(bad, bytes("x")),
        () -> store.putIfAbsent(bad, bytes("x")),
        () -> store.delete(bad));
    for (ThrowingCallable call : calls) {
      assertThatThrownBy(call).isInstanceOf(InvalidStorePathException.class)
          .satisfies(e -> assertThat(((InvalidStorePathException) e).path()).isEqualTo(bad))
          .hasMessageStartingWith("Invalid store path \"");
    }
  }

  @ParameterizedTest
  @MethodSource("escapingOrMalformedPaths")
  void listRejectsBadPrefixes(String bad) {
    if (bad.isEmpty() || bad.equals("a/")) {
      return; // "" (the root) and "a/" (a directory) are valid prefixes
    }
    assertThatThrownBy(() -> store.list(bad)).isInstanceOf(InvalidStorePathException.class)
        .hasMessageContaining("Invalid store path");
    assertThatThrownBy(() -> store.list(bad + "/")).isInstanceOf(InvalidStorePathException.class);
  }

  /**
   * Sixteen threads released together race to create one path, 200 times: exactly one wins each
   * round, the rest see AlreadyExistsException, and the object holds exactly the winner's bytes.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void putIfAbsentHasExactlyOneWinnerAcrossThreads() throws Exception {
    int threads = 16;
    int rounds = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < rounds; round++) {
        String path = "_versions/" + round + ".manifest";
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          byte[] mine = payload(round * 1000L + t, 4096 + t);
          outcomes.add(pool.submit(() -> {
            if (!start.await(10, TimeUnit.SECONDS)) {
              throw new IllegalStateException("start signal never came");
            }
            try {
              store.putIfAbsent(path, mine);
              return true;
            } catch (AlreadyExistsException e) {
              return false;
            }
          }));
        }
        start.countDown();

        List<Integer> winners = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          if (outcomes.get(t).get(10, TimeUnit.SECONDS)) {
            winners.add(t);
          }
        }
        assertThat(winners).as("winners of round %d", round).hasSize(1);
        int winner = winners.get(0);
        assertThat(store.get(path)).as("content of %s", path).isEqualTo(payload(round * 1000L + winner, 4096 + winner));
      }
      assertThat(store.list("_versions/")).hasSize(rounds);
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** Readers racing a writer that keeps replacing an object only ever see one complete version. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void overwritesAreNeverSeenTorn() throws Exception {
    byte[] a = payload(10, 256 * 1024);
    byte[] b = payload(11, 200 * 1024);
    store.put("data/hot", a);
    int readers = 3;
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong reads = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    try {
      List<Future<?>> results = new ArrayList<>();
      for (int r = 0; r < readers; r++) {
        results.add(pool.submit(() -> {
          // Read at least a few times even if the writer finishes first.
          while (writing.get() || reads.get() < 10) {
            byte[] seen = store.get("data/hot");
            if (!Arrays.equals(seen, a) && !Arrays.equals(seen, b)) {
              throw new AssertionError("torn read of " + seen.length + " bytes");
            }
            reads.incrementAndGet();
          }
          return null;
        }));
      }
      for (int i = 0; i < 100; i++) {
        store.put("data/hot", i % 2 == 0 ? b : a);
      }
      writing.set(false);
      for (Future<?> result : results) {
        result.get(30, TimeUnit.SECONDS);
      }
      assertThat(reads.get()).isGreaterThanOrEqualTo(10);
      assertThat(store.list("data/")).containsExactly(new ObjectInfo("data/hot", a.length));
    } finally {
      writing.set(false);
      pool.shutdownNow();
    }
  }

  /** Sizes around the S3 part and Azure block size (8 MiB), and the empty and tiny objects. */
  static Stream<Integer> streamedSizes() {
    return Stream.of(0, 17, (8 << 20) - 1, 8 << 20, (8 << 20) + 3, 20 << 20);
  }

  @ParameterizedTest
  @MethodSource("streamedSizes")
  void aStreamedObjectAppearsWholeOnlyWhenComplete(int size) throws Exception {
    byte[] data = payload(size, size);
    Random chunks = new Random(size);
    try (ObjectOutput out = store.newOutput("data/streamed.lance")) {
      int at = 0;
      while (at < size) {
        int n = Math.min(size - at, 1 + chunks.nextInt(3 << 20));
        if (chunks.nextBoolean()) {
          out.write(data, at, n);
        } else {
          out.write(java.nio.ByteBuffer.wrap(data, at, n).slice());
        }
        at += n;
        assertThat(out.position()).isEqualTo(at);
      }
      assertThat(store.exists("data/streamed.lance")).as("visible before complete").isFalse();
      assertThat(store.list("data/")).isEmpty();
      out.complete();
      assertThatThrownBy(() -> out.write(new byte[1], 0, 1))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("complete");
    }
    assertThat(store.size("data/streamed.lance")).isEqualTo(size);
    assertThat(store.get("data/streamed.lance")).isEqualTo(data);
    assertThat(store.list("data/")).containsExactly(new ObjectInfo("data/streamed.lance", size));
  }

  @Test
  void anAbortedOrUnfinishedStreamLeavesNothingVisible() throws Exception {
    byte[] data = payload(9, (8 << 20) + 5);
    try (ObjectOutput out = store.newOutput("data/aborted.lance")) {
      out.write(data, 0, data.length);
      out.abort();
      assertThatThrownBy(() -> out.write(new byte[1], 0, 1))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("aborted");
    }
    try (ObjectOutput out = store.newOutput("data/unfinished.lance")) {
      out.write(data, 0, 100);
    }
    assertThat(store.exists("data/aborted.lance")).isFalse();
    assertThat(store.exists("data/unfinished.lance")).isFalse();
    assertThat(store.list("data/")).isEmpty();
  }

  @Test
  void aStreamedObjectReplacesAnOldOne() throws Exception {
    store.put("data/x", bytes("old"));
    try (ObjectOutput out = store.newOutput("data/x")) {
      out.write(bytes("new!"), 0, 4);
      assertThat(store.get("data/x")).isEqualTo(bytes("old"));
      out.complete();
    }
    assertThat(store.get("data/x")).isEqualTo(bytes("new!"));
  }

  private static Throwable catchIo(ThrowingCallable call) {
    try {
      call.call();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected an exception");
  }
}
