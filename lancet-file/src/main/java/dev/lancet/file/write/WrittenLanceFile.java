package dev.lancet.file.write;

import java.util.List;

/**
 * What a finished file holds, as a table manifest's {@code DataFile} records it.
 *
 * @param fieldIds the field id of each slot (for 2.1: the leaves, in pre-order)
 * @param columnIndices the file column of each slot (0, 1, 2, ...)
 * @param sizeBytes the file's length
 * @param rows the rows written
 */
public record WrittenLanceFile(List<Integer> fieldIds, List<Integer> columnIndices,
    int majorVersion, int minorVersion, long sizeBytes, long rows) {
  public WrittenLanceFile {
    fieldIds = List.copyOf(fieldIds);
    columnIndices = List.copyOf(columnIndices);
  }
}
