package dev.lancet.table;

import dev.lancet.core.LancetException;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.commit.IncompatibleTransactionException;
import dev.lancet.core.commit.RetriesExhaustedException;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.VersionNotFoundException;
import dev.lancet.format.FormatException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a Transaction V2 through the kernel's commit loop and translates its typed errors into
 * the table API's: the user catches {@code dev.lancet.table} types only, each carrying the
 * kernel's error as its cause.
 */
final class Commits {
  private Commits() {}

  /**
   * Publishes {@code txn} in the table's write form (its config key {@code lancet.write_form}:
   * a legacy operation where one expresses the commit exactly, docs/decisions/0022), reporting
   * attempts to {@code onAttempt}.
   */
  static CommitResult commit(TransactionBuilder txn, Consumer<Attempt> onAttempt, int maxRetries) {
    txn.onAttempt(a -> onAttempt.accept(Attempt.of(a))).maxRetries(maxRetries).tableWriteForm();
    try {
      return txn.commit();
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  /** The table-API error for a kernel error (or {@code e} itself when it is not one). */
  static RuntimeException translate(RuntimeException e) {
    if (e instanceof LanceTableException) {
      return e;
    }
    if (e instanceof ConflictingCommitException c) {
      return new RetryableConflictException(c.getMessage(), c.version(), c.collisions(), c);
    }
    if (e instanceof RetriesExhaustedException r) {
      return new RetryableConflictException(r.getMessage(), r.version(), List.of(), r);
    }
    if (e instanceof IncompatibleTransactionException i) {
      return new IncompatibleCommitException(i.getMessage(), i.winnerVersion(), i.reasons(), i);
    }
    if (e instanceof dev.lancet.core.commit.CommitStateUnknownException u) {
      return new CommitStateUnknownException(u.getMessage(), u.transactionUuid(), u);
    }
    if (e instanceof VersionNotFoundException v) {
      return new NotFoundException(v.getMessage(), v);
    }
    if (e instanceof dev.lancet.core.apply.ApplyException
        || e instanceof dev.lancet.core.action.InvalidActionException
        || e instanceof dev.lancet.core.operation.InvalidOperationException) {
      return new InvalidInputException(e.getMessage(), e);
    }
    if (e instanceof FormatException || e instanceof LancetException) {
      return new LanceTableException(e.getMessage(), e);
    }
    return e;
  }
}
