package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;

/**
 * Reserves {@code count} fragment ids: the committed high-water mark rises by {@code count}
 * and the reserved range is the {@code count} ids ending at it.
 */
public record ReserveFragmentIds(long count) implements Action {

  public ReserveFragmentIds {
    if (count < 0 || count > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("ReserveFragmentIds count " + count + " is not a u32");
    }
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    state.reserveFragmentIds(count);
  }

  /** Nothing: counters are monotonic, concurrent reservations get disjoint ranges. */
  @Override
  public void footprint(FootprintBuilder fp) {}
}
