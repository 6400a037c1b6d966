package dev.lancet.table;

import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Schema;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Streams an {@link ArrowReader} into data files: each batch is checked against the table's
 * schema, lined up in its column order and handed to the data-file writer before the next one
 * is loaded. Memory: the reader's one batch plus the writer's buffers of the one open file.
 * On any failure every file written is deleted.
 */
final class StreamWrite {
  /** The files written and the rows they hold. */
  record Written(List<WrittenFile> files, long rows) {
    /** The manifest entry of file {@code i}. */
    DataFile dataFile(int i) {
      return StreamWrite.dataFile(files.get(i));
    }
  }

  /** The manifest entry of a written file. */
  static DataFile dataFile(WrittenFile w) {
    return new DataFile(w.path(), w.fieldIds(), w.columnIndices(), w.fileMajorVersion(),
        w.fileMinorVersion(), w.sizeBytes());
  }

  private StreamWrite() {}

  /**
   * Writes every batch of {@code reader} as files of {@code fileVersion} for a table whose Lance
   * schema is {@code schema} (its ids are the ids the files record).
   */
  static Written write(TableContext ctx, ArrowReader reader, Schema schema, String fileVersion,
      long maxRowsPerFile, long maxBytesPerFile, LongConsumer progress) {
    BatchConformance conformance = new BatchConformance(schema, Optional.of(reader));
    org.apache.arrow.vector.types.pojo.Schema arrow =
        TableSchemas.toArrow(schema);
    WriteSpec spec = new WriteSpec(ctx.uri(), ctx.storageOptions(), ctx.store(), "data", arrow,
        schema.fields(), fileVersion, maxRowsPerFile, maxBytesPerFile, ctx.allocator(),
        Optional.of(reader));
    DataFileWriter writer;
    try {
      writer = ctx.dataFiles().newWriter(spec);
    } catch (IOException e) {
      throw new UncheckedIOException("starting to write data files of " + ctx.uri(), e);
    }
    try {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        if (batch.getRowCount() == 0) {
          continue;
        }
        writer.write(conformance.conform(batch));
        progress.accept(writer.rowsWritten());
      }
      long rows = writer.rowsWritten();
      List<WrittenFile> files = writer.finish();
      return new Written(new ArrayList<>(files), rows);
    } catch (IOException e) {
      writer.abort();
      throw new UncheckedIOException("writing data files of " + ctx.uri() + ": " + e.getMessage(), e);
    } catch (RuntimeException | Error e) {
      writer.abort();
      throw e;
    }
  }

  /** Deletes the files of a write that did not commit (best effort). */
  static void delete(TableContext ctx, Written written) {
    delete(ctx, written.files());
  }

  /** Deletes data files that no commit references (best effort). */
  static void delete(TableContext ctx, List<WrittenFile> files) {
    for (WrittenFile f : files) {
      try {
        ctx.store().delete("data/" + f.path());
      } catch (IOException | RuntimeException e) {
        // cleanup reclaims an unreferenced file later
      }
    }
  }
}
