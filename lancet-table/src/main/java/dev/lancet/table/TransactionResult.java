package dev.lancet.table;

import java.util.List;

/**
 * A committed multi-statement transaction: the one version every statement landed in, its
 * transaction's uuid, what each statement did (in order), every commit attempt, and the
 * versions of the id reservations it needed (a statement that deletes or moves rows an earlier
 * statement of the same transaction wrote needs their fragment and row ids before the commit:
 * each reservation is a metadata-only version of its own, committed first).
 */
public record TransactionResult(long version, String transactionUuid,
    List<StatementCounts> statements, List<Attempt> attempts, List<Long> reservationVersions) {
  public TransactionResult {
    statements = List.copyOf(statements);
    attempts = List.copyOf(attempts);
    reservationVersions = List.copyOf(reservationVersions);
  }

  /** One statement's share: its step's description and its rows. */
  public record StatementCounts(String description, long rowsDeleted, long rowsUpdated,
      long rowsInserted) {}
}
