package dev.lancet.table;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an engine's workers need to write data files for one {@link DistributedWrite}: the
 * table, the version the write was planned against, and (for an overwrite or a new table) the
 * schema the data brings. Serializable, and small: a worker opens a {@link FragmentWriter} with
 * it, which reads the table's schema at {@link #readVersion()} itself.
 */
public final class FragmentWriteSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What the files are for. */
  public enum Mode {
    /** New fragments of the table as it is at the read version (its schema and field ids). */
    APPEND,
    /** The table's new content and schema, replacing what is there. */
    OVERWRITE,
    /** Version 1 of a table that does not exist yet. */
    CREATE
  }

  private final String uri;
  private final Map<String, String> storageOptions;
  private final Mode mode;
  private final long readVersion;
  private final String newSchemaJson;
  private final String storageVersion;
  private final long maxRowsPerFile;
  private final long maxBytesPerFile;
  private final List<String> keyColumns;
  private final String writeTag;

  FragmentWriteSpec(String uri, Map<String, String> storageOptions, Mode mode, long readVersion,
      Optional<org.apache.arrow.vector.types.pojo.Schema> newSchema, String storageVersion,
      long maxRowsPerFile, long maxBytesPerFile, List<String> keyColumns, String writeTag) {
    this.uri = Objects.requireNonNull(uri, "uri");
    this.storageOptions = Map.copyOf(storageOptions);
    this.mode = Objects.requireNonNull(mode, "mode");
    this.readVersion = readVersion;
    this.newSchemaJson = newSchema.map(org.apache.arrow.vector.types.pojo.Schema::toJson).orElse("");
    this.storageVersion = Objects.requireNonNull(storageVersion, "storageVersion");
    this.maxRowsPerFile = maxRowsPerFile;
    this.maxBytesPerFile = maxBytesPerFile;
    this.keyColumns = List.copyOf(keyColumns);
    this.writeTag = Objects.requireNonNull(writeTag, "writeTag");
    if ((mode == Mode.APPEND) != newSchemaJson.isEmpty()) {
      throw new IllegalArgumentException("an append takes the table's schema; an overwrite or a "
          + "create brings its own");
    }
  }

  public String uri() {
    return uri;
  }

  public Map<String, String> storageOptions() {
    return storageOptions;
  }

  public Mode mode() {
    return mode;
  }

  /** The version the write was planned against (0 for a new table). */
  public long readVersion() {
    return readVersion;
  }

  /** The Arrow schema of an overwrite's or a create's data. */
  public Optional<org.apache.arrow.vector.types.pojo.Schema> newSchema() {
    if (newSchemaJson.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(org.apache.arrow.vector.types.pojo.Schema.fromJSON(newSchemaJson));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("decoding the schema of a write to " + uri, e);
    }
  }

  /** The Lance data storage version the files are written in. */
  public String storageVersion() {
    return storageVersion;
  }

  public long maxRowsPerFile() {
    return maxRowsPerFile;
  }

  public long maxBytesPerFile() {
    return maxBytesPerFile;
  }

  /** The columns whose key hashes the writers collect (for a unique-key assertion). */
  public List<String> keyColumns() {
    return keyColumns;
  }

  /**
   * The id of the coordinator's write while it is open, or empty for a detached spec: workers
   * name their files {@code {tag}-{uuid}.lance}, and a worker that finishes after the write was
   * committed or aborted deletes its files instead of reporting them (see
   * {@link DistributedWrite#abort}).
   */
  public Optional<String> writeTag() {
    return writeTag.isEmpty() ? Optional.empty() : Optional.of(writeTag);
  }

  /** The same spec without the write's tag: for workers that outlive the write. */
  FragmentWriteSpec detached() {
    return new FragmentWriteSpec(uri, storageOptions, mode, readVersion, newSchema(),
        storageVersion, maxRowsPerFile, maxBytesPerFile, keyColumns, "");
  }
}
