package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One version of a table, as its manifest describes it. Immutable; derive the next version
 * with {@link #toBuilder()}. The index list and the transaction live in their own sections of
 * the manifest file (see {@code ManifestFile}), not here; {@code indexSection} and
 * {@code transactionSection} are their offsets as read.
 *
 * <p>{@code maxFragmentId} is an unsigned 32-bit value held in a long; empty means "never set".
 */
public record Manifest(
    Schema schema,
    List<Fragment> fragments,
    long version,
    long versionAuxData,
    Optional<WriterVersion> writerVersion,
    OptionalLong indexSection,
    Optional<Instant> timestamp,
    String tag,
    long readerFeatureFlags,
    long writerFeatureFlags,
    OptionalLong maxFragmentId,
    String transactionFile,
    OptionalLong transactionSection,
    long nextRowId,
    Optional<DataStorageFormat> dataFormat,
    Map<String, String> config,
    Map<String, String> tableMetadata,
    List<BasePath> basePaths,
    Optional<String> branch,
    UnknownFieldSet unknownFields) {

  public Manifest {
    Objects.requireNonNull(schema, "schema");
    fragments = List.copyOf(fragments);
    Objects.requireNonNull(writerVersion, "writerVersion");
    Objects.requireNonNull(indexSection, "indexSection");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(maxFragmentId, "maxFragmentId");
    Objects.requireNonNull(transactionFile, "transactionFile");
    Objects.requireNonNull(transactionSection, "transactionSection");
    Objects.requireNonNull(dataFormat, "dataFormat");
    config = Map.copyOf(config);
    tableMetadata = Map.copyOf(tableMetadata);
    basePaths = List.copyOf(basePaths);
    Objects.requireNonNull(branch, "branch");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  public boolean usesStableRowIds() {
    return (readerFeatureFlags & FeatureFlags.STABLE_ROW_IDS) != 0;
  }

  /**
   * The effective fragment-id high-water mark: the stored value, or the largest id present;
   * empty for a table that never had a fragment.
   */
  public OptionalLong effectiveMaxFragmentId() {
    long max = maxFragmentId.orElse(-1);
    for (Fragment f : fragments) {
      max = Math.max(max, f.id());
    }
    return max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
  }

  /** The fragment with this id, if present. Fragments are sorted by id, so this bisects. */
  public Optional<Fragment> fragment(long id) {
    int lo = 0;
    int hi = fragments.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long midId = fragments.get(mid).id();
      if (midId < id) {
        lo = mid + 1;
      } else if (midId > id) {
        hi = mid - 1;
      } else {
        return Optional.of(fragments.get(mid));
      }
    }
    // Fall back to a scan in case a foreign writer left fragments unsorted.
    for (Fragment f : fragments) {
      if (f.id() == id) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** Rows a full scan returns (physical rows minus deleted rows, over all fragments). */
  public long liveRows() {
    long n = 0;
    for (Fragment f : fragments) {
      n += f.liveRows();
    }
    return n;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .schema(schema)
        .fragments(fragments)
        .version(version)
        .versionAuxData(versionAuxData)
        .writerVersion(writerVersion)
        .indexSection(indexSection)
        .timestamp(timestamp)
        .tag(tag)
        .readerFeatureFlags(readerFeatureFlags)
        .writerFeatureFlags(writerFeatureFlags)
        .maxFragmentId(maxFragmentId)
        .transactionFile(transactionFile)
        .transactionSection(transactionSection)
        .nextRowId(nextRowId)
        .dataFormat(dataFormat)
        .config(config)
        .tableMetadata(tableMetadata)
        .basePaths(basePaths)
        .branch(branch)
        .unknownFields(unknownFields);
  }

  /** Builder for {@link Manifest}; every part defaults to empty. */
  public static final class Builder {
    private Schema schema = Schema.EMPTY;
    private List<Fragment> fragments = List.of();
    private long version;
    private long versionAuxData;
    private Optional<WriterVersion> writerVersion = Optional.empty();
    private OptionalLong indexSection = OptionalLong.empty();
    private Optional<Instant> timestamp = Optional.empty();
    private String tag = "";
    private long readerFeatureFlags;
    private long writerFeatureFlags;
    private OptionalLong maxFragmentId = OptionalLong.empty();
    private String transactionFile = "";
    private OptionalLong transactionSection = OptionalLong.empty();
    private long nextRowId;
    private Optional<DataStorageFormat> dataFormat = Optional.empty();
    private Map<String, String> config = Map.of();
    private Map<String, String> tableMetadata = Map.of();
    private List<BasePath> basePaths = List.of();
    private Optional<String> branch = Optional.empty();
    private UnknownFieldSet unknownFields = UnknownFieldSet.getDefaultInstance();

    public Builder schema(Schema v) { schema = v; return this; }
    public Builder fragments(List<Fragment> v) { fragments = v; return this; }
    public Builder version(long v) { version = v; return this; }
    public Builder versionAuxData(long v) { versionAuxData = v; return this; }
    public Builder writerVersion(Optional<WriterVersion> v) { writerVersion = v; return this; }
    public Builder indexSection(OptionalLong v) { indexSection = v; return this; }
    public Builder timestamp(Optional<Instant> v) { timestamp = v; return this; }
    public Builder tag(String v) { tag = v; return this; }
    public Builder readerFeatureFlags(long v) { readerFeatureFlags = v; return this; }
    public Builder writerFeatureFlags(long v) { writerFeatureFlags = v; return this; }
    public Builder maxFragmentId(OptionalLong v) { maxFragmentId = v; return this; }
    public Builder transactionFile(String v) { transactionFile = v; return this; }
    public Builder transactionSection(OptionalLong v) { transactionSection = v; return this; }
    public Builder nextRowId(long v) { nextRowId = v; return this; }
    public Builder dataFormat(Optional<DataStorageFormat> v) { dataFormat = v; return this; }
    public Builder config(Map<String, String> v) { config = v; return this; }
    public Builder tableMetadata(Map<String, String> v) { tableMetadata = v; return this; }
    public Builder basePaths(List<BasePath> v) { basePaths = v; return this; }
    public Builder branch(Optional<String> v) { branch = v; return this; }
    public Builder unknownFields(UnknownFieldSet v) { unknownFields = v; return this; }

    public Manifest build() {
      return new Manifest(schema, fragments, version, versionAuxData, writerVersion, indexSection,
          timestamp, tag, readerFeatureFlags, writerFeatureFlags, maxFragmentId, transactionFile,
          transactionSection, nextRowId, dataFormat, config, tableMetadata, basePaths, branch,
          unknownFields);
    }
  }
}
