package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
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
}
