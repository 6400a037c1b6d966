package dev.lancet.table.datafile;

import dev.lancet.file.write.InvalidBatchException;
import dev.lancet.file.write.LanceFileWriter;
import dev.lancet.file.write.WriterOptions;
import dev.lancet.file.write.WrittenLanceFile;
import dev.lancet.format.model.Schema;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes a stream of batches as Lance 2.1 data files named {@code {prefix}{uuid}.lance} with
 * Lancet's pure-Java writer (decision 0033), each streamed into the table's object store as it
 * is encoded: one open file at a time, rolling over at the row limit (a batch that straddles it
 * is split) or once the file's encoded bytes reach the byte limit. Memory: the batch being
 * written and about one page per column of the open file. A batch the writer refuses (a null in
 * a non-nullable column, a type it does not write) is an {@link InvalidInputException} naming
 * the column, before any of it is buffered.
 */
public final class JavaFileWriter implements DataFileWriter {
  private final WriteSpec spec;
  private final Schema schema;
  private final WriterOptions options;
  private final List<WrittenFile> done = new ArrayList<>();
  private final List<String> created = new ArrayList<>();

  private LanceFileWriter current;
  private String currentName;
  private long rowsWritten;
  private boolean finished;
  private boolean aborted;

  private JavaFileWriter(WriteSpec spec) {
    this.spec = spec;
    this.schema = new Schema(spec.fields(), Map.of());
    this.options = WriterOptions.defaults();
  }

  /** Whether the Java writer writes files of {@code spec} (Lance 2.1, no dictionary columns). */
  public static boolean writes(WriteSpec spec) {
    String[] v = spec.fileVersion().split("\\.");
    return v.length == 2 && LanceFileWriter.writes(Integer.parseInt(v[0]), Integer.parseInt(v[1]))
        && spec.fields().stream().noneMatch(f -> f.logicalType().startsWith("dict:"));
  }

  /** A writer of {@code spec}'s files; {@link #writes} must hold for it. */
  public static JavaFileWriter open(WriteSpec spec) {
    if (!writes(spec)) {
      throw new IllegalArgumentException("the Java writer writes Lance 2.1 files without "
          + "dictionary-encoded columns, not " + spec.fileVersion() + " files of " + spec.fields());
    }
    return new JavaFileWriter(spec);
  }

  @Override
  public void write(VectorSchemaRoot batch) throws IOException {
    if (finished || aborted) {
      throw new IllegalStateException("the data-file writer is " + (aborted ? "aborted" : "finished"));
    }
    int n = batch.getRowCount();
    int offset = 0;
    while (offset < n) {
      if (current == null) {
        openNext();
      }
      long room = spec.maxRowsPerFile() - current.rowsWritten();
      int take = (int) Math.min(n - offset, room);
      if (offset == 0 && take == n) {
        writeBatch(batch);
      } else {
        try (VectorSchemaRoot part = batch.slice(offset, take)) {
          writeBatch(part);
        }
      }
      rowsWritten += take;
      offset += take;
      if (current.rowsWritten() >= spec.maxRowsPerFile()
          || current.bytesWritten() + current.bufferedBytes() >= spec.maxBytesPerFile()) {
        closeCurrent();
      }
    }
  }

  private void writeBatch(VectorSchemaRoot part) throws IOException {
    try {
      current.write(part);
    } catch (InvalidBatchException e) {
      throw new InvalidInputException("a batch cannot be written to " + spec.tableUri() + ": "
          + e.getMessage(), e);
    }
  }

  private void openNext() throws IOException {
    currentName = spec.fileNamePrefix() + UUID.randomUUID() + ".lance";
    String relative = spec.directory() + "/" + currentName;
    created.add(relative);
    try {
      current = LanceFileWriter.open(new StoreFileOutput(spec.store().newOutput(relative)),
          schema, options);
    } catch (InvalidBatchException e) {
      throw new InvalidInputException("the table's columns cannot be written by the Java "
          + "writer: " + e.getMessage(), e);
    }
  }

  private void closeCurrent() throws IOException {
    LanceFileWriter w = current;
    current = null;
    WrittenLanceFile f = w.finish();
    done.add(new WrittenFile(currentName, f.fieldIds(), f.columnIndices(), f.majorVersion(),
        f.minorVersion(), f.sizeBytes(), f.rows()));
  }

  @Override
  public long rowsWritten() {
    return rowsWritten;
  }

  @Override
  public List<WrittenFile> finish() throws IOException {
    if (aborted) {
      throw new IllegalStateException("the data-file writer was aborted");
    }
    if (!finished) {
      if (current != null) {
        closeCurrent();
      }
      finished = true;
    }
    return List.copyOf(done);
  }

  @Override
  public void abort() {
    if (aborted) {
      return;
    }
    aborted = true;
    if (current != null) {
      current.abort();
      current = null;
    }
    for (String path : created) {
      try {
        spec.store().delete(path);
      } catch (IOException | RuntimeException e) {
        // an unreferenced file: cleanup removes it later
      }
    }
  }

  @Override
  public void close() {
    if (!finished) {
      abort();
    }
  }
}
