package dev.lancet.table;

/**
 * The store failed in a way that leaves open whether the commit landed. The data files written
 * are kept. {@link LanceTable#history()} shows whether a version carries
 * {@link #transactionUuid()}; the write's files are reclaimed by cleanup if it did not land.
 */
public class CommitStateUnknownException extends LanceTableException {
  private static final long serialVersionUID = 1L;

  private final String transactionUuid;

  public CommitStateUnknownException(String message, String transactionUuid, Throwable cause) {
    super(message, cause);
    this.transactionUuid = transactionUuid;
  }

  public String transactionUuid() {
    return transactionUuid;
  }
}
