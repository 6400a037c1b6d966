package dev.lancet.core.commit;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Conflicts;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionNotFoundException;
import dev.lancet.core.version.Versions;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Commits a composite operation against concurrent writers. Each attempt: load only the
 * versions committed since the last check (a winner is checked once, however many attempts),
 * check this transaction's footprint against each, rebase by re-applying the actions to the
 * newest manifest (Local refs re-mint, stamps re-stamp), and publish with put-if-absent. A lost
 * race backs off (jittered, doubling) and tries again within the retry budget and deadline.
 *
 * <p>Concurrent commits this build cannot reason about faithfully fail closed as a conflict:
 * a legacy operation other than Append, or a version whose transaction is missing.
 */
public final class CommitLoop {
  private final ObjectStore store;
  private final String location;
  private final CommitPolicy policy;

  public CommitLoop(ObjectStore store, String location, CommitPolicy policy) {
    this.store = store;
    this.location = location;
    this.policy = policy;
  }

  public CommitResult commit(CompositeOperation op, TransactionProtos.Transaction txn) {
    Footprint ours = Footprint.of(op);
    long checkedUpTo = txn.getReadVersion();
    long start = System.nanoTime();
    int attempts = 0;
    while (true) {
      attempts++;
      try {
        Snapshot latest = Snapshot.latest(store, location);
        if (latest.version() < txn.getReadVersion()) {
          throw new VersionNotFoundException("the transaction read version " + txn.getReadVersion()
              + ", which is newer than the latest version " + latest.version());
        }
        for (long v = checkedUpTo + 1; v <= latest.version(); v++) {
          checkAgainst(ours, v == latest.version() ? latest : Snapshot.load(store, Versions.resolve(store, v)));
          checkedUpTo = v;
        }
        CompositeApply.Result result = CompositeApply.apply(latest.manifest(), latest.indices(), op,
            txn.getReadVersion());
        VersionPublisher.Published published = new VersionPublisher(store).publish(
            result.manifest(), result.indices(), txn, latest.entry().naming());
        return new CommitResult(published.entry().version(), txn.getUuid(), published.manifest(),
            result.indices(), attempts);
      } catch (ConflictingCommitException e) {
        throw e;
      } catch (CommitConflictException lostRace) {
        long elapsed = System.nanoTime() - start;
        if (attempts > policy.maxRetries() || elapsed > policy.deadline().toNanos()) {
          throw new RetriesExhaustedException(lostRace.version(), attempts, "gave up after "
              + attempts + " attempt(s) in " + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms: "
              + lostRace.getMessage() + "; raise the retry budget or deadline, or retry later");
        }
        backoff(attempts);
      } catch (IOException e) {
        throw new UncheckedIOException("committing transaction " + txn.getUuid(), e);
      }
    }
  }

  /** Checks our footprint against the transaction that produced {@code winner}. */
  private static void checkAgainst(Footprint ours, Snapshot winner) {
    Optional<TransactionProtos.Transaction> theirs;
    try {
      theirs = winner.transaction();
    } catch (RuntimeException e) {
      throw new ConflictingCommitException(winner.version(), "unreadable transaction",
          List.of("its transaction cannot be read (" + e.getMessage() + "), so this commit "
              + "cannot be checked against it"));
    }
    if (theirs.isEmpty()) {
      throw new ConflictingCommitException(winner.version(), "no transaction recorded",
          List.of("it records no transaction, so this commit cannot be checked against it"));
    }
    TransactionProtos.Transaction t = theirs.get();
    Footprint footprint;
    switch (t.getOperationCase()) {
      case COMPOSITE_OPERATION -> footprint = Footprint.of(ActionCodec.decode(t.getCompositeOperation()));
      // A legacy append adds fragments and rows, nothing else: faithfully, it inserts rows.
      case APPEND -> footprint = Footprint.builder().insertRows().build();
      default -> throw new ConflictingCommitException(winner.version(), TransactionFile.operationName(t),
          List.of("it is a legacy " + TransactionFile.operationName(t) + " operation, which this build does not yet "
              + "check composite operations against (fail closed)"));
    }
    ConflictResult result = Conflicts.check(ours, footprint);
    if (result.conflicts()) {
      throw new ConflictingCommitException(winner.version(), TransactionFile.operationName(t),
          result.collisions().stream().map(Object::toString).toList());
    }
  }

  private void backoff(int attempt) {
    long unit = Math.max(1, policy.backoffUnit().toMillis());
    long slots = 1L << Math.min(attempt + 1, 10);
    long sleep = ThreadLocalRandom.current().nextLong(slots) * unit;
    try {
      Thread.sleep(Math.min(sleep, 2_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while backing off before a retry", e);
    }
  }
}
