package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;

/**
 * Drops the schema, schema metadata, fragments and indices (including ones added earlier in
 * the operation); keeps config, table metadata, base paths and every id counter. Overwrite is
 * ResetTable followed by the new table's actions.
 */
public record ResetTable() implements Action {

  @Override
  public boolean isDataChange() {
    return true;
  }

  @Override
  public void apply(ApplyState state) {
    state.reset();
  }

  /** Exclusive: conflicts with every concurrent set, including a bare append. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.takeExclusive();
  }
}
