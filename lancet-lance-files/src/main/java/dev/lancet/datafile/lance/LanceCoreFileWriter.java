package dev.lancet.datafile.lance;

import dev.lancet.file.schema.ColumnLayout;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.file.LanceFileWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a stream of batches as Lance data files named {@code {prefix}{uuid}.lance} with lance-core's
 * {@link LanceFileWriter}, one open file at a time, rolling over at the row limit (a batch that
 * straddles it is split) or once the batches written reach the byte limit (counted as their
 * Arrow buffer sizes, an upper estimate of the encoded size). Memory: the batch being written
 * and lance-core's page buffers of the open file; nothing accumulates across batches but the
 * list of file descriptions. A finished file is made durable through the table's store
 * ({@code ObjectStore.makeDurable}: fsynced on a local table) before it is reported.
 */
final class LanceCoreFileWriter implements DataFileWriter {
  private static final Logger LOG = LoggerFactory.getLogger(LanceCoreFileWriter.class);

  private final WriteSpec spec;
  private final int major;
  private final int minor;
  private final List<Integer> fieldIds;
  private final List<Integer> columnIndices;
  private final List<WrittenFile> done = new ArrayList<>();
  private final List<String> created = new ArrayList<>();

  private LanceFileWriter current;
  private BufferAllocator currentAllocator;
  private String currentName;
  private long currentRows;
  private long currentBytes;
  private long rowsWritten;
  private boolean finished;
  private boolean aborted;

  LanceCoreFileWriter(WriteSpec spec) {
    this.spec = spec;
    String[] v = spec.fileVersion().split("\\.");
    this.major = Integer.parseInt(v[0]);
    this.minor = Integer.parseInt(v[1]);
    this.fieldIds = ColumnLayout.slotFieldIds(spec.fields(), major, minor);
    this.columnIndices = ColumnLayout.columnIndices(fieldIds.size());
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
        openNext(allocatorOf(batch));
      }
      long room = spec.maxRowsPerFile() - currentRows;
      int take = (int) Math.min(n - offset, room);
      if (offset == 0 && take == n) {
        writeBatch(batch);
      } else {
        try (VectorSchemaRoot part = batch.slice(offset, take)) {
          writeBatch(part);
        }
      }
      currentRows += take;
      rowsWritten += take;
      currentBytes += (long) ((double) bufferBytes(batch) * take / n);
      offset += take;
      if (currentRows >= spec.maxRowsPerFile() || currentBytes >= spec.maxBytesPerFile()) {
        closeCurrent();
      }
    }
  }

  private void writeBatch(VectorSchemaRoot part) throws IOException {
    BufferAllocator owner = allocatorOf(part);
    if (owner != currentAllocator) {
      // lance-core drops a batch exported through another allocator: copy it into the writer's.
      try (VectorSchemaRoot copy = ArrowAlignment.copy(part, currentAllocator)) {
        LanceDataFiles.write(current, copy, currentAllocator, currentName);
      }
      return;
    }
    LanceDataFiles.write(current, part, currentAllocator, currentName);
  }

  private void openNext(BufferAllocator allocator) throws IOException {
    currentName = spec.fileNamePrefix() + UUID.randomUUID() + ".lance";
    String relative = spec.directory() + "/" + currentName;
    created.add(relative);
    currentAllocator = allocator;
    current = LanceDataFiles.open(FileUris.resolve(spec.tableUri(), relative), allocator,
        spec.dictionaries().orElse(null), Optional.of(spec.fileVersion()), spec.storageOptions());
    currentRows = 0;
    currentBytes = 0;
  }

  private void closeCurrent() throws IOException {
    LanceFileWriter w = current;
    current = null;
    LanceDataFiles.close(w, currentName);
    String relative = spec.directory() + "/" + currentName;
    // lance-core writes without fsync; the file must be as durable as the manifest that will
    // name it (decision 0007), so the table's store makes it so before the writer reports it.
    spec.store().makeDurable(relative);
    long size = spec.store().size(relative);
    done.add(new WrittenFile(currentName, fieldIds, columnIndices, major, minor, size, currentRows));
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
      try {
        LanceDataFiles.close(current, currentName);
      } catch (IOException | RuntimeException e) {
        LOG.debug("closing the aborted data file {}: {}", currentName, e.toString());
      }
      current = null;
    }
    for (String path : created) {
      try {
        spec.store().delete(path);
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not delete {} of an aborted write (cleanup removes it later): {}", path,
            e.toString());
      }
    }
  }

  @Override
  public void close() {
    if (!finished) {
      abort();
    }
  }

  private static BufferAllocator allocatorOf(VectorSchemaRoot root) {
    return root.getFieldVectors().get(0).getAllocator();
  }

  private static long bufferBytes(VectorSchemaRoot root) {
    long n = 0;
    for (FieldVector v : root.getFieldVectors()) {
      n += v.getBufferSize();
    }
    return n;
  }
}
