package dev.lancet.file.read;

import dev.lancet.file.RowRange;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One open Lance data file read in Java, whatever its version: {@link LanceFile} for 2.1,
 * {@code v20.LanceFile20} for 2.0 (decisions 0025 and 0031); {@link LanceDataFiles#open} picks
 * by the footer's version. Not safe for concurrent use.
 */
public interface LanceDataFile extends AutoCloseable {
  Path path();

  /** The file's Arrow schema, as lance-core's reader gives it. */
  Schema schema();

  long numRows();

  /**
   * Why the Java reader cannot serve a read of {@code columns} over {@code ranges}, if it
   * cannot: a column it does not decode, a name the file does not have, a range past the end.
   */
  Optional<String> unsupported(List<String> columns, List<RowRange> ranges) throws IOException;

  /**
   * Reads {@code columns} (top-level names; they come back in file order, as lance-core gives
   * them) of the rows in {@code ranges}, in batches of {@code batchSize} rows (the last may be
   * shorter), into vectors from {@code allocator}. Call only when {@link #unsupported} is empty
   * for the same columns and ranges.
   */
  ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize,
      BufferAllocator allocator) throws IOException;

  @Override
  void close() throws IOException;
}
