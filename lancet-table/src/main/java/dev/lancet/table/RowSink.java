package dev.lancet.table;

import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.format.rowids.U64Segment;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes the rows a statement adds (updated copies, inserted rows, compacted rows) as new
 * fragments of the view's schema, one data file per fragment, and remembers where each row came
 * from: with stable row ids a moved row keeps its row id, and its created-at version (and, for a
 * compaction, its last-updated version) is carried; rows without an id get fresh ones at apply.
 *
 * <p>A fragment's explicit row ids must come before its fresh ones and its carried versions
 * cover all of its rows or none, so a row of another kind than the open file's starts a new file.
 */
final class RowSink implements AutoCloseable {
  /** Where a row came from. */
  enum Kind {
    /** A new row: fresh row id, versions stamped at commit. */
    FRESH,
    /** A row the transaction itself wrote earlier, now moved: its (reserved) id, versions stamped. */
    MOVED_PENDING,
    /** A committed row moved by an update: its id and created-at carried, last-updated stamped. */
    MOVED,
    /** A committed row compacted: its id and both versions carried. */
    COMPACTED
  }

  private final TxnPlan plan;
  private final TxnPlan.Step step;
  private final boolean dataChange;
  private final long maxRowsPerFile;
  private final BatchConformance conformance;
  private final List<PendingFragment> written = new ArrayList<>();
  private DataFileWriter writer;
  private Kind kind;
  private long[] ids = new long[1024];
  private long[] created = new long[1024];
  private long[] updated = new long[1024];
  private int rows;
  private long total;

  RowSink(TxnPlan plan, TxnPlan.Step step, boolean dataChange, long maxRowsPerFile) {
    this.plan = plan;
    this.step = step;
    this.dataChange = dataChange;
    this.maxRowsPerFile = maxRowsPerFile;
    this.conformance = new BatchConformance(plan.view().schema(), Optional.empty());
  }

  /** Rows written so far. */
  long rows() {
    return total;
  }

  /**
   * Writes {@code batch} (the table's columns). {@code rowIds}, {@code createdAt} and
   * {@code lastUpdatedAt} give each row's carried values (ignored for {@link Kind#FRESH}; the
   * versions only where the kind carries them); they may be null when not carried.
   */
  void write(VectorSchemaRoot batch, Kind k, long[] rowIds, long[] createdAt,
      long[] lastUpdatedAt) {
    int n = batch.getRowCount();
    if (n == 0) {
      return;
    }
    boolean stable = plan.view().stableRowIds();
    Kind effective = stable ? k : Kind.FRESH;
    if (writer != null && effective != kind) {
      finishFile();
    }
    if (writer == null) {
      open(effective);
    }
    VectorSchemaRoot conformed = conformance.conform(batch);
    int at = 0;
    while (at < n) {
      long room = maxRowsPerFile - rows;
      if (room == 0) {
        finishFile();
        open(effective);
        room = maxRowsPerFile;
      }
      int take = (int) Math.min(room, n - at);
      VectorSchemaRoot part = at == 0 && take == n ? conformed : conformed.slice(at, take);
      try {
        writer.write(part);
      } catch (IOException e) {
        throw new UncheckedIOException("writing new rows of " + plan.ctx().uri(), e);
      } finally {
        if (part != conformed) {
          part.close();
        }
      }
      grow(rows + take);
      for (int i = 0; i < take; i++) {
        ids[rows + i] = effective == Kind.FRESH ? -1 : rowIds[at + i];
        created[rows + i] = effective == Kind.MOVED || effective == Kind.COMPACTED
            ? createdAt[at + i] : -1;
        updated[rows + i] = effective == Kind.COMPACTED ? lastUpdatedAt[at + i] : -1;
      }
      rows += take;
      total += take;
      at += take;
    }
  }

  private void open(Kind k) {
    org.apache.arrow.vector.types.pojo.Schema arrow = TableSchemas.toArrow(plan.view().schema());
    try {
      writer = plan.ctx().dataFiles().newWriter(new WriteSpec(plan.ctx().uri(),
          plan.ctx().storageOptions(), plan.ctx().store(), "data", arrow,
          plan.view().schema().fields(), plan.view().fileVersion(), maxRowsPerFile,
          CreateOptions.DEFAULT_MAX_BYTES_PER_FILE, plan.ctx().allocator(), Optional.empty()));
    } catch (IOException e) {
      throw new UncheckedIOException("starting to write new rows of " + plan.ctx().uri(), e);
    }
    kind = k;
    rows = 0;
  }

  private void grow(int need) {
    if (need > ids.length) {
      int len = Math.max(need, ids.length * 2);
      ids = Arrays.copyOf(ids, len);
      created = Arrays.copyOf(created, len);
      updated = Arrays.copyOf(updated, len);
    }
  }

  private void finishFile() {
    List<WrittenFile> files;
    try {
      files = writer.finish();
    } catch (IOException e) {
      throw new UncheckedIOException("finishing a data file of " + plan.ctx().uri(), e);
    } finally {
      writer.close();
      writer = null;
    }
    int start = 0;
    for (WrittenFile f : files) {
      int n = Math.toIntExact(f.physicalRows());
      written.add(plan.addFragment(step, f, dataChange, rowIdsOf(start, n),
          versionsOf(created, start, n), versionsOf(updated, start, n)));
      start += n;
    }
    if (start != rows) {
      throw new LanceTableException("the data-file writer reported " + start + " rows in "
          + files.size() + " file(s) for " + rows + " rows written");
    }
    rows = 0;
  }

  private Optional<RowIdSequence> rowIdsOf(int start, int n) {
    int k = 0;
    while (k < n && ids[start + k] >= 0) {
      k++;
    }
    return k == 0 ? Optional.empty()
        : Optional.of(RowIdSequence.fromIds(Arrays.copyOfRange(ids, start, start + k)));
  }

  /** Runs of equal versions; empty when not carried. */
  private static Optional<RowVersionSequence> versionsOf(long[] v, int start, int n) {
    if (n == 0 || v[start] < 0) {
      return Optional.empty();
    }
    List<RowVersionSequence.Run> runs = new ArrayList<>();
    int runStart = 0;
    for (int i = 1; i <= n; i++) {
      if (i == n || v[start + i] != v[start + runStart]) {
        runs.add(new RowVersionSequence.Run(new U64Segment.Range(runStart, i), v[start + runStart]));
        runStart = i;
      }
    }
    return Optional.of(RowVersionSequence.of(runs));
  }

  /** Closes the open file; every fragment written is in the plan. */
  void finish() {
    if (writer != null) {
      finishFile();
    }
  }

  /** The fragments finished since the last call, in the order they were written. */
  List<PendingFragment> takeWritten() {
    List<PendingFragment> out = List.copyOf(written);
    written.clear();
    return out;
  }

  @Override
  public void close() {
    if (writer != null) {
      writer.close();
      writer = null;
    }
  }
}
