package dev.lancet.core.operation;

import dev.lancet.core.action.CompactedSsTable;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Records MemWAL SSTables as merged into the table; {@code requireIndexCatchup} (only ever
 * {@code true} when present) switches the table to tracked index catch-up, one way.
 */
public record UpdateMemWalState(List<CompactedSsTable> compactedSsTables,
    Optional<Boolean> requireIndexCatchup) implements LegacyOperation {
  public UpdateMemWalState {
    compactedSsTables = List.copyOf(compactedSsTables);
    Objects.requireNonNull(requireIndexCatchup, "requireIndexCatchup");
  }

  @Override
  public String operationName() {
    return "UpdateMemWalState";
  }
}
