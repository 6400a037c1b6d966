package dev.lancet.core.action;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyState;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Updates to the table config, table metadata, schema metadata and field metadata. Each map
 * update merges or replaces (see {@link UpdateMap}). The primary and clustering key markers in
 * field metadata are reserved: they can be set once, to a valid value, and never changed.
 */
public record ConfigUpdate(
    Optional<UpdateMap> config,
    Optional<UpdateMap> tableMetadata,
    Optional<UpdateMap> schemaMetadata,
    List<FieldMetadataUpdate> fieldMetadata) implements Action {

  /** Metadata changes for one field (Local for a field minted earlier in the operation). */
  public record FieldMetadataUpdate(Ref field, UpdateMap updates) {
    public FieldMetadataUpdate {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(updates, "updates");
    }
  }

  public ConfigUpdate {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(tableMetadata, "tableMetadata");
    Objects.requireNonNull(schemaMetadata, "schemaMetadata");
    fieldMetadata = List.copyOf(fieldMetadata);
  }

  public static ConfigUpdate ofConfig(UpdateMap config) {
    return new ConfigUpdate(Optional.of(config), Optional.empty(), Optional.empty(), List.of());
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    config.ifPresent(u -> u.applyTo(state.config(), v -> v));
    tableMetadata.ifPresent(u -> u.applyTo(state.tableMetadata(), v -> v));
    schemaMetadata.ifPresent(u -> u.applyTo(state.schemaMetadata(), ByteString::copyFromUtf8));
    if (!fieldMetadata.isEmpty()) {
      state.updateFieldMetadata(fieldMetadata);
    }
  }
}
