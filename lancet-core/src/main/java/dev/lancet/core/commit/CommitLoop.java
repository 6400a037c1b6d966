package dev.lancet.core.commit;

import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.commit.CommitAttempt.Outcome;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.VersionNotFoundException;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Commits a transaction against concurrent writers. Each attempt: load only the versions
 * committed since the last check (a winner is loaded and checked once, however many
 * attempts), check the transaction against each, rebase by re-applying it to the newest
 * manifest (Local refs re-mint, stamps re-stamp), and publish with put-if-absent. A lost race
 * or a store error backs off (jittered, doubling) and tries again within the retry budget and
 * the deadline.
 *
 * <p>A winner carrying this transaction's own uuid is an earlier attempt (or an earlier
 * submission) that landed although its outcome was unknown: the commit returns that version
 * and never publishes the transaction twice.
 */
public final class CommitLoop {
  private final ObjectStore store;
  private final String location;
  private final CommitPolicy policy;
  private final Consumer<CommitAttempt> observer;

  public CommitLoop(ObjectStore store, String location, CommitPolicy policy) {
    this(store, location, policy, attempt -> { });
  }

  public CommitLoop(ObjectStore store, String location, CommitPolicy policy, Consumer<CommitAttempt> observer) {
    this.store = store;
    this.location = location;
    this.policy = policy;
    this.observer = observer;
  }

  /** Commits a composite operation (its message is {@code txn}). */
  public CommitResult commit(CompositeOperation op, TransactionProtos.Transaction txn) {
    return commit(new CompositeCommit(op, txn));
  }

  public CommitResult commit(PendingCommit initial) {
    PendingCommit pending = initial;
    String uuid = initial.transaction().getUuid();
    long readVersion = initial.transaction().getReadVersion();
    long checkedUpTo = readVersion;
    long start = System.nanoTime();
    int attempts = 0;
    // Set once a publish may have landed without our knowing; cleared when the scan finds out.
    Optional<Exception> unknownOutcome = Optional.empty();
    while (true) {
      attempts++;
      long blockedAt = checkedUpTo + 1;
      try {
        Snapshot latest = Snapshot.latest(store, location);
        if (latest.version() < readVersion) {
          throw new VersionNotFoundException("the transaction read version " + readVersion
              + ", which is newer than the latest version " + latest.version());
        }
        for (long v = checkedUpTo + 1; v <= latest.version(); v++) {
          Snapshot winner = v == latest.version() ? latest : loadWinner(latest.entry(), v);
          TransactionProtos.Transaction theirs = transactionOf(winner);
          if (theirs.getUuid().equals(uuid)) {
            // Our own earlier attempt landed: report it, never publish twice.
            observer.accept(new CommitAttempt(uuid, attempts, Outcome.ALREADY_COMMITTED, v,
                "an earlier attempt of this transaction published version " + v));
            return new CommitResult(v, uuid, winner.manifest(), winner.indices(), attempts);
          }
          pending = check(pending, v, theirs, attempts);
          checkedUpTo = v;
        }
        unknownOutcome = Optional.empty();
        blockedAt = latest.version() + 1;
        PendingCommit.Rebased next = pending.applyTo(latest);
        VersionPublisher.Published published = new VersionPublisher(store).publish(
            next.manifest(), next.indices(), next.transaction(), latest.entry().naming());
        long version = published.entry().version();
        observer.accept(new CommitAttempt(uuid, attempts, Outcome.COMMITTED, version,
            attempts == 1 ? "published" : "published after " + (attempts - 1) + " retry(ies)"));
        return new CommitResult(version, uuid, published.manifest(), next.indices(), attempts);
      } catch (ConflictingCommitException | IncompatibleTransactionException e) {
        throw e;
      } catch (CommitStateUnknownException e) {
        // The next attempt's scan reads the version back and finds out whether it is ours.
        unknownOutcome = Optional.of(e);
        giveUpOrBackOff(uuid, attempts, start, Outcome.STORE_ERROR, e.version(), e, unknownOutcome);
      } catch (CommitConflictException lostRace) {
        giveUpOrBackOff(uuid, attempts, start, Outcome.LOST_RACE, lostRace.version(), lostRace, unknownOutcome);
      } catch (IOException | UncheckedIOException e) {
        giveUpOrBackOff(uuid, attempts, start, Outcome.STORE_ERROR, blockedAt, e, unknownOutcome);
      }
    }
  }

  private PendingCommit check(PendingCommit pending, long version, TransactionProtos.Transaction theirs,
      int attempt) throws IOException {
    try {
      return pending.checkAgainst(version, theirs);
    } catch (ConflictingCommitException e) {
      observer.accept(new CommitAttempt(pending.transaction().getUuid(), attempt, Outcome.CONFLICT,
          version, String.join("; ", e.collisions())));
      throw e;
    } catch (IncompatibleTransactionException e) {
      observer.accept(new CommitAttempt(pending.transaction().getUuid(), attempt, Outcome.INCOMPATIBLE,
          version, String.join("; ", e.reasons())));
      throw e;
    }
  }

  /** A concurrent version, found by the naming scheme of the latest one (no listing). */
  private Snapshot loadWinner(VersionEntry latest, long version) throws IOException {
    String path = latest.naming().path(version);
    return Snapshot.load(store, new VersionEntry(version, path, latest.naming(), -1));
  }

  /** The transaction that produced {@code winner}; a winner that records none fails closed. */
  private static TransactionProtos.Transaction transactionOf(Snapshot winner) {
    Optional<TransactionProtos.Transaction> theirs;
    try {
      theirs = winner.transaction();
    } catch (FormatException e) {
      throw new ConflictingCommitException(winner.version(), "unreadable transaction",
          List.of("its transaction cannot be read (" + e.getMessage() + "), so this commit "
              + "cannot be checked against it (fail closed)"));
    }
    if (theirs.isEmpty()) {
      throw new ConflictingCommitException(winner.version(), "no transaction recorded",
          List.of("it records no transaction, so this commit cannot be checked against it (fail closed)"));
    }
    return theirs.get();
  }

  private void giveUpOrBackOff(String uuid, int attempts, long start, Outcome outcome, long version,
      Exception cause, Optional<Exception> unknownOutcome) {
    long elapsed = System.nanoTime() - start;
    String why = cause.getMessage();
    if (attempts > policy.maxRetries() || elapsed > policy.deadline().toNanos()) {
      String gaveUp = "gave up after " + attempts + " attempt(s) in "
          + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms: " + why;
      observer.accept(new CommitAttempt(uuid, attempts, Outcome.GAVE_UP, version, gaveUp));
      if (unknownOutcome.isPresent()) {
        throw new CommitStateUnknownException(version, uuid, gaveUp + "; whether an earlier attempt "
            + "landed is unknown. Re-submit the same transaction (same uuid and read version): if it "
            + "landed it is recognised and not committed twice", unknownOutcome.get());
      }
      if (cause instanceof CommitConflictException) {
        throw new RetriesExhaustedException(version, attempts, gaveUp
            + "; raise the retry budget or deadline, or retry later");
      }
      if (cause instanceof IOException) {
        throw new UncheckedIOException("committing transaction " + uuid + ": " + gaveUp, (IOException) cause);
      }
      throw (RuntimeException) cause;
    }
    observer.accept(new CommitAttempt(uuid, attempts, outcome, version, why));
    backoff(attempts);
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
