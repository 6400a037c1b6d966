package dev.lancet.table.spi;

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

  @Override
  void close();
}
