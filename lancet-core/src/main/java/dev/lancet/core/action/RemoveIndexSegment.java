package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import java.util.Objects;
import java.util.UUID;

/** Removes one index segment; {@code name} must be the logical index it belongs to. */
public record RemoveIndexSegment(UUID uuid, String name, boolean dataChange) implements Action {

  public RemoveIndexSegment {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(name, "name");
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    state.removeIndex(uuid, name, "removed");
  }

  /** Writes the segment; claims nothing on its index (a concurrent build is fine). */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.write(new Coordinate.IndexSegment(uuid));
  }
}
