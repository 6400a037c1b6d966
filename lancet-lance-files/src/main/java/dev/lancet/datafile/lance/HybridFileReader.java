package dev.lancet.datafile.lance;

import dev.lancet.file.read.LanceDataFile;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.file.LanceFileReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local Lance 2.0 or 2.1 file read by Lancet's Java reader wherever it decodes every requested
 * column, and by lance-core's {@link LanceFileReader} (opened on the first read that needs it,
 * at most once) otherwise. Schema and row count come from the Java reader, which gives them as
 * lance-core does (decision 0025).
 */
final class HybridFileReader implements DataFileReader {
  private static final Logger LOG = LoggerFactory.getLogger(HybridFileReader.class);

  private final LanceDataFile file;
  private final String location;
  private final ReadSpec spec;
  private LanceCoreFileReader core;
  private int coreOpens;

  HybridFileReader(LanceDataFile file, String location, ReadSpec spec) {
    this.file = file;
    this.location = location;
    this.spec = spec;
  }

  @Override
  public Schema schema() {
    return file.schema();
  }

  @Override
  public long numRows() {
    return file.numRows();
  }

  @Override
  public ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize)
      throws IOException {
    Optional<String> why = file.unsupported(columns, ranges);
    if (why.isEmpty()) {
      return file.read(columns, ranges, batchSize, spec.allocator());
    }
    LOG.debug("lance-core reads {}: {}", location, why.get());
    return core().read(columns, ranges, batchSize);
  }

  /** The Java reader decodes each chunk once for all the ranges in it: exact ranges are best. */
  @Override
  public int rangeGap(List<String> columns) {
    try {
      return file.unsupported(columns, List.of()).isEmpty() ? 0 : LanceCoreFileReader.RANGE_GAP;
    } catch (IOException e) {
      return LanceCoreFileReader.RANGE_GAP; // lance-core's reader will read, or report, it
    }
  }

  private synchronized LanceCoreFileReader core() throws IOException {
    if (core == null) {
      coreOpens++;
      core = new LanceCoreFileReader(
          LanceFileReader.open(location, spec.storageOptions(), spec.allocator()), location);
    }
    return core;
  }

  /** How many times lance-core's reader was opened (0 or 1); for tests. */
  synchronized int coreOpens() {
    return coreOpens;
  }

  @Override
  public void close() {
    try {
      file.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing " + location, e);
    } finally {
      synchronized (this) {
        if (core != null) {
          core.close();
        }
      }
    }
  }
}
