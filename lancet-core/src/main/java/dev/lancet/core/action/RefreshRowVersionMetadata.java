package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Fragment;
import java.util.List;
import java.util.Optional;

/**
 * Re-stamps every row of these committed fragments as last updated by the version this commit
 * produces (what a legacy Merge does to rewritten fragments); created-at is left alone.
 */
public record RefreshRowVersionMetadata(List<Long> fragmentIds) implements Action {

  public RefreshRowVersionMetadata {
    fragmentIds = List.copyOf(fragmentIds);
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    if (fragmentIds.isEmpty()) {
      return;
    }
    if (!state.usesStableRowIds()) {
      throw state.invalid("RefreshRowVersionMetadata needs stable row ids, which this table does "
          + "not use");
    }
    for (long id : fragmentIds) {
      Fragment target = state.fragment(id, actionName());
      state.putFragment(target.toBuilder()
          .lastUpdatedAtVersions(Optional.of(state.uniformVersions(target.physicalRows())))
          .build());
    }
  }

  @Override
  public void footprint(FootprintBuilder fp) {
    for (long id : fragmentIds) {
      fp.write(new Coordinate.FragmentRowVersions(id));
    }
  }
}
