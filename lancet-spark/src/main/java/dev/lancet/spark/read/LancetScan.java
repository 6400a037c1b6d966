package dev.lancet.spark.read;

import dev.lancet.spark.TableState;
import dev.lancet.table.LanceTable;
import dev.lancet.table.ScanTask;
import dev.lancet.file.RowRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read at the table's pinned version: one input partition per fragment (a fragment
 * holding more than {@code splitRows} live rows, default 4,194,304, is split into several by
 * row ranges), each re-created on its executor from a {@link ScanTask.Descriptor}.
 */
public final class LancetScan implements Scan, Batch, SupportsReportStatistics {
  private final TableState state;
  private final List<String> columns;
  private final boolean rowId;
  private final boolean rowAddr;
  private final Optional<String> filter;
  private final StructType readSchema;
  private List<ScanTask.Descriptor> planned;

  LancetScan(TableState state, List<String> columns, boolean rowId, boolean rowAddr,
      Optional<String> filter, StructType readSchema) {
    this.state = state;
    this.columns = List.copyOf(columns);
    this.rowId = rowId;
    this.rowAddr = rowAddr;
    this.filter = filter;
    this.readSchema = readSchema;
  }

  /** The version this scan reads. */
  public long version() {
    return state.version().getAsLong();
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public String description() {
    return "lancet " + state.uri() + " @" + version() + " columns=" + columns
        + (rowId ? " +_rowid" : "") + (rowAddr ? " +_rowaddr" : "")
        + filter.map(f -> " filter=" + f).orElse("");
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  private synchronized List<ScanTask.Descriptor> descriptors() {
    if (planned == null) {
      try (LanceTable table = state.open()) {
        dev.lancet.table.Scan scan = table.newScan().asOfVersion(version()).select(columns)
            .batchSize(state.options().batchSize());
        if (rowId) {
          scan.withRowId();
        }
        if (rowAddr) {
          scan.withRowAddress();
        }
        long splitRows = state.options().get("splitRows").map(Long::parseLong).orElse(4L << 20);
        List<ScanTask.Descriptor> out = new ArrayList<>();
        for (ScanTask t : scan.planTasks()) {
          split(t.describe(), splitRows, out);
        }
        planned = out;
      }
    }
    return planned;
  }

  /** {@code d} cut into pieces of at most {@code rows} rows. */
  static void split(ScanTask.Descriptor d, long rows, List<ScanTask.Descriptor> out) {
    List<RowRange> piece = new ArrayList<>();
    long inPiece = 0;
    for (RowRange r : d.ranges()) {
      long start = r.start();
      while (start < r.end()) {
        long take = Math.min(r.end() - start, rows - inPiece);
        piece.add(new RowRange(start, start + take));
        inPiece += take;
        start += take;
        if (inPiece == rows) {
          out.add(new ScanTask.Descriptor(d.version(), d.fragmentId(), piece, d.columns(),
              d.withRowId(), d.withRowAddr(), d.batchSize()));
          piece = new ArrayList<>();
          inPiece = 0;
        }
      }
    }
    if (!piece.isEmpty()) {
      out.add(new ScanTask.Descriptor(d.version(), d.fragmentId(), piece, d.columns(),
          d.withRowId(), d.withRowAddr(), d.batchSize()));
    }
  }

  @Override
  public InputPartition[] planInputPartitions() {
    List<ScanTask.Descriptor> ds = descriptors();
    InputPartition[] out = new InputPartition[ds.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = new LancetInputPartition(state.uri(), state.options().storageOptions(), ds.get(i),
          filter.orElse(""), readSchema.json());
    }
    return out;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new LancetReaderFactory();
  }

  @Override
  public Statistics estimateStatistics() {
    long rows = 0;
    for (ScanTask.Descriptor d : descriptors()) {
      for (RowRange r : d.ranges()) {
        rows += r.length();
      }
    }
    long n = rows;
    long width = Math.max(8, readSchema.defaultSize());
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(n * width);
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.of(n);
      }
    };
  }
}
