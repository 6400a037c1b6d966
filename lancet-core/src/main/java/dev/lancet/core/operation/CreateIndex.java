package dev.lancet.core.operation;

import dev.lancet.format.model.IndexSegment;
import java.util.List;

/** Adds index segments and removes others (by uuid); also how indices are dropped. */
public record CreateIndex(List<IndexSegment> newIndices, List<IndexSegment> removedIndices)
    implements LegacyOperation {
  public CreateIndex {
    newIndices = List.copyOf(newIndices);
    removedIndices = List.copyOf(removedIndices);
  }

  @Override
  public String operationName() {
    return "CreateIndex";
  }
}
