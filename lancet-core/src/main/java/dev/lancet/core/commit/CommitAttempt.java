package dev.lancet.core.commit;

/**
 * One attempt of a commit, as reported to an observer: which attempt, how it ended, the
 * version it concerned (the version published, or the one that blocked it), and why.
 */
public record CommitAttempt(String transactionUuid, int attempt, Outcome outcome, long version, String detail) {
  /** How an attempt ended. */
  public enum Outcome {
    /** The version was published by this attempt. */
    COMMITTED,
    /** An earlier attempt (or submission) of this transaction had already published it. */
    ALREADY_COMMITTED,
    /** Another writer took the version first; nothing collided, so the commit rebases and retries. */
    LOST_RACE,
    /** The store failed; the commit retries (and first finds out whether the failed write landed). */
    STORE_ERROR,
    /** A concurrent winner collided with this transaction; the commit stops. */
    CONFLICT,
    /** A concurrent winner made this transaction incompatible; the commit stops. */
    INCOMPATIBLE,
    /** The retry budget or deadline ran out; the commit stops. */
    GAVE_UP
  }
}
