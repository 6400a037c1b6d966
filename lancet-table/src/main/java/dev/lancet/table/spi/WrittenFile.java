package dev.lancet.table.spi;

import java.util.List;
import java.util.Objects;

/**
 * One data file a {@link DataFileWriter} wrote, described as the manifest records it.
 *
 * @param path the file's path relative to the write's directory (for {@code data/}: the name)
 * @param fieldIds the table field id of each slot, in slot order
 * @param columnIndices the file column of each slot
 * @param physicalRows the rows the file holds
 *
 * <p>Serializable so that an engine's workers can hand descriptions to its coordinator.
 */
public record WrittenFile(
    String path,
    List<Integer> fieldIds,
    List<Integer> columnIndices,
    int fileMajorVersion,
    int fileMinorVersion,
    long sizeBytes,
    long physicalRows) implements java.io.Serializable {

  public WrittenFile {
    Objects.requireNonNull(path, "path");
    fieldIds = List.copyOf(fieldIds);
    columnIndices = List.copyOf(columnIndices);
    if (fieldIds.size() != columnIndices.size()) {
      throw new IllegalArgumentException("data file " + path + " lists " + fieldIds.size()
          + " field ids but " + columnIndices.size() + " column indices");
    }
  }
}
