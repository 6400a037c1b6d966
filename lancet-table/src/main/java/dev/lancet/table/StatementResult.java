package dev.lancet.table;

import java.util.List;
import java.util.OptionalLong;

/**
 * What a row-level statement did: the version it committed (empty when it changed nothing, so
 * nothing was committed), the rows it deleted, updated and inserted, the data files it wrote,
 * how many times it was planned (a retryable conflict re-plans it against the new version) and
 * every commit attempt of every plan, in order.
 */
public record StatementResult(OptionalLong version, long rowsDeleted, long rowsUpdated,
    long rowsInserted, int filesWritten, int plans, List<Attempt> attempts) {
  public StatementResult {
    attempts = List.copyOf(attempts);
  }

  /** Whether a version was committed. */
  public boolean committed() {
    return version.isPresent();
  }
}
