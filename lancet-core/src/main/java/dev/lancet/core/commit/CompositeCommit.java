package dev.lancet.core.commit;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Conflicts;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.conflict.legacy.CommittedVersions;
import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.conflict.legacy.LegacyFootprints;
import dev.lancet.core.conflict.legacy.LegacyVerdict;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A composite operation being committed. Its footprint is computed once and checked against
 * each composite winner's footprint; a legacy winner goes through the legacy rules' footprint
 * route (a faithful lowering of the legacy operation, or a retryable conflict when there is
 * none). A rebase re-applies the actions to the newest manifest; fragments whose deletions a
 * winner and this operation both extended are first merged row by row ({@link RowLevelRebase}).
 */
public final class CompositeCommit implements PendingCommit {
  private final ObjectStore store;
  private final CompositeOperation operation;
  private final TransactionProtos.Transaction transaction;
  private final Footprint footprint;
  // Fragments to decide row by row, each with the newest winner that asked for it.
  private final Map<Long, RowLevelRebase.Winner> rowChecks;
  private final StoreManifestHistory history;

  public CompositeCommit(ObjectStore store, CompositeOperation operation, TransactionProtos.Transaction transaction) {
    this(store, operation, transaction, Footprint.of(operation), Map.of(), new StoreManifestHistory(store));
  }

  private CompositeCommit(ObjectStore store, CompositeOperation operation, TransactionProtos.Transaction transaction,
      Footprint footprint, Map<Long, RowLevelRebase.Winner> rowChecks, StoreManifestHistory history) {
    this.store = store;
    this.operation = operation;
    this.transaction = transaction;
    this.footprint = footprint;
    this.rowChecks = Map.copyOf(rowChecks);
    this.history = history;
  }

  @Override
  public TransactionProtos.Transaction transaction() {
    return transaction;
  }

  @Override
  public PendingCommit checkAgainst(Snapshot winner, TransactionProtos.Transaction theirs) throws IOException {
    // Winners are checked in version order, so the previous one is the version before this one;
    // the read version stays (the row-level rebase reads it).
    history.remember(winner, transaction.getReadVersion());
    return checkAgainst(winner.version(), theirs);
  }

  @Override
  public PendingCommit checkAgainst(long winnerVersion, TransactionProtos.Transaction theirs) throws IOException {
    String name = TransactionFile.operationName(theirs);
    if (theirs.getOperationCase() != TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION) {
      // Cross-form: the legacy rules' footprint route (a faithful lowering, or fail closed). A
      // lowering that depends on the manifests around the winner reads them (decision 0022).
      LegacyVerdict verdict = LegacyCommit.raiseConflicts(LegacyConflicts.check(transaction, footprint, theirs,
          LegacyFootprints.readsVersions(theirs)
              ? LegacyFootprints.ofCommitted(theirs, around(winnerVersion, theirs, name))
              : held(winnerVersion).map(v -> LegacyFootprints.ofCommitted(theirs, v))
                  .orElseGet(() -> LegacyFootprints.ofCommitted(theirs))), winnerVersion, theirs);
      java.util.Set<Long> fragments = new java.util.TreeSet<>();
      for (SecondPhaseObligation o : verdict.obligations()) {
        if (o instanceof SecondPhaseObligation.IntersectDeletions d) {
          fragments.addAll(d.fragments());
        }
      }
      return withRowChecks(fragments, winnerVersion, name);
    }
    Footprint theirFootprint;
    try {
      theirFootprint = Footprint.of(ActionCodec.decode(theirs.getCompositeOperation()));
    } catch (InvalidActionException e) {
      // A winner this build cannot read (a newer writer's field, another draft's layout) cannot
      // be checked, so it is never taken for one that conflicts with nothing.
      throw ConflictingCommitException.failClosed(winnerVersion, name, "its composite operation "
          + "cannot be read (" + e.getMessage() + "), so this commit cannot be checked against it "
          + "(fail closed); upgrade Lancet, or re-plan on the new version");
    }
    ConflictResult result = Conflicts.check(footprint, theirFootprint);
    if (result.conflicts()) {
      throw new ConflictingCommitException(winnerVersion, name, result.collisions());
    }
    return withRowChecks(result.rowChecks(), winnerVersion, name);
  }

  /**
   * The manifests around the legacy winner at {@code winnerVersion}: the version before it,
   * itself, and its recorded read version if the table still has it. The version before it is
   * at or after our own read version, so it exists unless the table is being cleaned up under
   * this commit: then the winner cannot be checked, and the commit fails closed (retryable).
   */
  private CommittedVersions around(long winnerVersion, TransactionProtos.Transaction theirs, String name)
      throws IOException {
    Optional<Snapshot> landed = history.find(winnerVersion);
    Optional<Snapshot> before = history.find(winnerVersion - 1);
    if (landed.isEmpty() || before.isEmpty()) {
      long missing = landed.isEmpty() ? winnerVersion : winnerVersion - 1;
      throw ConflictingCommitException.failClosed(winnerVersion, name, "version "
          + Long.toUnsignedString(missing) + ", needed to tell what the " + name + " changed, is "
          + "gone (cleaned up), so this commit cannot be checked against it (fail closed); re-plan "
          + "on the newest version");
    }
    long read = theirs.getReadVersion();
    Optional<Snapshot> readSnapshot = read == winnerVersion - 1 ? before
        : Long.compareUnsigned(read, winnerVersion) < 0 ? history.find(read) : Optional.empty();
    return new CommittedVersions(before.get().manifest(), before.get().indices(), landed.get().manifest(),
        landed.get().indices(), readSnapshot.map(Snapshot::manifest));
  }

  /**
   * The winner at {@code winnerVersion} and the version before it, when both are in memory
   * already (the winner as the commit loop loaded it; the one before as the previous winner, or
   * the version the previous attempt applied onto, usually our read version): a payload-only
   * winner's dropped fragments are then claimed at the check, at no request (S3RequestCountsTest).
   * Otherwise empty, and rule 5 of decision 0022 stops a rebase that names such a fragment.
   */
  private Optional<CommittedVersions> held(long winnerVersion) {
    Optional<Snapshot> landed = history.peek(winnerVersion);
    Optional<Snapshot> before = history.peek(winnerVersion - 1);
    if (landed.isEmpty() || before.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new CommittedVersions(before.get().manifest(), before.get().indices(),
        landed.get().manifest(), landed.get().indices(), Optional.empty()));
  }

  private CompositeCommit withRowChecks(Collection<Long> fragments, long winnerVersion, String winnerOperation) {
    if (fragments.isEmpty()) {
      return this;
    }
    Map<Long, RowLevelRebase.Winner> all = new LinkedHashMap<>(rowChecks);
    for (long f : fragments) {
      all.put(f, new RowLevelRebase.Winner(winnerVersion, winnerOperation));
    }
    return new CompositeCommit(store, operation, transaction, footprint, all, history);
  }

  @Override
  public Rebased applyTo(Snapshot latest) throws IOException {
    // Kept: a retry's first winner is the version after this one (see held).
    history.remember(latest, transaction.getReadVersion());
    CompositeOperation op = operation;
    TransactionProtos.Transaction txn = transaction;
    if (!rowChecks.isEmpty()) {
      op = RowLevelRebase.rebase(operation, rowChecks, history.manifestAt(transaction.getReadVersion()),
          latest.manifest(), new StoreDeletionVectors(store));
      if (op != operation) {
        // The rebased operation is what is stored: it names the merged deletion files.
        txn = transaction.toBuilder().setCompositeOperation(ActionCodec.encode(op)).build();
      }
    }
    CompositeApply.Result result = CompositeApply.apply(latest.manifest(), latest.indices(), op,
        transaction.getReadVersion());
    return new Rebased(result.manifest(), result.indices(), txn, result.provenance());
  }
}
