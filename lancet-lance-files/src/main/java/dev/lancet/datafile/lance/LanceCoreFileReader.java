package dev.lancet.datafile.lance;

import dev.lancet.table.spi.DataFileReader;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.file.LanceFileReader;
import org.lance.util.Range;

/** One Lance data file opened with lance-core's {@link LanceFileReader}. */
final class LanceCoreFileReader implements DataFileReader {
  /**
   * lance-core schedules each range on its own: an update's scattered rows read as exact ranges
   * took 2.5 times as long as ranges merged across gaps of up to 16 rows (BENCHMARKS.md).
   */
  static final int RANGE_GAP = 16;

  private final LanceFileReader reader;
  private final String where;

  LanceCoreFileReader(LanceFileReader reader, String where) {
    this.reader = reader;
    this.where = where;
  }

  @Override
  public Schema schema() {
    return reader.schema();
  }

  @Override
  public long numRows() throws IOException {
    return reader.numRows();
  }

  @Override
  public ArrowReader read(List<String> columns, List<RowRange> ranges, int batchSize)
      throws IOException {
    List<Range> native_ = new ArrayList<>(ranges.size());
    for (RowRange r : ranges) {
      if (r.end() > Integer.MAX_VALUE) {
        throw new IOException(where + ": row " + r.end() + " is past what lance-core's file "
            + "reader addresses (2^31 - 1 rows per file)");
      }
      native_.add(Range.of((int) r.start(), (int) r.end()));
    }
    return reader.readAll(columns, native_, batchSize);
  }

  @Override
  public int rangeGap(List<String> columns) {
    return RANGE_GAP;
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("closing the Lance file reader for " + where, e);
    }
  }
}
