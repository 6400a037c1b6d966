package dev.lancet.core.commit;

import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.conflict.legacy.LegacyRebase;
import dev.lancet.core.conflict.legacy.LegacyVerdict;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation;
import dev.lancet.core.conflict.legacy.FragmentStates;
import dev.lancet.core.conflict.legacy.StoreDeletionVectors;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A legacy operation being committed. Each winner is checked with the legacy pairwise rules
 * (a composite winner through the footprint route, failing closed where no faithful footprint
 * exists); the checks may leave second-phase obligations (deletion vectors to intersect), which
 * are settled when the commit is re-applied to the newest manifest: rows that do not intersect
 * are merged into new deletion files (a row-level rebase), rows that do are a retryable conflict.
 */
public final class LegacyCommit implements PendingCommit {
  private final ObjectStore store;
  private final TransactionProtos.Transaction transaction;
  private final List<SecondPhaseObligation> obligations;
  private final long lastWinner;
  private final StoreManifestHistory history;

  public LegacyCommit(ObjectStore store, TransactionProtos.Transaction transaction) {
    this(store, transaction, List.of(), -1, new StoreManifestHistory(store));
  }

  private LegacyCommit(ObjectStore store, TransactionProtos.Transaction transaction,
      List<SecondPhaseObligation> obligations, long lastWinner, StoreManifestHistory history) {
    this.store = store;
    this.transaction = transaction;
    this.obligations = List.copyOf(obligations);
    this.lastWinner = lastWinner;
    this.history = history;
  }

  @Override
  public TransactionProtos.Transaction transaction() {
    return transaction;
  }

  @Override
  public PendingCommit checkAgainst(long winnerVersion, TransactionProtos.Transaction theirs) {
    LegacyVerdict verdict = LegacyConflicts.check(transaction, theirs);
    String name = TransactionFile.operationName(theirs);
    switch (verdict.kind()) {
      case RETRYABLE:
        throw new ConflictingCommitException(winnerVersion, name, List.of(verdict.reason()));
      case INCOMPATIBLE:
        throw new IncompatibleTransactionException(winnerVersion, name, List.of(verdict.reason()));
      default:
        if (verdict.obligations().isEmpty()) {
          return this;
        }
        List<SecondPhaseObligation> all = new ArrayList<>(obligations);
        all.addAll(verdict.obligations());
        return new LegacyCommit(store, transaction, all, winnerVersion, history);
    }
  }

  @Override
  public Rebased applyTo(Snapshot latest) throws IOException {
    TransactionProtos.Transaction txn = transaction;
    if (!obligations.isEmpty()) {
      FragmentStates states = FragmentStates.of(
          history.manifestAt(txn.getReadVersion()).fragments(), latest.manifest().fragments(), latest.version());
      LegacyRebase.Result rebased = LegacyRebase.rebase(txn, obligations, states, new StoreDeletionVectors(store));
      if (!rebased.verdict().isOk()) {
        throw new ConflictingCommitException(Math.max(lastWinner, latest.version()), "row-level rebase",
            List.of(rebased.verdict().reason()));
      }
      txn = rebased.transaction().orElseThrow();
    }
    LegacyOperation op = LegacyOperationCodec.decode(txn);
    LegacyApply.Result result = LegacyApply.apply(latest.manifest(), latest.indices(), op,
        txn.getReadVersion(), history);
    return new Rebased(result.manifest(), result.indices(), txn);
  }
}
