package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One Lance data file of a fragment: a column group. {@code fields} holds the field id stored
 * in each slot ({@value #TOMBSTONED} marks a slot whose field no longer lives here);
 * {@code columnIndices} the top-level column of each slot (empty for legacy files).
 */
public record DataFile(
    String path,
    List<Integer> fields,
    List<Integer> columnIndices,
    int fileMajorVersion,
    int fileMinorVersion,
    long fileSizeBytes,
    OptionalInt baseId,
    UnknownFieldSet unknownFields) {

  /** A slot whose field's data was superseded or dropped. */
  public static final int TOMBSTONED = -2;
  /** A slot not yet bound to a field; never persisted. */
  public static final int UNASSIGNED = -1;

  public DataFile {
    Objects.requireNonNull(path, "path");
    fields = List.copyOf(fields);
    columnIndices = List.copyOf(columnIndices);
    Objects.requireNonNull(baseId, "baseId");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  public DataFile(String path, List<Integer> fields, List<Integer> columnIndices,
      int fileMajorVersion, int fileMinorVersion, long fileSizeBytes) {
    this(path, fields, columnIndices, fileMajorVersion, fileMinorVersion, fileSizeBytes,
        OptionalInt.empty(), UnknownFieldSet.getDefaultInstance());
  }

  public DataFile withFields(List<Integer> newFields) {
    return new DataFile(path, newFields, columnIndices, fileMajorVersion, fileMinorVersion,
        fileSizeBytes, baseId, unknownFields);
  }

  /** True when at least one slot holds a live (non-tombstoned, assigned) field. */
  public boolean hasLiveField() {
    for (int f : fields) {
      if (f >= 0) {
        return true;
      }
    }
    return false;
  }
}
