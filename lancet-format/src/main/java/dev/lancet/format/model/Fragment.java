package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A set of rows stored as column groups that share row order. {@code physicalRows} counts
 * deleted rows too; the live count subtracts the deletion file's count.
 */
public record Fragment(
    long id,
    List<DataFile> files,
    Optional<DeletionFile> deletionFile,
    Optional<StoredSequence> rowIds,
    Optional<StoredSequence> lastUpdatedAtVersions,
    Optional<StoredSequence> createdAtVersions,
    long physicalRows,
    List<DataOverlayFile> overlays,
    UnknownFieldSet unknownFields) {

  public Fragment {
    files = List.copyOf(files);
    Objects.requireNonNull(deletionFile, "deletionFile");
    Objects.requireNonNull(rowIds, "rowIds");
    Objects.requireNonNull(lastUpdatedAtVersions, "lastUpdatedAtVersions");
    Objects.requireNonNull(createdAtVersions, "createdAtVersions");
    overlays = List.copyOf(overlays);
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  /** A fragment with files and a row count, nothing else. */
  public static Fragment of(long id, long physicalRows, List<DataFile> files) {
    return builder(id).physicalRows(physicalRows).files(files).build();
  }

  public long numDeletedRows() {
    return deletionFile.map(DeletionFile::numDeletedRows).orElse(0L);
  }

  /** Rows a scan returns. */
  public long liveRows() {
    return physicalRows - numDeletedRows();
  }

  public static Builder builder(long id) {
    return new Builder().id(id);
  }

  public Builder toBuilder() {
    return new Builder()
        .id(id)
        .files(files)
        .deletionFile(deletionFile)
        .rowIds(rowIds)
        .lastUpdatedAtVersions(lastUpdatedAtVersions)
        .createdAtVersions(createdAtVersions)
        .physicalRows(physicalRows)
        .overlays(overlays)
        .unknownFields(unknownFields);
  }

  /** Builder for {@link Fragment}. */
  public static final class Builder {
    private long id;
    private List<DataFile> files = List.of();
    private Optional<DeletionFile> deletionFile = Optional.empty();
    private Optional<StoredSequence> rowIds = Optional.empty();
    private Optional<StoredSequence> lastUpdatedAtVersions = Optional.empty();
    private Optional<StoredSequence> createdAtVersions = Optional.empty();
    private long physicalRows;
    private List<DataOverlayFile> overlays = List.of();
    private UnknownFieldSet unknownFields = UnknownFieldSet.getDefaultInstance();

    public Builder id(long v) { id = v; return this; }
    public Builder files(List<DataFile> v) { files = v; return this; }
    public Builder deletionFile(Optional<DeletionFile> v) { deletionFile = v; return this; }
    public Builder rowIds(Optional<StoredSequence> v) { rowIds = v; return this; }
    public Builder lastUpdatedAtVersions(Optional<StoredSequence> v) { lastUpdatedAtVersions = v; return this; }
    public Builder createdAtVersions(Optional<StoredSequence> v) { createdAtVersions = v; return this; }
    public Builder physicalRows(long v) { physicalRows = v; return this; }
    public Builder overlays(List<DataOverlayFile> v) { overlays = v; return this; }
    public Builder unknownFields(UnknownFieldSet v) { unknownFields = v; return this; }

    public Fragment build() {
      return new Fragment(id, files, deletionFile, rowIds, lastUpdatedAtVersions,
          createdAtVersions, physicalRows, overlays, unknownFields);
    }
  }
}
