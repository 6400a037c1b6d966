package dev.lancet.table;

import dev.lancet.core.Table;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Schema;
import dev.lancet.table.keys.KeyFilterBuilder;
import dev.lancet.table.spi.DataFileFormats;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes one worker's rows of a {@link DistributedWrite} as data files ("write these rows as
 * data files and give me their descriptions"): batches pushed with {@link #write}, checked
 * against the table's schema, rolled over into new files at the spec's limits; {@link #finish}
 * describes the files (each becomes one fragment when the coordinator commits), {@link #abort}
 * deletes them. Nothing is committed here. Not thread-safe; one per task.
 *
 * <pre>{@code
 * try (FragmentWriter w = FragmentWriter.open(spec, allocator)) {
 *   w.write(batch); ...
 *   List<WrittenFile> files = w.finish();   // send to the coordinator
 * }
 * }</pre>
 */
public final class FragmentWriter implements AutoCloseable {
  private final FragmentWriteSpec spec;
  private final ObjectStore store;
  private final BatchConformance conformance;
  private final DataFileWriter writer;
  private final List<String> keyColumns;
  private long[] keyHashes = new long[0];
  private int keyCount;
  private boolean finished;
  private boolean closed;

  private FragmentWriter(FragmentWriteSpec spec, ObjectStore store, Schema lance,
      BufferAllocator allocator) throws IOException {
    this.spec = spec;
    this.store = store;
    this.conformance = new BatchConformance(lance, Optional.empty());
    this.keyColumns = spec.keyColumns();
    for (String k : keyColumns) {
      Columns.resolve(lance, k, spec.readVersion());
    }
    WriteSpec ws = new WriteSpec(spec.uri(), spec.storageOptions(), store, "data",
        TableSchemas.toArrow(lance), lance.fields(), spec.storageVersion(),
        spec.maxRowsPerFile(), spec.maxBytesPerFile(), allocator, Optional.empty(),
        spec.writeTag().map(t -> t + "-").orElse(""));
    this.writer = DataFileFormats.discover().newWriter(ws);
  }

  /**
   * Opens a writer for {@code spec}: an append reads the table's schema at the spec's read
   * version (one manifest read); an overwrite or create uses the data's schema with the
   * provisional field ids the coordinator's commit mints from.
   */
  public static FragmentWriter open(FragmentWriteSpec spec, BufferAllocator allocator) {
    ObjectStore store = ObjectStores.forUri(spec.uri());
    try {
      Schema lance;
      if (spec.mode() == FragmentWriteSpec.Mode.APPEND) {
        Snapshot read;
        try {
          read = Table.open(spec.uri(), store).version(spec.readVersion());
        } catch (RuntimeException e) {
          throw Commits.translate(e);
        }
        lance = read.manifest().schema();
      } else {
        lance = TableSchemas.toLance(spec.newSchema().orElseThrow(), 0, Optional.empty());
      }
      return new FragmentWriter(spec, store, lance, allocator);
    } catch (IOException e) {
      store.close();
      throw new UncheckedIOException("starting to write data files of " + spec.uri(), e);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Writes one batch (the caller keeps it); its columns may come in any order. */
  public void write(VectorSchemaRoot batch) {
    if (batch.getRowCount() == 0) {
      return;
    }
    VectorSchemaRoot conformed = conformance.conform(batch);
    if (!keyColumns.isEmpty()) {
      List<FieldVector> keys = new ArrayList<>(keyColumns.size());
      for (String k : keyColumns) {
        keys.add(conformed.getVector(k));
      }
      KeyFilterBuilder.forEachKeyHash(keys, this::addKey);
    }
    try {
      writer.write(conformed);
    } catch (IOException e) {
      throw new UncheckedIOException("writing data files of " + spec.uri() + ": " + e.getMessage(), e);
    }
  }

  private void addKey(long hash) {
    if (keyCount == keyHashes.length) {
      keyHashes = java.util.Arrays.copyOf(keyHashes, Math.max(16, keyCount * 2));
    }
    keyHashes[keyCount++] = hash;
  }

  public long rowsWritten() {
    return writer.rowsWritten();
  }

  /** The key hashes of the rows written so far (when the spec names key columns). */
  public long[] keyHashes() {
    return java.util.Arrays.copyOf(keyHashes, keyCount);
  }

  /**
   * Closes the open file and describes every file written, in write order. When the spec's
   * write has ended meanwhile (committed, aborted or closed by its coordinator), the files are
   * deleted instead and this throws: no commit will take them.
   */
  public List<WrittenFile> finish() {
    List<WrittenFile> files;
    try {
      files = writer.finish();
    } catch (IOException e) {
      abort();
      // The coordinator's abort may have deleted a file just completed (before it was synced).
      if (spec.writeTag().isPresent() && !writeOpen(e)) {
        throw ended(-1, e);
      }
      throw new UncheckedIOException("finishing data files of " + spec.uri(), e);
    }
    // Checked only now that every file is complete: the coordinator's abort lists the data
    // files after it ends the write, so a file this check misses, its listing sees.
    if (spec.writeTag().isPresent() && !writeOpen(null)) {
      abort();
      throw ended(files.size(), null);
    }
    finished = true;
    return List.copyOf(files);
  }

  /** Whether the spec's write is still open; a failed check deletes this worker's files. */
  private boolean writeOpen(IOException earlier) {
    try {
      return InFlightWrites.isOpen(store, spec.writeTag().get());
    } catch (IOException e) {
      abort();
      if (earlier != null) {
        e.addSuppressed(earlier);
      }
      throw new UncheckedIOException("checking that the distributed write " + spec.writeTag().get()
          + " of " + spec.uri() + " is still open; this worker's files were deleted", e);
    }
  }

  /** {@code files}: how many were deleted, or -1 when finishing them failed (the cause). */
  private LanceTableException ended(int files, IOException cause) {
    return new LanceTableException("the distributed write " + spec.writeTag().get() + " of "
        + spec.uri() + " has ended (its coordinator committed, aborted or closed it) before this "
        + "worker finished: its " + (files >= 0 ? files + " " : "") + "data file(s) were deleted",
        cause);
  }

  /** Deletes every file written so far. */
  public void abort() {
    writer.abort();
  }

  /** Aborts unless {@link #finish()} succeeded; releases the store. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!finished) {
        writer.abort();
      }
      writer.close();
    } finally {
      store.close();
    }
  }
}
