package dev.lancet.core.action;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.ConfigMap;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.FootprintBuilder;
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

  /**
   * Each map's keys (or the whole map, for a replacement); metadata of a committed field also
   * needs the field's definition; a reserved key writes the table-wide unenforced key.
   */
  @Override
  public void footprint(FootprintBuilder fp) {
    config.ifPresent(u -> fp.writeMapUpdate(ConfigMap.CONFIG, u));
    tableMetadata.ifPresent(u -> fp.writeMapUpdate(ConfigMap.TABLE_METADATA, u));
    schemaMetadata.ifPresent(u -> fp.writeMapUpdate(ConfigMap.SCHEMA_METADATA, u));
    for (FieldMetadataUpdate f : fieldMetadata) {
      if (f.field() instanceof Ref.Committed c
          && c.id() >= Integer.MIN_VALUE && c.id() <= Integer.MAX_VALUE) {
        fp.writeMapUpdate(ConfigMap.field((int) c.id()), f.updates());
        fp.requireFieldDefinition(f.field());
      }
      for (String key : f.updates().keys()) {
        if (key.equals(ApplyState.PK_FLAG) || key.equals(ApplyState.PK_POSITION)) {
          fp.write(new Coordinate.UnenforcedKey(Coordinate.KeyKind.PRIMARY));
        } else if (key.equals(ApplyState.CLUSTERING_POSITION)) {
          fp.write(new Coordinate.UnenforcedKey(Coordinate.KeyKind.CLUSTERING));
        }
      }
    }
  }
}
