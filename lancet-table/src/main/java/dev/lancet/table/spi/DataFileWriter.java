package dev.lancet.table.spi;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes a stream of batches as one or more data files, starting a new file when the current
 * one reaches the row or byte limit. Holds no more than the batch being written plus the
 * encoder's buffers of the one open file: memory does not grow with the rows written.
 *
 * <p>Call {@link #finish()} to close the last file and get every file's description, or
 * {@link #abort()} (also what {@link #close()} does before {@code finish}) to delete every file
 * written so far.
 */
public interface DataFileWriter extends AutoCloseable {
  /** Writes one batch (the caller keeps ownership of it). */
  void write(VectorSchemaRoot batch) throws IOException;

  /** Rows written so far. */
  long rowsWritten();

  /** Closes the open file and describes every file written, in write order. */
  List<WrittenFile> finish() throws IOException;

  /** Deletes every file this writer wrote (best effort); the writer is unusable afterwards. */
  void abort();

  /** Aborts unless {@link #finish()} succeeded. */
  @Override
  void close();
}
