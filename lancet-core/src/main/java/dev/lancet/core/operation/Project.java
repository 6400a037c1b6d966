package dev.lancet.core.operation;

import dev.lancet.format.model.Field;
import java.util.List;

/**
 * A new schema over the same fragments (drop, rename, reorder columns). The wire carries only
 * the fields, so the schema metadata is the table's own.
 */
public record Project(List<Field> fields, boolean preservesNullability) implements LegacyOperation {
  public Project {
    fields = List.copyOf(fields);
  }

  @Override
  public String operationName() {
    return "Project";
  }
}
