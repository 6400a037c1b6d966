package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import java.util.List;

/** Records MemWAL SSTables as merged into the table (progress of the MemWAL index). */
public record UpdateCompactedSsTables(List<CompactedSsTable> compactedSsTables) implements Action {

  public UpdateCompactedSsTables {
    compactedSsTables = List.copyOf(compactedSsTables);
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    if (compactedSsTables.isEmpty()) {
      throw state.invalid("UpdateCompactedSsTables names no SSTable, so there is no progress to record");
    }
    state.recordCompactedSsTables(compactedSsTables);
  }

  /** Rewrites the MemWAL index's record: collides with any other claim on that index. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.rewriteIndex(ApplyState.MEM_WAL_INDEX);
  }
}
