package dev.lancet.core.commit;

/**
 * The version the transaction read, or a version committed after it, no longer exists: it was
 * cleaned up (old versions removed), so the commit can neither check itself against what was
 * committed since nor replay its change. The input is fine; it is stale. Re-read the latest
 * version and plan the change again (the CLI reports this as a retryable conflict, exit 3).
 */
public class ReadVersionUnavailableException extends CommitConflictException {
  private static final long serialVersionUID = 1L;

  private final long readVersion;
  private final long missingVersion;
  private final long latestVersion;

  public ReadVersionUnavailableException(long readVersion, long missingVersion, long latestVersion) {
    super(missingVersion, "the transaction read version " + Long.toUnsignedString(readVersion)
        + ", but version " + Long.toUnsignedString(missingVersion) + (missingVersion == readVersion
            ? "" : ", committed after it,") + " no longer exists (old versions were cleaned up), so "
        + "this commit cannot be checked against the versions committed since. Re-read the latest "
        + "version (" + Long.toUnsignedString(latestVersion) + ") and plan the change again.");
    this.readVersion = readVersion;
    this.missingVersion = missingVersion;
    this.latestVersion = latestVersion;
  }

  public long readVersion() {
    return readVersion;
  }

  /** The version that is gone (the read version, or the first missing one after it). */
  public long missingVersion() {
    return missingVersion;
  }

  public long latestVersion() {
    return latestVersion;
  }
}
