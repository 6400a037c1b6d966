package dev.lancet.core;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.model.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Stand-ins for data files in kernel tests: the kernel treats a data file as opaque, but a commit
 * checks that each new file exists with its recorded size (PublishChecks.verifyNewFiles), so a
 * test writes a placeholder of that size under {@code data/} before it commits the file.
 */
public final class TestDataFiles {
  private TestDataFiles() {}

  /** Writes {@code data/<path>} with {@code file}'s recorded size (zeros) and returns {@code file}. */
  public static DataFile placed(ObjectStore store, DataFile file) {
    try {
      store.put("data/" + file.path(), new byte[(int) file.fileSizeBytes()]);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a placeholder for " + file.path(), e);
    }
    return file;
  }
}
