package dev.lancet.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class ReplanBackoffTest {
  /** A generator that always draws the highest slot, and records the bounds it was asked for. */
  static final class Highest implements RandomGenerator {
    final List<Integer> bounds = new ArrayList<>();

    @Override
    public long nextLong() {
      throw new UnsupportedOperationException();
    }

    @Override
    public int nextInt(int bound) {
      bounds.add(bound);
      return bound - 1;
    }
  }

  @Test
  void theWindowDoublesFromFourSlotsUpToTheCap() {
    Highest r = new Highest();
    ReplanBackoff b = new ReplanBackoff(r);
    for (int i = 0; i < 8; i++) {
      b.next(100_000_000L);
    }
    assertThat(r.bounds).containsExactly(4, 8, 16, 32, 64, 64, 64, 64);
  }

  @Test
  void aSlotIsTheFirstAttemptsTimePlusATenthAndStaysSo() {
    Highest r = new Highest();
    ReplanBackoff b = new ReplanBackoff(r);
    // first collision 100 ms after the start: slots of 110 ms, highest of 4 is the 4th
    assertThat(b.next(100_000_000L)).isEqualTo(Duration.ofMillis(330));
    // later collisions come later, but the slot stays the first attempt's
    assertThat(b.next(900_000_000L)).isEqualTo(Duration.ofMillis(770));
  }

  @Test
  void everyWaitIsAWholeNumberOfSlotsWithinTheWindow() {
    SplittableRandom seeded = new SplittableRandom(12);
    for (int run = 0; run < 200; run++) {
      ReplanBackoff b = new ReplanBackoff(seeded.split());
      long slot = 50_000_000L / 10 * 11;
      for (int done = 0; done < 7; done++) {
        long wait = b.next(50_000_000L + done * 1_000_000L).toNanos();
        assertThat(wait % slot).isZero();
        assertThat(wait / slot).isBetween(0L, ReplanBackoff.slots(done) - 1L);
      }
    }
  }

  @Test
  void writersThatCollidedTogetherMostlyPickDifferentSlots() {
    // four writers' first re-plan: with 4 slots, all four in one slot has probability 1/64
    SplittableRandom seeded = new SplittableRandom(7);
    int allTogether = 0;
    for (int round = 0; round < 1000; round++) {
      long first = -1;
      boolean same = true;
      for (int w = 0; w < 4; w++) {
        long wait = new ReplanBackoff(seeded.split()).next(10_000_000L).toNanos();
        same &= first < 0 || wait == first;
        first = wait;
      }
      allTogether += same ? 1 : 0;
    }
    assertThat(allTogether).isBetween(2, 40);
  }
}
