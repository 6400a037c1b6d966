package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import java.util.Objects;
import java.util.Optional;

/**
 * Sets (or, when empty, clears) a fragment's deletion file: a post-image. Takes a committed
 * fragment id only, because the deletion file's name embeds it: a fragment this operation mints
 * for a Local token cannot be named (its id is assigned at apply); add it with a reserved id
 * (ReserveFragmentIds in an earlier commit) to delete rows of it in the same operation.
 */
public record SetDeletionFile(long fragment, Optional<DeletionFile> deletionFile, boolean dataChange)
    implements Action {

  public SetDeletionFile {
    Objects.requireNonNull(deletionFile, "deletionFile");
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    Fragment target = state.fragment(fragment, actionName());
    state.requireNotMintedFromToken(fragment, actionName());
    if (deletionFile.isPresent() && deletionFile.get().numDeletedRows() > target.physicalRows()) {
      throw state.invalid("SetDeletionFile on fragment " + fragment + " deletes "
          + deletionFile.get().numDeletedRows() + " rows, but the fragment has only "
          + target.physicalRows());
    }
    state.putFragment(target.toBuilder().deletionFile(deletionFile).build());
    if (deletionFile.isPresent()) {
      state.rowsLeave(fragment);
    }
  }

  /**
   * Deletions commute with column rewrites of the same fragment. A new deletion file is a
   * row-level delete: against another one on the same fragment the rows each side added are
   * compared and, when disjoint, merged (docs/decisions/0016). Clearing the file is a plain
   * write of the fragment's deletions, which collides with any other.
   */
  @Override
  public void footprint(FootprintBuilder fp) {
    if (deletionFile.isPresent()) {
      fp.deleteRows(fragment);
    } else {
      fp.write(new Coordinate.FragmentDeletions(fragment));
    }
  }
}
