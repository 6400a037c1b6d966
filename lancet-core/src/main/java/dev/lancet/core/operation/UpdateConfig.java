package dev.lancet.core.operation;

import dev.lancet.core.action.UpdateMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Changes to the table config, table metadata, schema metadata and per-field metadata, each a
 * merge or a replacement ({@link UpdateMap}). The deprecated wire style (upsert values, delete
 * keys, ...) decodes into this form.
 */
public record UpdateConfig(
    Optional<UpdateMap> configUpdates,
    Optional<UpdateMap> tableMetadataUpdates,
    Optional<UpdateMap> schemaMetadataUpdates,
    Map<Integer, UpdateMap> fieldMetadataUpdates) implements LegacyOperation {
  public UpdateConfig {
    Objects.requireNonNull(configUpdates, "configUpdates");
    Objects.requireNonNull(tableMetadataUpdates, "tableMetadataUpdates");
    Objects.requireNonNull(schemaMetadataUpdates, "schemaMetadataUpdates");
    fieldMetadataUpdates = Map.copyOf(fieldMetadataUpdates);
  }

  @Override
  public String operationName() {
    return "UpdateConfig";
  }
}
