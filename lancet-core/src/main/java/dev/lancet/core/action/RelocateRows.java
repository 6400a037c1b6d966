package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Fragment;
import java.util.Objects;
import org.roaringbitmap.RoaringBitmap;

/**
 * Declares that {@code rows} (physical offsets) of committed fragment {@code fragment}, which
 * this operation deletes (SetDeletionFile, or RemoveFragment), were moved rather than deleted:
 * updated copies, or compacted ones, live on in fragments the same operation adds. It changes
 * nothing itself. Its footprint makes the move visible: a concurrent overlay of any of these
 * rows would be lost with the old copy, so the two conflict, while a plain delete of overlaid
 * rows does not. See docs/decisions/0004-row-relocation.md.
 */
public record RelocateRows(long fragment, RoaringBitmap rows) implements Action {

  public RelocateRows {
    Objects.requireNonNull(rows, "rows");
    rows = rows.clone();
  }

  /** The moved offsets (a copy: the record stays immutable). */
  @Override
  public RoaringBitmap rows() {
    return rows.clone();
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    Fragment target = state.fragment(fragment, actionName());
    state.requireNotMintedFromToken(fragment, actionName());
    state.requireRowsWithin(target, rows, "RelocateRows on fragment " + Long.toUnsignedString(fragment),
        "declare the moved rows' offsets, or drop the action");
    state.declareRelocation(fragment);
  }

  /** The moved rows, checked against concurrent overlays of the same rows. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.relocate(fragment, rows);
  }
}
