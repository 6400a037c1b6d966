package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;

/**
 * Reserves {@code count} stable row ids: the reserved range is the {@code count} ids ending
 * at the committed {@code next_row_id}, above the operation's own rows.
 */
public record ReserveRowIds(long count) implements Action {

  public ReserveRowIds {
    if (count < 0) {
      throw new IllegalArgumentException("ReserveRowIds count " + Long.toUnsignedString(count)
          + " is too large");
    }
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    if (!state.usesStableRowIds()) {
      throw state.invalid("ReserveRowIds needs stable row ids, which this table does not use");
    }
    state.reserveRowIds(count);
  }

  /** Nothing: counters are monotonic, concurrent reservations get disjoint ranges. */
  @Override
  public void footprint(FootprintBuilder fp) {}
}
