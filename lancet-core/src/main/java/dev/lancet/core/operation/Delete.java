package dev.lancet.core.operation;

import dev.lancet.format.model.Fragment;
import java.util.List;
import java.util.Objects;

/**
 * Row deletions: fragments that received a new deletion file (their post-images, existing
 * ids), fragments deleted outright, and the predicate that selected the rows.
 */
public record Delete(List<Fragment> updatedFragments, List<Long> deletedFragmentIds, String predicate)
    implements LegacyOperation {
  public Delete {
    updatedFragments = List.copyOf(updatedFragments);
    deletedFragmentIds = List.copyOf(deletedFragmentIds);
    Objects.requireNonNull(predicate, "predicate");
  }

  @Override
  public String operationName() {
    return "Delete";
  }
}
