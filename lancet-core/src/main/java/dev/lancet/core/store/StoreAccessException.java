package dev.lancet.core.store;

import dev.lancet.core.LancetException;

/**
 * The store refused a request for a reason that retrying does not fix: bad credentials, a
 * missing bucket or container, access denied, or a server without the conditional writes a
 * commit needs. Its message is one line that says which, for which location, and what to do.
 * Unchecked on purpose: the commit loop retries {@link java.io.IOException}s, and these must
 * stop it at once.
 */
public class StoreAccessException extends LancetException {
  private static final long serialVersionUID = 1L;

  /** Why the store cannot be used. */
  public enum Reason {
    /** The credentials are unknown or their signature does not match. */
    BAD_CREDENTIALS,
    /** The credentials are valid but may not do this. */
    ACCESS_DENIED,
    /** The bucket (S3) or container (Azure) does not exist. */
    MISSING_BUCKET,
    /**
     * The server ignores or rejects put-if-absent ({@code If-None-Match: *}): committing there
     * could silently overwrite a concurrent writer's version, so Lancet refuses to commit.
     */
    NO_CONDITIONAL_WRITES
  }

  private final Reason reason;

  public StoreAccessException(Reason reason, String message) {
    this(reason, message, null);
  }

  public StoreAccessException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
