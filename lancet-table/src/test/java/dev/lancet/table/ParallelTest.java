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
