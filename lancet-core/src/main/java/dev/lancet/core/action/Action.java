package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;

/**
 * One granular change (a delta) or assertion of a Transaction V2 composite operation. The
 * vocabulary is closed: one record per action, each in its own file, each applying itself to
 * the working state of a manifest build. Footprints (what a concurrent writer may collide
 * with) are derived from the same records.
 */
public sealed interface Action
    permits AddFragment, AddDataFile, AddField, AddBase, TombstoneFieldData, RemoveFragment,
        SetDeletionFile, ConfigUpdate, AddOverlays, RefreshRowVersionMetadata,
        UpdateCompactedSsTables, DropField, AlterField, AddIndexSegment, RemoveIndexSegment,
        AdjustIndexCoverage, ResetTable, ReserveFragmentIds, AssertUniqueKeys, ReserveRowIds,
        RelocateRows, AssertCellsUnchanged {

  /** The action's name in the format's vocabulary ("AddFragment"); used in every error. */
  default String actionName() {
    return getClass().getSimpleName();
  }

  /**
   * Whether the action changes the table's rows (false for pure rearrangements such as
   * compaction, and for schema, config and bookkeeping changes), for CDC consumers.
   */
  boolean isDataChange();

  /** Applies the action to the working state; throws {@code ApplyException} on bad input. */
  void apply(ApplyState state);

  /**
   * Records what the action touches, for conflict detection (v2-semantics §3 FP-C bullets,
   * §4.3). Every action states its footprint next to its apply, even when it is empty.
   */
  void footprint(FootprintBuilder fp);
}
