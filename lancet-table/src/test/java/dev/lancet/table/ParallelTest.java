package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Parallel.map and Parallel.pipeline: item order, bounded look-ahead, no result left open. */
class ParallelTest {
  /** A result that counts how many are open at once. */
  static final class Held implements AutoCloseable {
    final int item;
    final AtomicInteger open;
    boolean closed;

    Held(int item, AtomicInteger open, AtomicInteger most) {
      this.item = item;
      this.open = open;
      most.accumulateAndGet(open.incrementAndGet(), Math::max);
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        open.decrementAndGet();
      }
    }
  }

  static final List<Integer> ITEMS = IntStream.range(0, 60).boxed().toList();

  @Test
  void mapKeepsItemOrder() {
    assertThat(Parallel.map(ITEMS, i -> i * 2))
        .containsExactlyElementsOf(ITEMS.stream().map(i -> i * 2).toList());
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void mapInsideAMapTaskRunsInThatTaskAndStatementsShareThePool() throws Exception {
    // Nested use on the shared pool would wait for itself if it queued: it runs inline.
    List<List<Integer>> nested = Parallel.map(IntStream.range(0, 8).boxed().toList(),
        i -> Parallel.map(List.of(i, i + 1, i + 2), j -> j * 10));
    for (int i = 0; i < 8; i++) {
      assertThat(nested.get(i)).containsExactly(i * 10, (i + 1) * 10, (i + 2) * 10);
    }
    // Several callers at once (concurrent statements): every result in its own order.
    java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<List<Integer>>> calls = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        int base = c * 1000;
        calls.add(callers.submit(() -> Parallel.map(
            IntStream.range(base, base + 200).boxed().toList(), x -> x + 1)));
      }
      for (int c = 0; c < 4; c++) {
        assertThat(calls.get(c).get())
            .isEqualTo(IntStream.range(c * 1000 + 1, c * 1000 + 201).boxed().toList());
      }
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void pipelineHandsResultsOverInOrderWithAtMostTheWindowOpen() {
    AtomicInteger open = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Integer> seen = new ArrayList<>();
    Parallel.pipeline(ITEMS, 3, i -> new Held(i, open, most), h -> seen.add(h.item));
    assertThat(seen).containsExactlyElementsOf(ITEMS);
    assertThat(most.get()).isBetween(1, 3);
    assertThat(open.get()).as("every result closed").isZero();
  }

  @Test
  void aFailingTaskIsRethrownAndEveryResultMadeIsClosed() {
    AtomicInteger open = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<Integer> seen = new ArrayList<>();
    assertThatThrownBy(() -> Parallel.pipeline(ITEMS, 4, i -> {
      if (i == 10) {
        throw new IllegalStateException("item 10 failed");
      }
      return new Held(i, open, most);
    }, h -> seen.add(h.item))).isInstanceOf(IllegalStateException.class)
        .hasMessage("item 10 failed");
    assertThat(seen).containsExactlyElementsOf(ITEMS.subList(0, 10));
    assertThat(open.get()).isZero();
  }

  @Test
  void aFailingSinkIsRethrownAndEveryResultMadeIsClosed() {
    AtomicInteger open = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    assertThatThrownBy(() -> Parallel.pipeline(ITEMS, 4, i -> new Held(i, open, most), h -> {
      if (h.item == 5) {
        throw new IllegalArgumentException("sink refused 5");
      }
    })).isInstanceOf(IllegalArgumentException.class).hasMessage("sink refused 5");
    assertThat(open.get()).isZero();
  }
}
