package dev.lancet.core.commit;

import dev.lancet.core.LancetException;

/** Another writer published the version this commit tried to create. */
public class CommitConflictException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final long version;

  public CommitConflictException(long version, String message) {
    super(message);
    this.version = version;
  }

  /** The version number that was already taken. */
  public long version() {
    return version;
  }
}
