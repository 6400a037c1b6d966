package dev.lancet.core.operation;

import dev.lancet.core.action.CompactedSsTable;
import java.util.List;

/**
 * Records MemWAL SSTables as merged into the table. (The v11-beta {@code require_index_catchup}
 * switch is gone upstream, lance-format/lance#8680: catch-up is unconditional, and its tag is
 * read as an unknown field, which fails closed.)
 */
public record UpdateMemWalState(List<CompactedSsTable> compactedSsTables) implements LegacyOperation {
  public UpdateMemWalState {
    compactedSsTables = List.copyOf(compactedSsTables);
  }

  @Override
  public String operationName() {
    return "UpdateMemWalState";
  }
}
