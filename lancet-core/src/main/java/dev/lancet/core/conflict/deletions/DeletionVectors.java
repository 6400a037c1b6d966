package dev.lancet.core.conflict.deletions;

import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.pb.TableProtos;
import java.io.IOException;

/**
 * The second phase's seam to a table's deletion files: read the vector a fragment's deletion
 * file holds, and write a new one.
 */
public interface DeletionVectors {

  /** The rows {@code file} deletes in fragment {@code fragmentId}. */
  DeletionVector read(long fragmentId, TableProtos.DeletionFile file) throws IOException;

  /**
   * Writes {@code vector} as a new deletion file of {@code fragmentId}, named with
   * {@code readVersion}, and returns its manifest entry.
   */
  TableProtos.DeletionFile write(long fragmentId, long readVersion, DeletionVector vector) throws IOException;
}
