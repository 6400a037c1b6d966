package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.StoredSequence;
import java.util.Objects;
import java.util.Optional;

/**
 * A new fragment with no files yet (AddDataFile adds them). Usually a Local id; a Committed id
 * only out of a range an earlier commit reserved. Row ids and row versions left empty are
 * assigned and stamped at apply.
 */
public record AddFragment(
    Ref id,
    long physicalRows,
    Optional<StoredSequence> rowIds,
    Optional<StoredSequence> lastUpdatedAtVersions,
    Optional<StoredSequence> createdAtVersions,
    boolean dataChange) implements Action {

  public AddFragment {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(rowIds, "rowIds");
    Objects.requireNonNull(lastUpdatedAtVersions, "lastUpdatedAtVersions");
    Objects.requireNonNull(createdAtVersions, "createdAtVersions");
  }

  public static AddFragment local(int token, long physicalRows) {
    return new AddFragment(Ref.local(token), physicalRows, Optional.empty(), Optional.empty(),
        Optional.empty(), true);
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    long fragmentId = state.addFragmentId(id);
    state.addFragment(Fragment.builder(fragmentId)
        .physicalRows(physicalRows)
        .rowIds(rowIds)
        .lastUpdatedAtVersions(lastUpdatedAtVersions)
        .createdAtVersions(createdAtVersions)
        .build());
  }

  /** A committed (reserved) id writes its existence; a data-change fragment inserts rows. */
  @Override
  public void footprint(FootprintBuilder fp) {
    if (id instanceof Ref.Committed c) {
      fp.write(new Coordinate.FragmentExistence(c.id()));
    }
    if (dataChange) {
      fp.insertRows();
    }
    fp.addFragment(id);
  }
}
