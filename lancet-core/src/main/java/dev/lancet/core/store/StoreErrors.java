package dev.lancet.core.store;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ReadOnlyFileSystemException;

/** Tells store failures that a retry can cure (a flaky request) from those it cannot. */
public final class StoreErrors {
  private StoreErrors() {}

  /**
   * Whether {@code error} (or a cause of it) is a failure no retry cures: permission denied, a
   * read-only filesystem, a path whose directory is a file, a symbolic-link loop, an object larger
   * than its reader allows. A commit reports these at once instead of retrying for its whole
   * budget.
   */
  public static boolean isPermanent(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof AccessDeniedException || t instanceof NotDirectoryException
          || t instanceof FileSystemLoopException || t instanceof ReadOnlyFileSystemException
          || t instanceof ObjectTooLargeException) {
        return true;
      }
      if (t instanceof FileSystemException fse && fse.getReason() != null
          && fse.getReason().contains("Read-only file system")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
