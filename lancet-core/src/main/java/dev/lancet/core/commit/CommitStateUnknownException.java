package dev.lancet.core.commit;

import dev.lancet.core.LancetException;

/**
 * The store failed while publishing the manifest and reading it back could not tell whether
 * the commit landed. Re-submitting the same transaction (same uuid) is safe: a commit that
 * did land is recognised by its uuid and not applied twice.
 */
public class CommitStateUnknownException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final long version;
  private final String transactionUuid;

  public CommitStateUnknownException(long version, String transactionUuid, String message, Throwable cause) {
    super(message, cause);
    this.version = version;
    this.transactionUuid = transactionUuid;
  }

  public long version() {
    return version;
  }

  public String transactionUuid() {
    return transactionUuid;
  }
}
