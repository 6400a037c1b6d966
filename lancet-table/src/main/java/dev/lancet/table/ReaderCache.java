package dev.lancet.table;

import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.ReadSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Data-file readers one statement opens once and reads twice: an update reads the filter's
 * columns of every fragment, then every column of the matched rows of the fragments it hit, and
 * opening a file (its footer and metadata; a request or two on an object store) costs as much as
 * reading a column of it. A reader is lent to one read at a time and given back when that read
 * ended cleanly; at most {@link #MAX_IDLE} wait for their next read, the rest are closed.
 */
final class ReaderCache implements AutoCloseable {
  static final int MAX_IDLE = 64;

  private final Map<BaseFiles.Location, DataFileReader> idle = new HashMap<>();
  private boolean closed;

  /** The idle reader of the file at {@code at}, or a newly opened one. */
  DataFileReader take(TableContext ctx, BaseFiles.Location at, BufferAllocator allocator)
      throws IOException {
    synchronized (this) {
      DataFileReader r = idle.remove(at);
      if (r != null) {
        return r;
      }
    }
    return ctx.dataFiles().openReader(new ReadSpec(at.uri(), ctx.storageOptions(), at.path(),
        allocator));
  }

  /** Takes back a reader whose read ended cleanly (closed if one is idle already, or too many). */
  void giveBack(BaseFiles.Location at, DataFileReader r) {
    synchronized (this) {
      if (!closed && idle.size() < MAX_IDLE && !idle.containsKey(at)) {
        idle.put(at, r);
        return;
      }
    }
    r.close();
  }

  @Override
  public void close() {
    List<DataFileReader> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(idle.values());
      idle.clear();
    }
    for (DataFileReader r : all) {
      try {
        r.close();
      } catch (RuntimeException e) {
        // a reader that read to its end; nothing is lost
      }
    }
  }
}
