package dev.lancet.table.spi;

import dev.lancet.file.RowRange;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** One open data file. */
public interface DataFileReader extends AutoCloseable {
  /** The file's own Arrow schema (names as written; a later rename does not show here). */
  Schema schema();

  /** Rows the file holds. */
  long numRows() throws IOException;

  /**
   * Reads the top-level columns {@code columns} (by name in {@link #schema()}) of the rows in
   * {@code ranges} (ascending, non-overlapping), in batches of exactly {@code batchSize} rows
   * except the last. The caller closes the reader.
   */
  ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize) throws IOException;

  /**
   * How many unselected rows between two wanted rows this reader reads along more cheaply than
   * it starts a new range, for a read of {@code columns}: a caller that wants scattered rows
   * merges ranges this close and drops the rows between. Default 0 (a range costs no more than
   * its rows).
   */
  default int rangeGap(List<String> columns) {
    return 0;
  }

  @Override
  void close();
}
