package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import java.util.Objects;

/** Removes a fragment entirely (all rows deleted, or replaced by compaction). */
public record RemoveFragment(Ref fragment, boolean dataChange) implements Action {

  public RemoveFragment {
    Objects.requireNonNull(fragment, "fragment");
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    long fragmentId = state.resolveFragment(fragment);
    if (!state.removeFragment(fragmentId)) {
      throw state.missingFragment(fragmentId, "RemoveFragment targets fragment " + fragmentId + ", which does not exist");
    }
    state.rowsLeave(fragmentId);
  }

  @Override
  public void footprint(FootprintBuilder fp) {
    fp.removeFragment(fragment);
  }
}
