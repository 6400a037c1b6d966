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
    return commit(new CompositeCommit(store, op, txn));
  }

  public CommitResult commit(PendingCommit initial) {
    PendingCommit pending = initial;
    String uuid = initial.transaction().getUuid();
    long readVersion = initial.transaction().getReadVersion();
    // Our own earlier attempt is recognised by the .txn name its manifest records, so it is
    // found even if the .txn file itself was lost (it is not fsynced; decision 0007).
    String ourTxnFile = TransactionFile.fileName(readVersion, uuid);
    long checkedUpTo = readVersion;
    long start = System.nanoTime();
    int attempts = 0;
    // Set once a publish may have landed without our knowing; cleared when the scan finds out.
    Optional<Exception> unknownOutcome = Optional.empty();
    // The transaction whose .txn file is written: a retry rewrites it only if a rebase changed it.
    TransactionProtos.Transaction written = null;
    VersionPublisher publisher = new VersionPublisher(store);
    while (true) {
      attempts++;
      long attemptStart = System.nanoTime();
      long blockedAt = checkedUpTo + 1;
      try {
        Snapshot latest = Snapshot.latest(store, location);
        latest.requireWritable();
        if (latest.version() < readVersion) {
          throw new VersionNotFoundException("the transaction read version " + readVersion
              + ", which is newer than the latest version " + latest.version());
        }
        for (long v = checkedUpTo + 1; v <= latest.version(); v++) {
          Snapshot winner = v == latest.version() ? latest : loadWinner(latest.entry(), v);
          boolean ours = winner.manifest().transactionFile().equals(ourTxnFile);
          TransactionProtos.Transaction theirs = ours ? null : transactionOf(winner);
          if (ours || theirs.getUuid().equals(uuid)) {
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
        PendingCommit.Rebased next = applyTo(pending, latest, attempts);
        // Written only after the transaction applied (invalid input writes nothing) and the scan
        // showed no version carries our uuid (a landed attempt's .txn file is never replaced).
        if (!next.transaction().equals(written)) {
          publisher.writeTransactionFile(next.transaction());
          written = next.transaction();
        }
        VersionPublisher.Published published = publisher.publishManifest(
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
        giveUpOrBackOff(uuid, attempts, start, attemptStart, Outcome.STORE_ERROR, e.version(), e, unknownOutcome);
      } catch (CommitConflictException lostRace) {
        giveUpOrBackOff(uuid, attempts, start, attemptStart, Outcome.LOST_RACE, lostRace.version(), lostRace,
            unknownOutcome);
      } catch (IOException | UncheckedIOException e) {
        // A failed .txn write may have left a partial state: write it again next time.
        written = null;
        giveUpOrBackOff(uuid, attempts, start, attemptStart, Outcome.STORE_ERROR, blockedAt, e, unknownOutcome);
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

  /**
   * Re-applies the commit to the newest version. The second phase of a row-level rebase may
   * find a conflict only here (rows both sides deleted): it is reported like one the check found.
   */
  private PendingCommit.Rebased applyTo(PendingCommit pending, Snapshot latest, int attempt) throws IOException {
    try {
      return pending.applyTo(latest);
    } catch (ConflictingCommitException e) {
      observer.accept(new CommitAttempt(pending.transaction().getUuid(), attempt, Outcome.CONFLICT,
          e.version(), String.join("; ", e.collisions())));
      throw e;
    }
  }

  /** A concurrent version, found by the naming scheme of the latest one (no listing). */
  private Snapshot loadWinner(VersionEntry latest, long version) throws IOException {
    String path = latest.naming().path(version);
    return Snapshot.load(store, new VersionEntry(version, path, latest.naming(), -1));
  }

  /**
   * The transaction that produced {@code winner}; one that records none, or one this build
   * cannot read or does not know, fails closed (naming the version and its file).
   */
  private static TransactionProtos.Transaction transactionOf(Snapshot winner) {
    Optional<TransactionProtos.Transaction> theirs;
    try {
      theirs = winner.transaction();
    } catch (FormatException e) {
      throw ConflictingCommitException.failClosed(winner.version(), "unreadable transaction",
          "its transaction cannot be read (" + e.getMessage() + "), so this commit "
              + "cannot be checked against it (fail closed)");
    }
    if (theirs.isEmpty()) {
      throw ConflictingCommitException.failClosed(winner.version(), "no transaction recorded",
          "it records no transaction, so this commit cannot be checked against it (fail closed)");
    }
    if (theirs.get().getOperationCase() == TransactionProtos.Transaction.OperationCase.OPERATION_NOT_SET) {
      String file = winner.manifest().transactionFile();
      throw ConflictingCommitException.failClosed(winner.version(), "unknown operation",
          "its transaction " + theirs.get().getUuid() + (file.isEmpty() ? "" : " (_transactions/" + file + ")")
              + " carries an operation this build does not know (a newer writer's? " + unknownFields(theirs.get())
              + "), so this commit "
              + "cannot be checked against it (fail closed); upgrade Lancet, or re-plan on the new version");
    }
    return theirs.get();
  }

  private static String unknownFields(TransactionProtos.Transaction t) {
    List<String> numbers = t.getUnknownFields().asMap().keySet().stream().map(String::valueOf).toList();
    return numbers.isEmpty() ? "no field this build knows"
        : (numbers.size() == 1 ? "field " : "fields ") + String.join(", ", numbers);
  }

  private void giveUpOrBackOff(String uuid, int attempts, long start, long attemptStart, Outcome outcome,
      long version, Exception cause, Optional<Exception> unknownOutcome) {
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
    backoff(attempts, System.nanoTime() - attemptStart);
  }

  /**
   * Sleeps a random number of slots, doubling with each attempt. A slot is about as long as an
   * attempt takes (a writer that just lost is unlikely to win again before the winner's next
   * attempt would land), at least 1 ms and at most the policy's backoff unit.
   */
  private void backoff(int attempt, long attemptNanos) {
    long unitMicros = Math.max(1_000, Math.min(policy.backoffUnit().toNanos() / 1_000, attemptNanos * 11 / 10_000));
    long slots = 1L << Math.min(attempt, 10);
    long sleepMicros = ThreadLocalRandom.current().nextLong(slots + 1) * unitMicros;
    try {
      TimeUnit.MICROSECONDS.sleep(Math.min(sleepMicros, 2_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while backing off before a retry", e);
    }
  }
}
