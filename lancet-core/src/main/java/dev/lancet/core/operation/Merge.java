package dev.lancet.core.operation;

import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import java.util.List;
import java.util.Objects;

/**
 * New columns: the complete fragment list after the change (post-images) and the resulting
 * schema (with its metadata). {@code preservesNullability} asserts no field became required.
 */
public record Merge(List<Fragment> fragments, Schema schema, boolean preservesNullability)
    implements LegacyOperation {
  public Merge {
    fragments = List.copyOf(fragments);
    Objects.requireNonNull(schema, "schema");
  }

  @Override
  public String operationName() {
    return "Merge";
  }
}
