package dev.lancet.core.commit;

import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * A writer's side of the commit contract: commits one planned transaction and handles every
 * typed outcome the way an application must.
 *
 * <ul>
 *   <li>{@link CommitResult}: acknowledged; recorded in the {@link Ledger}.
 *   <li>{@link CommitStateUnknownException}: the same transaction (same uuid, same read version)
 *       is re-submitted until the answer is known; it must land exactly once.
 *   <li>{@link ConflictingCommitException}, {@link IncompatibleTransactionException},
 *       {@link RetriesExhaustedException}, and {@link UncheckedIOException} when no earlier
 *       submission's outcome is unknown: not published; the caller re-reads and re-plans.
 *   <li>An {@link UncheckedIOException} after an unknown outcome is not an answer: re-submit.
 *   <li>Anything else (including {@link ApplyException} and {@link InvalidActionException} for
 *       a transaction planned validly) is a surprise: recorded, and the writer gives up on it.
 * </ul>
 */
public final class ContractCommitter {
  /** After this many re-submissions without an answer the test fails. */
  private static final int MAX_RESUBMISSIONS = 200;

  private final ObjectStore store;
  private final String location;
  private final CommitPolicy policy;
  private final Ledger ledger;

  public ContractCommitter(ObjectStore store, String location, CommitPolicy policy, Ledger ledger) {
    this.store = store;
    this.location = location;
    this.policy = policy;
    this.ledger = ledger;
  }

  /** How one planned transaction ended. */
  public record Outcome(Optional<CommitResult> result, Optional<RuntimeException> rejection, String uuid) {
    public boolean acknowledged() {
      return result.isPresent();
    }
  }

  public Outcome commit(long readVersion, CompositeOperation op) {
    return commit(readVersion, op, UUID.randomUUID().toString());
  }

  public Outcome commit(long readVersion, CompositeOperation op, String uuid) {
    return commit(readVersion, op, uuid, policy);
  }

  /** Commits with a policy of its own (e.g. no retry, to surface unknown outcomes to the writer). */
  public Outcome commit(long readVersion, CompositeOperation op, String uuid, CommitPolicy policy) {
    boolean maybeLanded = false;
    for (int submission = 0; submission <= MAX_RESUBMISSIONS; submission++) {
      // A re-submission re-checks every version since the read version; a patient budget lets
      // that scan finish under a steady fault rate (the loop keeps its progress across retries).
      CommitPolicy now = maybeLanded ? resubmissionPolicy(policy) : policy;
      TransactionBuilder b = new TransactionBuilder(store, location, readVersion)
          .uuid(uuid).policy(now).steps(op);
      try {
        CommitResult r = b.commit();
        if (!r.transactionUuid().equals(uuid)) {
          ledger.surprise(new AssertionError("commit of " + uuid + " returned uuid " + r.transactionUuid()));
        }
        ledger.acknowledge(uuid, r.version(), r.attempts());
        return new Outcome(Optional.of(r), Optional.empty(), uuid);
      } catch (CommitStateUnknownException e) {
        ledger.unknown(uuid);
        maybeLanded = true;
      } catch (ConflictingCommitException e) {
        checkConflict(e, readVersion, uuid);
        ledger.recordConflict();
        return rejected(uuid, e);
      } catch (IncompatibleTransactionException e) {
        ledger.recordIncompatible();
        return rejected(uuid, e);
      } catch (RetriesExhaustedException e) {
        ledger.recordRetriesExhausted();
        return rejected(uuid, e);
      } catch (UncheckedIOException e) {
        ledger.recordStoreFailure();
        if (!maybeLanded) {
          return rejected(uuid, e);
        }
      } catch (RuntimeException e) {
        ledger.surprise(new AssertionError("commit of " + uuid + " (read version " + readVersion + ", "
            + op.steps().get(0).description() + ") threw an exception outside the contract", e));
        return new Outcome(Optional.empty(), Optional.of(e), uuid);
      }
    }
    throw new AssertionError("transaction " + uuid + ": no answer after " + MAX_RESUBMISSIONS + " re-submissions");
  }

  private static CommitPolicy resubmissionPolicy(CommitPolicy policy) {
    return new CommitPolicy(Math.max(policy.maxRetries(), 1_000), Duration.ofMinutes(5), policy.backoffUnit());
  }

  private Outcome rejected(String uuid, RuntimeException e) {
    ledger.notPublished(uuid);
    return new Outcome(Optional.empty(), Optional.of(e), uuid);
  }

  /** A conflict names a winner newer than what we read, its operation and the collisions. */
  private void checkConflict(ConflictingCommitException e, long readVersion, String uuid) {
    if (e.version() <= readVersion || e.winnerOperation().isEmpty() || e.collisions().isEmpty()) {
      ledger.surprise(new AssertionError("conflict error of " + uuid + " (read version " + readVersion
          + ") does not name a newer winner and its collisions: version " + e.version() + ", operation '"
          + e.winnerOperation() + "', collisions " + e.collisions(), e));
    }
  }
}
