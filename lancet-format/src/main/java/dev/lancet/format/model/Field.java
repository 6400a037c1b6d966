package dev.lancet.format.model;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One field of a table schema: a column, or a child of a struct or list column. Ids are
 * unique within the table and never reused; {@code parentId} is -1 for a top-level field.
 *
 * <p>The legacy parts ({@code typeValue}, {@code encodingValue}, {@code dictionary},
 * {@code extensionName}) are carried unchanged so that a read-modify-write keeps them.
 */
public record Field(
    int id,
    int parentId,
    String name,
    String logicalType,
    boolean nullable,
    Map<String, ByteString> metadata,
    boolean unenforcedPrimaryKey,
    int unenforcedPrimaryKeyPosition,
    boolean unenforcedClusteringKey,
    int unenforcedClusteringKeyPosition,
    int typeValue,
    int encodingValue,
    Optional<Dictionary> dictionary,
    String extensionName,
    UnknownFieldSet unknownFields) {

  /** Parent id of a top-level field. */
  public static final int NO_PARENT = -1;

  /** Location of a legacy (0.1) dictionary inside the manifest file. */
  public record Dictionary(long offset, long length) {}

  public Field {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(logicalType, "logicalType");
    metadata = Map.copyOf(metadata);
    Objects.requireNonNull(dictionary, "dictionary");
    Objects.requireNonNull(extensionName, "extensionName");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  /**
   * The {@code encoding} lance-core records for a field of {@code logicalType} (lance.file.Encoding:
   * 0 none for structs and the null type, 2 var-binary for strings and binaries, 3 dictionary,
   * 1 plain for everything else, lists and fixed-size lists included).
   */
  public static int encodingOf(String logicalType) {
    if (logicalType.equals("struct") || logicalType.equals("null")) {
      return 0;
    }
    if (logicalType.startsWith("dict:")) {
      return 3;
    }
    return switch (logicalType) {
      case "string", "binary", "large_string", "large_binary" -> 2;
      default -> 1;
    };
  }

  public boolean isTopLevel() {
    return parentId == NO_PARENT;
  }

  public static Builder builder(int id, String name, String logicalType) {
    return new Builder().id(id).name(name).logicalType(logicalType);
  }

  public Builder toBuilder() {
    return new Builder()
        .id(id)
        .parentId(parentId)
        .name(name)
        .logicalType(logicalType)
        .nullable(nullable)
        .metadata(metadata)
        .unenforcedPrimaryKey(unenforcedPrimaryKey)
        .unenforcedPrimaryKeyPosition(unenforcedPrimaryKeyPosition)
        .unenforcedClusteringKey(unenforcedClusteringKey)
        .unenforcedClusteringKeyPosition(unenforcedClusteringKeyPosition)
        .typeValue(typeValue)
        .encodingValue(encodingValue)
        .dictionary(dictionary)
        .extensionName(extensionName)
        .unknownFields(unknownFields);
  }

  public Field withName(String newName) {
    return toBuilder().name(newName).build();
  }

  public Field withNullable(boolean newNullable) {
    return toBuilder().nullable(newNullable).build();
  }

  /** Builder for {@link Field}; defaults: top level, nullable, no metadata. */
  public static final class Builder {
    private int id;
    private int parentId = NO_PARENT;
    private String name = "";
    private String logicalType = "";
    private boolean nullable = true;
    private Map<String, ByteString> metadata = Map.of();
    private boolean unenforcedPrimaryKey;
    private int unenforcedPrimaryKeyPosition;
    private boolean unenforcedClusteringKey;
    private int unenforcedClusteringKeyPosition;
    private int typeValue;
    private int encodingValue;
    private Optional<Dictionary> dictionary = Optional.empty();
    private String extensionName = "";
    private UnknownFieldSet unknownFields = UnknownFieldSet.getDefaultInstance();

    public Builder id(int v) { id = v; return this; }
    public Builder parentId(int v) { parentId = v; return this; }
    public Builder name(String v) { name = v; return this; }
    public Builder logicalType(String v) { logicalType = v; return this; }
    public Builder nullable(boolean v) { nullable = v; return this; }
    public Builder metadata(Map<String, ByteString> v) { metadata = v; return this; }
    public Builder unenforcedPrimaryKey(boolean v) { unenforcedPrimaryKey = v; return this; }
    public Builder unenforcedPrimaryKeyPosition(int v) { unenforcedPrimaryKeyPosition = v; return this; }
    public Builder unenforcedClusteringKey(boolean v) { unenforcedClusteringKey = v; return this; }
    public Builder unenforcedClusteringKeyPosition(int v) { unenforcedClusteringKeyPosition = v; return this; }
    public Builder typeValue(int v) { typeValue = v; return this; }
    public Builder encodingValue(int v) { encodingValue = v; return this; }
    public Builder dictionary(Optional<Dictionary> v) { dictionary = v; return this; }
    public Builder extensionName(String v) { extensionName = v; return this; }
    public Builder unknownFields(UnknownFieldSet v) { unknownFields = v; return this; }

    public Field build() {
      return new Field(id, parentId, name, logicalType, nullable, metadata, unenforcedPrimaryKey,
          unenforcedPrimaryKeyPosition, unenforcedClusteringKey, unenforcedClusteringKeyPosition,
          typeValue, encodingValue, dictionary, extensionName, unknownFields);
    }
  }
}
