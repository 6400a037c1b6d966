package dev.lancet.core.commit;

import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.commit.CommitAttempt.Outcome;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.StoreErrors;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Optional;
import java.util.concurrent.Future;
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
  /** The most winners read at once after a listing (each read is a request on its own thread). */
  private static final int MAX_READ_AHEAD = 16;

  private final ObjectStore store;
  private final String location;
  private final CommitPolicy policy;
  private final PublishChecks checks;
  private final Consumer<CommitAttempt> observer;

  public CommitLoop(ObjectStore store, String location, CommitPolicy policy) {
    this(store, location, policy, attempt -> { });
  }

  public CommitLoop(ObjectStore store, String location, CommitPolicy policy, Consumer<CommitAttempt> observer) {
    this(store, location, policy, PublishChecks.DEFAULT, observer);
  }

  public CommitLoop(ObjectStore store, String location, CommitPolicy policy, PublishChecks checks,
      Consumer<CommitAttempt> observer) {
    this.store = store;
    this.location = location;
    this.policy = policy;
    this.checks = checks;
    this.observer = observer;
  }

  /** Commits a composite operation (its message is {@code txn}). */
  public CommitResult commit(CompositeOperation op, TransactionProtos.Transaction txn) {
    return commit(new CompositeCommit(store, op, txn));
  }

  public CommitResult commit(PendingCommit initial) {
    return commit(initial, Optional.empty());
  }

  /**
   * Commits with a head start: {@code freshRead} is the entry of the transaction's read
   * version, seen as the latest when the transaction was started, and may be given only for a
   * transaction whose uuid is new (no earlier attempt of it can have landed). The first attempt
   * then loads that manifest directly instead of finding the latest version first (a listing
   * on an object store; the hint and probes on a local one), and lets the put-if-absent find
   * out whether another writer came in between: if one did, the put fails and the next attempt
   * scans as usual.
   */
  public CommitResult commit(PendingCommit initial, Optional<VersionEntry> freshRead) {
    PendingCommit pending = initial;
    String uuid = initial.transaction().getUuid();
    long readVersion = initial.transaction().getReadVersion();
    requireReadVersionForm(readVersion);
    requirePlainUuid(uuid);
    // Our own earlier attempt is recognised by the .txn name its manifest records, so it is
    // found even if the .txn file itself was lost (it is not fsynced; decision 0007).
    String ourTxnFile = TransactionFile.fileName(readVersion, uuid);
    long checkedUpTo = readVersion;
    long start = System.nanoTime();
    int attempts = 0;
    // Set once a publish may have landed without our knowing; cleared when the scan finds out.
    Optional<Exception> unknownOutcome = Optional.empty();
    // Whether any publish of ours might have landed unseen; then our .txn file is never removed.
    boolean everUnknown = false;
    // The transaction whose .txn file is written: a retry rewrites it only if a rebase changed it.
    TransactionProtos.Transaction written = null;
    VersionPublisher publisher = new VersionPublisher(store);
    PrePublish prePublish = new PrePublish(store, checks);
    // The newest version whose transaction was read (as a winner, or checked before publishing on top).
    long readableUpTo = -1;
    // The version a lost race showed to exist, and the naming of the table's manifests.
    Optional<VersionEntry> lostRaceTo = Optional.empty();
    ManifestNaming naming = ManifestNaming.V2;
    while (true) {
      attempts++;
      long attemptStart = System.nanoTime();
      long blockedAt = checkedUpTo + 1;
      // Whether this attempt's manifest put has started (after that, a failure may hide a landed version).
      boolean publishing = false;
      Optional<VersionEntry> lostTo = lostRaceTo;
      lostRaceTo = Optional.empty();
      try {
        boolean headStart = attempts == 1 && freshRead.isPresent() && freshRead.get().version() == readVersion;
        Snapshot latest;
        Map<Long, WinnerRead> readAhead = Map.of();
        if (headStart) {
          latest = Snapshot.load(store, freshRead.get());
        } else if (store.overlapsRequests()) {
          readAhead = readWinners(checkedUpTo, lostTo, readVersion);
          latest = readAhead.get(Collections.max(readAhead.keySet())).snapshot();
        } else {
          latest = Snapshot.latest(store, location);
        }
        naming = latest.entry().naming();
        latest.requireWritable();
        if (Long.compareUnsigned(latest.version(), readVersion) < 0) {
          throw new InvalidTransactionException("the transaction read version "
              + Long.toUnsignedString(readVersion) + ", which is newer than the latest version "
              + latest.version() + "; plan it against a version the table has");
        }
        for (long v = checkedUpTo + 1; v <= latest.version(); v++) {
          WinnerRead read = readAhead.get(v);
          if (read != null) {
            throwIfFailed(read.failure());
          }
          Snapshot winner = read != null ? read.snapshot()
              : v == latest.version() ? latest : loadWinner(latest.entry(), v, readVersion);
          boolean ours = winner.manifest().transactionFile().equals(ourTxnFile);
          TransactionProtos.Transaction theirs = ours ? null
              : transactionOf(winner, latest.version(), read != null ? read.transaction() : readTransaction(winner));
          if (ours || theirs.getUuid().equals(uuid)) {
            // Our own earlier attempt landed: report it, never publish twice.
            observer.accept(new CommitAttempt(uuid, attempts, Outcome.ALREADY_COMMITTED, v,
                "an earlier attempt of this transaction published version " + v));
            return new CommitResult(v, uuid, winner.manifest(), winner.indices(), attempts);
          }
          pending = check(pending, winner, theirs, attempts);
          checkedUpTo = v;
          readableUpTo = v;
        }
        boolean checkLatest = readableUpTo < latest.version();
        PendingCommit.Rebased next;
        if (!store.overlapsRequests()) {
          if (checkLatest) {
            requireReadableTransaction(latest);
            readableUpTo = latest.version();
          }
          unknownOutcome = Optional.empty();
          blockedAt = latest.version() + 1;
          next = applyAndValidate(initial, pending, latest, readVersion, prePublish, attempts);
          prePublish.checkFiles(latest.manifest(), latest.indices(), next.manifest(), next.indices(),
              next.provenance());
          // Written only after the transaction applied and its files were found (invalid input
          // writes nothing) and the scan showed no version carries our uuid (a landed attempt's
          // .txn file is never replaced).
          if (!next.transaction().equals(written)) {
            publisher.writeTransactionFile(next.transaction());
            written = next.transaction();
          }
        } else {
          // The same requests, overlapped: the latest version's .txn read, the new files'
          // lookups and our .txn write are independent, so on an object store they cost one round
          // trip. The .txn file is still written only once the transaction applied and the scan
          // found no version of ours; if a check then refuses the commit, it is removed below.
          blockedAt = latest.version() + 1;
          Future<Void> readable = checkLatest
              ? CommitRequests.start(() -> requireReadableTransaction(latest)) : CommitRequests.none();
          try {
            next = applyAndValidate(initial, pending, latest, readVersion, prePublish, attempts);
          } catch (RuntimeException | IOException e) {
            // In the order of the sequential path: a damaged latest version is reported first.
            throwIfFailed(CommitRequests.await(readable));
            throw e;
          }
          TransactionProtos.Transaction writing = next.transaction().equals(written) ? null : next.transaction();
          Future<Void> txnWrite = writing == null
              ? CommitRequests.none() : CommitRequests.start(() -> publisher.writeTransactionFile(writing));
          Optional<Throwable> files = Optional.empty();
          try {
            prePublish.checkFiles(latest.manifest(), latest.indices(), next.manifest(), next.indices(),
                next.provenance());
          } catch (RuntimeException | IOException e) {
            files = Optional.of(e);
          }
          Optional<Throwable> latestFailure = CommitRequests.await(readable);
          Optional<Throwable> txnFailure = CommitRequests.await(txnWrite);
          if (writing != null) {
            // A failed write may have left a partial state: it is written again next time.
            written = txnFailure.isEmpty() ? writing : null;
          }
          if (checkLatest && latestFailure.isEmpty()) {
            readableUpTo = latest.version();
          }
          throwIfFailed(latestFailure);
          throwIfFailed(files);
          throwIfFailed(txnFailure);
          unknownOutcome = Optional.empty();
        }
        publishing = true;
        VersionPublisher.Published published = publisher.publishManifest(
            next.manifest(), next.indices(), next.transaction(), latest.entry().naming());
        long version = published.entry().version();
        observer.accept(new CommitAttempt(uuid, attempts, Outcome.COMMITTED, version,
            attempts == 1 ? "published" : "published after " + (attempts - 1) + " retry(ies)"));
        return new CommitResult(version, uuid, published.manifest(), next.indices(), attempts);
      } catch (ConflictingCommitException | IncompatibleTransactionException
          | ReadVersionUnavailableException e) {
        discardUnpublished(written, everUnknown);
        throw e;
      } catch (CommitStateUnknownException e) {
        // The next attempt's scan reads the version back and finds out whether it is ours.
        unknownOutcome = Optional.of(e);
        everUnknown = true;
        giveUpOrBackOff(uuid, attempts, start, attemptStart, Outcome.STORE_ERROR, e.version(), e, unknownOutcome);
      } catch (CommitConflictException lostRace) {
        // The version we lost exists: the next attempt reads it while it lists for the latest.
        lostRaceTo = Optional.of(new VersionEntry(lostRace.version(), naming.path(lostRace.version()), naming, -1));
        try {
          giveUpOrBackOff(uuid, attempts, start, attemptStart, Outcome.LOST_RACE, lostRace.version(), lostRace,
              unknownOutcome);
        } catch (RetriesExhaustedException e) {
          discardUnpublished(written, everUnknown);
          throw e;
        }
      } catch (IOException | UncheckedIOException e) {
        if (StoreErrors.isPermanent(e)) {
          // Permission denied, a read-only store, a directory that is a file: no retry cures it.
          observer.accept(new CommitAttempt(uuid, attempts, Outcome.GAVE_UP, blockedAt, e.getMessage()));
          throw new UncheckedIOException("committing transaction " + uuid + " failed and no retry "
              + "can fix it (" + describe(e) + "); check the table's permissions and storage",
              e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
        }
        // A failed .txn write may have left a partial state: write it again next time.
        written = null;
        giveUpOrBackOff(uuid, attempts, start, attemptStart, Outcome.STORE_ERROR, blockedAt, e, unknownOutcome);
      } catch (RuntimeException e) {
        // Invalid input, a damaged table, a refused store: the transaction failed for good. A
        // .txn file written before a check refused it (overlapped requests) is named by no
        // manifest, unless this attempt's manifest put had started.
        if (!publishing) {
          discardUnpublished(written, everUnknown);
        }
        throw e;
      }
    }
  }

  /** Rethrows what an overlapped request threw (an {@link IOException} as it was). */
  private static void throwIfFailed(Optional<Throwable> failure) throws IOException {
    if (failure.isEmpty()) {
      return;
    }
    Throwable t = failure.get();
    if (t instanceof IOException io) {
      throw io;
    }
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error err) {
      throw err;
    }
    throw new IllegalStateException("an overlapped commit request failed", t);
  }

  /**
   * Removes the .txn file an attempt wrote before it lost the race, once the transaction has
   * failed for good: no manifest names it (the scan saw every version up to the winner's). Kept
   * when a publish's outcome was ever unknown, since that manifest may yet name it. Best effort:
   * a leftover is an orphan that cleanup removes.
   */
  private void discardUnpublished(TransactionProtos.Transaction written, boolean everUnknown) {
    if (written == null || everUnknown) {
      return;
    }
    try {
      store.delete(TransactionFile.path(TransactionFile.fileName(written.getReadVersion(), written.getUuid())));
    } catch (IOException | RuntimeException e) {
      // An orphan .txn file is harmless.
    }
  }

  private PendingCommit check(PendingCommit pending, Snapshot winner, TransactionProtos.Transaction theirs,
      int attempt) throws IOException {
    long version = winner.version();
    try {
      return pending.checkAgainst(winner, theirs);
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
   * The manifest {@code pending} produces on {@code latest}, checked against the manifest rules
   * before anything is written ({@link PrePublish#validate}; its files are looked up after). When it is invalid only because of what was committed after the read
   * version (it applies and checks cleanly on the version it read), that is a conflict with the
   * winners, not invalid input: the caller can re-plan.
   */
  private PendingCommit.Rebased applyAndValidate(PendingCommit initial, PendingCommit pending,
      Snapshot latest, long readVersion, PrePublish prePublish, int attempt) throws IOException {
    PendingCommit.Rebased next;
    try {
      next = applyTo(pending, latest, attempt);
      prePublish.validate(latest.manifest(), latest.indices(), next.manifest(), next.indices(),
          next.provenance());
    } catch (ApplyException e) {
      if (latest.version() != readVersion && validOn(initial, readVersion, prePublish)) {
        Collision rebase = new Collision.InvalidAfterRebase("the transaction is valid on version "
            + Long.toUnsignedString(readVersion) + ", which it read, but not on top of the "
            + "versions committed since: " + e.getMessage());
        if (e.missingFragment().isPresent()) {
          // A fragment it names was removed since it read: a conflict with the version that removed it.
          Optional<Snapshot> remover = removerOf(e.missingFragment().getAsLong(), readVersion, latest);
          if (remover.isPresent()) {
            long id = e.missingFragment().getAsLong();
            String name = operationName(remover.get());
            throw new ConflictingCommitException(remover.get().version(), name, List.of(
                new Collision.Fragment(id, "fragment " + Long.toUnsignedString(id) + ", which this "
                    + "transaction names, was removed by version " + remover.get().version() + " (" + name
                    + ")"), rebase));
          }
        }
        throw new ConflictingCommitException(latest.version(), operationName(latest), List.of(rebase));
      }
      throw e;
    }
    return next;
  }

  /**
   * The first version after {@code readVersion} (up to {@code latest}) that lacks fragment
   * {@code id}, if the read version had it; empty when a version in between is gone.
   */
  private Optional<Snapshot> removerOf(long id, long readVersion, Snapshot latest) throws IOException {
    Optional<VersionEntry> read = Versions.find(store, readVersion);
    if (read.isEmpty() || !has(Snapshot.load(store, read.get()), id)) {
      return Optional.empty();
    }
    for (long v = readVersion + 1; v < latest.version(); v++) {
      Optional<VersionEntry> entry = Versions.find(store, v);
      if (entry.isEmpty()) {
        return Optional.empty();
      }
      Snapshot s = Snapshot.load(store, entry.get());
      if (!has(s, id)) {
        return Optional.of(s);
      }
    }
    return has(latest, id) ? Optional.empty() : Optional.of(latest);
  }

  private static boolean has(Snapshot s, long fragment) {
    return s.manifest().fragments().stream().anyMatch(f -> f.id() == fragment);
  }

  /**
   * Whether the transaction applies and validates on the version it read (false when that is
   * gone or it does not). A store failure while finding out is thrown: the attempt is retried.
   */
  private boolean validOn(PendingCommit initial, long readVersion, PrePublish prePublish) throws IOException {
    Optional<VersionEntry> entry = Versions.find(store, readVersion);
    if (entry.isEmpty()) {
      return false;
    }
    Snapshot read = Snapshot.load(store, entry.get());
    try {
      PendingCommit.Rebased atRead = initial.applyTo(read);
      prePublish.validate(read.manifest(), read.indices(), atRead.manifest(), atRead.indices(),
          atRead.provenance());
      return true;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static String operationName(Snapshot version) {
    try {
      return version.readableTransaction().map(TransactionFile::operationName).orElse("a concurrent commit");
    } catch (RuntimeException e) {
      return "a concurrent commit";
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
  private Snapshot loadWinner(VersionEntry latest, long version, long readVersion) throws IOException {
    String path = latest.naming().path(version);
    try {
      return Snapshot.load(store, new VersionEntry(version, path, latest.naming(), -1));
    } catch (NotFoundException e) {
      // Between the read version and the latest one a version is missing: cleaned up.
      throw new ReadVersionUnavailableException(readVersion, version, latest.version());
    }
  }

  /**
   * Before publishing on top of {@code latest} (when no earlier check read its transaction):
   * its transaction must be readable, or writers that read an earlier version could never be
   * checked against it. A transaction file that is missing is tolerated (it is advisory and a
   * machine crash may lose it, decision 0007); one that holds garbage fails closed. A version
   * whose transaction is inline in its manifest (every legacy operation) is not decoded here:
   * lance-core decodes that copy whenever it opens the version and refuses a damaged one, and
   * decoding it on every commit would cost as much as the transaction is large.
   */
  private static void requireReadableTransaction(Snapshot latest) {
    if (latest.manifest().transactionSection().isPresent()) {
      return;
    }
    try {
      latest.readableTransaction();
    } catch (FormatException e) {
      throw new DamagedTableException(latest.version(), "version " + latest.version() + ", the "
          + "latest, records a transaction that cannot be read (" + e.getMessage() + "): a writer that "
          + "read an earlier version could never be checked against it, so Lancet does not publish "
          + "on top of it (fail closed). Repair or remove the damaged transaction file, or restore "
          + "the table", e);
    }
  }

  /** Read version 0, or one at or beyond 2^63 (-1 is 2^64-1), names no version a writer read. */
  private static void requireReadVersionForm(long readVersion) {
    if (readVersion <= 0) {
      throw new InvalidTransactionException("the transaction's read version is "
          + Long.toUnsignedString(readVersion) + ", which is not a version of any table: versions "
          + "are numbered from 1 (" + (readVersion == 0 ? "0 means no version was read" : "a "
          + "negative number is read as an unsigned 64-bit one") + "); give the version the "
          + "transaction was planned against");
    }
  }

  /** The uuid names the .txn file, so it must be usable as one file-name segment. */
  private static void requirePlainUuid(String uuid) {
    String problem = dev.lancet.format.layout.RelativePath.problem(uuid);
    if (problem == null && (uuid.indexOf('/') >= 0 || uuid.length() > 128)) {
      problem = uuid.length() > 128 ? "it is longer than 128 characters" : "it has a '/'";
    }
    if (problem != null) {
      throw new InvalidTransactionException("the transaction uuid " + dev.lancet.format.Texts.quote(uuid)
          + " cannot name its .txn file (" + problem + "); use a UUID");
    }
  }

  private static String describe(Throwable e) {
    Throwable t = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  /**
   * The transaction that produced {@code winner}; one that records none, or one this build
   * cannot read or does not know, fails closed (naming the version and its file). An
   * unreadable transaction in the latest version is damage no re-plan gets past.
   */
  private static TransactionProtos.Transaction transactionOf(Snapshot winner, long latestVersion,
      TransactionRead read) {
    Optional<TransactionProtos.Transaction> theirs = read.transaction();
    if (read.unreadable().isPresent()) {
      FormatException e = read.unreadable().get();
      if (winner.version() == latestVersion) {
        requireReadableTransaction(winner);
      }
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

  /** A winner's transaction as read, or why it could not be (a store failure is thrown). */
  private record TransactionRead(Optional<TransactionProtos.Transaction> transaction,
      Optional<FormatException> unreadable) {}

  private static TransactionRead readTransaction(Snapshot winner) {
    try {
      return new TransactionRead(winner.transaction(), Optional.empty());
    } catch (FormatException e) {
      return new TransactionRead(Optional.empty(), Optional.of(e));
    }
  }

  /**
   * A version read ahead of the scan: its manifest and transaction, or the failure to report
   * when the scan reaches it (in version order, as the sequential scan would).
   */
  private record WinnerRead(Snapshot snapshot, TransactionRead transaction, Optional<Throwable> failure) {}

  /**
   * On a store that overlaps requests, every version the scan needs, read at once: the version
   * a lost race showed to exist (its manifest and transaction, while the listing finds the
   * latest), then every other version after {@code checkedUpTo} up to the latest. On S3 a retry
   * after a lost race then costs the listing and one round trip per kind of file, however many
   * winners there are. The latest version is always in the map (only its manifest when nothing
   * is new). Waits for every read it started.
   */
  private Map<Long, WinnerRead> readWinners(long checkedUpTo, Optional<VersionEntry> lostTo, long readVersion)
      throws IOException {
    Map<Long, Future<WinnerRead>> reads = new TreeMap<>();
    Optional<VersionEntry> known = lostTo.filter(e -> e.version() == checkedUpTo + 1);
    known.ifPresent(e -> reads.put(e.version(), CommitRequests.read(() -> winnerRead(e, true))));
    Optional<VersionEntry> listed;
    try {
      listed = Versions.latest(store);
    } catch (IOException | RuntimeException e) {
      reads.values().forEach(CommitRequests::await);
      throw e;
    }
    long seen = Math.max(checkedUpTo, known.map(VersionEntry::version).orElse(0L));
    if (listed.isEmpty() || Long.compareUnsigned(listed.get().version(), seen) < 0) {
      // Versions this commit has seen exist: a listing without them is a store that is not
      // (yet) consistent, not a missing table. Retried like any store failure.
      reads.values().forEach(CommitRequests::await);
      throw new IOException("listing " + location + "/_versions/ showed "
          + (listed.isEmpty() ? "no version" : "version " + listed.get().version() + " as the latest")
          + ", but version " + Long.toUnsignedString(seen) + " exists; the store's listing is behind");
    }
    VersionEntry latest = listed.get();
    long first = Math.min(checkedUpTo + 1, latest.version());
    for (long v = first; v <= latest.version(); v++) {
      if (reads.containsKey(v) || (v != latest.version() && v > checkedUpTo + MAX_READ_AHEAD)) {
        // Read already, or too far behind to read all at once: the scan reads those one by one.
        continue;
      }
      VersionEntry entry = v == latest.version() ? latest
          : new VersionEntry(v, latest.naming().path(v), latest.naming(), -1);
      boolean withTransaction = v > checkedUpTo;
      reads.put(v, CommitRequests.read(() -> winnerRead(entry, withTransaction)));
    }
    Map<Long, WinnerRead> out = new TreeMap<>();
    for (Map.Entry<Long, Future<WinnerRead>> r : reads.entrySet()) {
      long v = r.getKey();
      CommitRequests.Outcome<WinnerRead> outcome = CommitRequests.result(r.getValue());
      Optional<Throwable> failure = outcome.failure().map(e -> e instanceof NotFoundException && v < latest.version()
          // Between the read version and the latest one a version is missing: cleaned up.
          ? new ReadVersionUnavailableException(readVersion, v, latest.version()) : e);
      out.put(v, outcome.value().orElseGet(() -> new WinnerRead(null, null, failure)));
    }
    WinnerRead top = out.get(latest.version());
    if (top.failure().isPresent()) {
      throwIfFailed(top.failure());
    }
    return out;
  }

  private WinnerRead winnerRead(VersionEntry entry, boolean withTransaction) throws IOException {
    Snapshot snapshot = Snapshot.load(store, entry);
    TransactionRead txn = withTransaction ? readTransaction(snapshot) : new TransactionRead(Optional.empty(), Optional.empty());
    return new WinnerRead(snapshot, txn, Optional.empty());
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
