package dev.lancet.core.commit;

import java.time.Duration;

/**
 * How hard a commit tries: retries after losing a race, a total deadline, and the longest
 * backoff slot (a slot is about as long as an attempt takes, capped by {@code backoffUnit}).
 */
public record CommitPolicy(int maxRetries, Duration deadline, Duration backoffUnit) {
  public static final CommitPolicy DEFAULT = new CommitPolicy(20, Duration.ofSeconds(60), Duration.ofMillis(20));

  public CommitPolicy {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must not be negative, not " + maxRetries);
    }
  }

  public CommitPolicy withMaxRetries(int retries) {
    return new CommitPolicy(retries, deadline, backoffUnit);
  }
}
