package dev.lancet.core.commit;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Conflicts;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import java.util.List;

/**
 * A composite operation being committed. Its footprint is computed once and checked against
 * each composite winner's footprint; a legacy winner goes through the legacy rules' footprint
 * route (a faithful lowering of the legacy operation, or a retryable conflict when there is
 * none). A rebase re-applies the actions to the newest manifest.
 */
public final class CompositeCommit implements PendingCommit {
  private final CompositeOperation operation;
  private final TransactionProtos.Transaction transaction;
  private final Footprint footprint;

  public CompositeCommit(CompositeOperation operation, TransactionProtos.Transaction transaction) {
    this.operation = operation;
    this.transaction = transaction;
    this.footprint = Footprint.of(operation);
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
      LegacyCommit.raiseConflicts(LegacyConflicts.check(transaction, footprint, theirs), winnerVersion, theirs);
      return this;
    }
    Footprint theirFootprint;
    try {
      theirFootprint = Footprint.of(ActionCodec.decode(theirs.getCompositeOperation()));
    } catch (InvalidActionException e) {
      // A winner this build cannot read (a newer writer's field, another draft's layout) cannot
      // be checked, so it is never taken for one that conflicts with nothing.
      throw new ConflictingCommitException(winnerVersion, name, List.of("its composite operation "
          + "cannot be read (" + e.getMessage() + "), so this commit cannot be checked against it "
          + "(fail closed); upgrade Lancet, or re-plan on the new version"));
    }
    ConflictResult result = Conflicts.check(footprint, theirFootprint);
    if (result.conflicts()) {
      throw new ConflictingCommitException(winnerVersion, name,
          result.collisions().stream().map(Object::toString).toList());
    }
    return this;
  }

  @Override
  public Rebased applyTo(Snapshot latest) {
    CompositeApply.Result result = CompositeApply.apply(latest.manifest(), latest.indices(), operation,
        transaction.getReadVersion());
    return new Rebased(result.manifest(), result.indices(), transaction, result.provenance());
  }
}
