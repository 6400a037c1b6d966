package dev.lancet.table;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long a statement waits before it is planned again after a collision: a random slot of a
 * window that doubles with each re-plan. The slot is as long as the statement's first attempt
 * (plan and commit) took, plus 10%; the first re-plan picks one of 4 slots, the next one of 8,
 * then 16, up to {@link #MAX_SLOTS}.
 *
 * <p>Why: writers that collide once collide again if they all re-plan at once (they read the
 * same new version and race for the next one; with n of them, one wins and n - 1 go again).
 * Spreading them by whole statement durations lets most land in a slot of their own. lance-core
 * retries its merge inserts the same way ({@code execute_with_retry}, lancedb/lance
 * {@code rust/lance/src/dataset/write/retry.rs} @ 4c377746, with {@code SlotBackoff} of
 * {@code rust/lance-core/src/utils/backoff.rs}, read at wjones127/lance @ ea11ed68: unit = 1.1 x
 * the time to the first conflict, 2^(attempt + 2) slots). Lancet caps the window, where
 * lance-core relies on its 30 s retry timeout, so that a large {@code maxReplans} never means
 * waits of hours. Used only when a statement asks ({@code replanBackoff(true)}): in Lancet's
 * benchmark the waits cost more than the re-plans they saved (docs/decisions/0024).
 */
final class ReplanBackoff {
  /** The largest window, in slots (reached at the fifth re-plan). */
  static final int MAX_SLOTS = 64;

  private final RandomGenerator random;
  private long slotNanos = -1;
  private int replans;

  ReplanBackoff(RandomGenerator random) {
    this.random = random;
  }

  /**
   * The wait before the next re-plan. {@code sinceStartNanos} is the time from the statement's
   * start to this collision; the first call fixes the slot length from it.
   */
  Duration next(long sinceStartNanos) {
    if (slotNanos < 0) {
      slotNanos = Math.max(0, sinceStartNanos) / 10 * 11;
    }
    int slots = slots(replans);
    replans++;
    return Duration.ofNanos(slotNanos * random.nextInt(slots));
  }

  /** The window of the re-plan after {@code done} earlier ones, in slots. */
  static int slots(int done) {
    return (int) Math.min(MAX_SLOTS, 4L << Math.min(done, 30));
  }
}
