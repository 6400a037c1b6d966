package dev.lancet.table;

import dev.lancet.core.version.Snapshot;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * What every data write takes: the batches, the data-file limits, the commit's retry budget and
 * the observers of its attempts and of the rows written so far.
 */
abstract class WriteBuilder<B extends WriteBuilder<B>> {
  final TableContext ctx;
  final Supplier<Snapshot> latest;
  Optional<ArrowReader> data = Optional.empty();
  /** Whether {@link #data} was made here from the caller's roots (and is closed here). */
  private boolean ownsData;
  long maxRowsPerFile = CreateOptions.DEFAULT_MAX_ROWS_PER_FILE;
  long maxBytesPerFile = CreateOptions.DEFAULT_MAX_BYTES_PER_FILE;
  int maxRetries = 20;
  Consumer<Attempt> onAttempt = a -> { };
  LongConsumer onProgress = rows -> { };

  WriteBuilder(TableContext ctx, Supplier<Snapshot> latest) {
    this.ctx = ctx;
    this.latest = latest;
  }

  abstract B self();

  /** The batches to write; streamed, one batch at a time. The caller closes the reader. */
  public B from(ArrowReader reader) {
    closeOwnedData();
    this.data = Optional.of(Objects.requireNonNull(reader, "reader"));
    return self();
  }

  /**
   * The rows of in-memory batches, all of one schema: written without copying them, one batch
   * at a time as the iterable yields them. The caller keeps and closes its roots.
   */
  public B from(Iterable<? extends VectorSchemaRoot> batches) {
    RootsReader reader = RootsReader.of(batches);
    closeOwnedData();
    this.data = Optional.of(reader);
    this.ownsData = true;
    return self();
  }

  /** The rows of one in-memory batch (see {@link #from(Iterable)}). */
  public B from(VectorSchemaRoot batch) {
    return from(List.of(Objects.requireNonNull(batch, "batch")));
  }

  /** The most rows one data file (one new fragment) holds; default 1,048,576. */
  public B maxRowsPerFile(long rows) {
    this.maxRowsPerFile = CreateOptions.builder().maxRowsPerFile(rows).build().maxRowsPerFile();
    return self();
  }

  /** About the most bytes one data file holds; default 90 GiB. */
  public B maxBytesPerFile(long bytes) {
    this.maxBytesPerFile = CreateOptions.builder().maxBytesPerFile(bytes).build().maxBytesPerFile();
    return self();
  }

  /** How many lost races the commit retries (default 20). */
  public B maxRetries(int retries) {
    if (retries < 0) {
      throw new InvalidInputException("max retries must not be negative, not " + retries);
    }
    this.maxRetries = retries;
    return self();
  }

  /** Reports every commit attempt. */
  public B onAttempt(Consumer<Attempt> observer) {
    this.onAttempt = Objects.requireNonNull(observer, "observer");
    return self();
  }

  /** Reports the rows written so far after every batch (for progress displays). */
  public B onProgress(LongConsumer rowsWritten) {
    this.onProgress = Objects.requireNonNull(rowsWritten, "rowsWritten");
    return self();
  }

  /** Closes the reader {@link #from(Iterable)} made, if any (the caller's roots stay open). */
  void closeOwnedData() {
    if (ownsData) {
      ownsData = false;
      try {
        data.orElseThrow().close();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  ArrowReader requireData(String what) {
    return data.orElseThrow(() -> new InvalidInputException(what + " needs data: call from(reader)"));
  }
}
