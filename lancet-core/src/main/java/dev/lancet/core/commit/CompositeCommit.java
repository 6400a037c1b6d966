package dev.lancet.core.commit;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Conflicts;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.conflict.legacy.LegacyConflicts;
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
  public PendingCommit checkAgainst(long winnerVersion, TransactionProtos.Transaction theirs) {
    String name = TransactionFile.operationName(theirs);
    if (theirs.getOperationCase() != TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION) {
      // Cross-form: the legacy rules' footprint route (a faithful lowering, or fail closed).
      LegacyVerdict verdict = LegacyCommit.raiseConflicts(
          LegacyConflicts.check(transaction, footprint, theirs), winnerVersion, theirs);
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
