package dev.lancet.core.operation;

import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Replaces the table's content: new fragments (ids left 0 are numbered 0, 1, 2, ... at commit,
 * as Lance does; ids the writer set are kept), a new schema (its metadata is the wire's
 * {@code schema_metadata}), config keys to upsert, and the base paths a newly created table
 * registers.
 */
public record Overwrite(
    List<Fragment> fragments,
    Schema schema,
    Map<String, String> configUpsertValues,
    List<BasePath> initialBases) implements LegacyOperation {
  public Overwrite {
    fragments = List.copyOf(fragments);
    Objects.requireNonNull(schema, "schema");
    configUpsertValues = Map.copyOf(configUpsertValues);
    initialBases = List.copyOf(initialBases);
  }

  @Override
  public String operationName() {
    return "Overwrite";
  }
}
