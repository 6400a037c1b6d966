package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Widens and/or narrows the fragments one index segment covers (for rows a rewrite moved).
 * Additions apply first, then removals, so a fragment on both sides ends up uncovered.
 */
public record AdjustIndexCoverage(UUID uuid, String name, List<Ref> addFragments,
    List<Long> removeFragments) implements Action {

  public AdjustIndexCoverage {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(name, "name");
    addFragments = List.copyOf(addFragments);
    removeFragments = List.copyOf(removeFragments);
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    List<Long> additions = new java.util.ArrayList<>();
    for (Ref f : addFragments) {
      additions.add(state.resolveFragment(f));
    }
    state.adjustIndexCoverage(uuid, name, additions, removeFragments);
  }

  /** Writes the segment and claims the committed fragments it widens onto (removals claim nothing). */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.write(new Coordinate.IndexSegment(uuid));
    fp.extendIndexCoverage(name, addFragments);
  }
}
