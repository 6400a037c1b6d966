package dev.lancet.spark.write;

import dev.lancet.table.spi.WrittenFile;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.roaringbitmap.RoaringBitmap;

/**
 * What one committed task attempt hands the driver: the data files it wrote (each a new
 * fragment), the key hashes of the rows it inserted (for the unique-key assertion), and, for a
 * row-level operation, the physical offsets it deleted per fragment.
 */
public record TaskFiles(int partitionId, long taskId, List<WrittenFile> files, long[] keyHashes,
    Map<Long, RoaringBitmap> deletedRows, long rows) implements WriterCommitMessage {
  public TaskFiles {
    files = List.copyOf(files);
    deletedRows = Map.copyOf(deletedRows);
  }
}
