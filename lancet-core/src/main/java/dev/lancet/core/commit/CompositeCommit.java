package dev.lancet.core.commit;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Conflicts;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import java.util.List;
import java.util.Optional;

/**
 * A composite operation being committed. Its footprint is computed once; each winner's
 * footprint is derived from the winner's own actions (or, for a legacy winner, from a
 * faithful lowering), and a rebase re-applies the actions to the newest manifest.
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
    Optional<Footprint> committed = footprintOf(theirs);
    String name = TransactionFile.operationName(theirs);
    if (committed.isEmpty()) {
      // Cross-form, fail closed: no faithful footprint for this legacy operation.
      throw new ConflictingCommitException(winnerVersion, name, List.of("it is a legacy " + name
          + " operation, which has no faithful footprint to check a composite operation against "
          + "(fail closed)"));
    }
    ConflictResult result = Conflicts.check(footprint, committed.get());
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
    return new Rebased(result.manifest(), result.indices(), transaction);
  }

  /** The footprint of a committed transaction, when it has a faithful one. */
  static Optional<Footprint> footprintOf(TransactionProtos.Transaction theirs) {
    switch (theirs.getOperationCase()) {
      case COMPOSITE_OPERATION:
        return Optional.of(Footprint.of(ActionCodec.decode(theirs.getCompositeOperation())));
      case APPEND:
        // A legacy append adds fragments and rows, nothing else: faithfully, it inserts rows.
        return Optional.of(Footprint.builder().insertRows().build());
      default:
        return Optional.empty();
    }
  }
}
