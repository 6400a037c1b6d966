package dev.lancet.table;

/**
 * One attempt of a commit, as {@code onAttempt} reports it: the transaction, the attempt
 * number, how it ended, the version it concerned (published, or the one that blocked it) and
 * why.
 */
public record Attempt(String transactionUuid, int attempt, Outcome outcome, long version,
    String detail) {
  /** How an attempt ended. */
  public enum Outcome {
    /** This attempt published the version. */
    COMMITTED,
    /** An earlier attempt of the same transaction had published it. */
    ALREADY_COMMITTED,
    /** Another writer took the version first; nothing collided, the commit retries. */
    LOST_RACE,
    /** The store failed; the commit retries. */
    STORE_ERROR,
    /** A concurrent commit collided; the commit stops ({@link RetryableConflictException}). */
    CONFLICT,
    /** A concurrent commit made it impossible ({@link IncompatibleCommitException}). */
    INCOMPATIBLE,
    /** The retry budget or deadline ran out. */
    GAVE_UP
  }

  static Attempt of(dev.lancet.core.commit.CommitAttempt a) {
    return new Attempt(a.transactionUuid(), a.attempt(), Outcome.valueOf(a.outcome().name()),
        a.version(), a.detail());
  }
}
