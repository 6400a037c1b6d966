package dev.lancet.core.commit;

import dev.lancet.core.LancetException;

/**
 * The table is damaged in a way that makes committing on top of it unsafe: for example the
 * latest version's transaction file holds bytes that are not a Transaction, so a writer that read
 * an earlier version could never be checked against it. Lancet fails closed instead of hiding the
 * damage under a new version. No retry helps: repair the named file (or restore the table).
 */
public class DamagedTableException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final long version;

  public DamagedTableException(long version, String message, Throwable cause) {
    super(message, cause);
    this.version = version;
  }

  /** The version whose files are damaged. */
  public long version() {
    return version;
  }
}
