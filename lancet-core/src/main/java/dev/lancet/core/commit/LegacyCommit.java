package dev.lancet.core.commit;

import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.conflict.legacy.LegacyRebase;
import dev.lancet.core.conflict.legacy.MissingDeletionFileException;
import dev.lancet.core.conflict.legacy.LegacyVerdict;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation;
import dev.lancet.core.conflict.legacy.FragmentStates;
import dev.lancet.core.conflict.legacy.StoreDeletionVectors;
import dev.lancet.core.operation.CreateIndex;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

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
  // The newest winner that left an obligation: the one a second-phase conflict is charged to.
  private final long lastWinner;
  private final String lastWinnerOperation;
  private final StoreManifestHistory history;

  public LegacyCommit(ObjectStore store, TransactionProtos.Transaction transaction) {
    this(store, transaction, List.of(), -1, "", new StoreManifestHistory(store, transaction.getReadVersion()));
  }

  private LegacyCommit(ObjectStore store, TransactionProtos.Transaction transaction,
      List<SecondPhaseObligation> obligations, long lastWinner, String lastWinnerOperation,
      StoreManifestHistory history) {
    this.store = store;
    this.transaction = transaction;
    this.obligations = List.copyOf(obligations);
    this.lastWinner = lastWinner;
    this.lastWinnerOperation = lastWinnerOperation;
    this.history = history;
  }

  @Override
  public TransactionProtos.Transaction transaction() {
    return transaction;
  }

  @Override
  public PendingCommit checkAgainst(long winnerVersion, TransactionProtos.Transaction theirs) {
    LegacyVerdict verdict = raiseConflicts(LegacyConflicts.check(transaction, theirs), winnerVersion, theirs);
    if (verdict.obligations().isEmpty()) {
      return this;
    }
    List<SecondPhaseObligation> all = new ArrayList<>(obligations);
    all.addAll(verdict.obligations());
    return new LegacyCommit(store, transaction, all, winnerVersion, TransactionFile.operationName(theirs), history);
  }

  /**
   * A verdict of the legacy pairwise rules (a composite side goes through the footprint route):
   * retryable or incompatible is thrown as the typed error naming the winner; OK, with any
   * second-phase obligations, is returned.
   */
  static LegacyVerdict raiseConflicts(LegacyVerdict verdict, long winnerVersion,
      TransactionProtos.Transaction theirs) {
    String name = TransactionFile.operationName(theirs);
    switch (verdict.kind()) {
      case RETRYABLE:
        throw new ConflictingCommitException(winnerVersion, name, List.of(verdict.reason()));
      case INCOMPATIBLE:
        throw new IncompatibleTransactionException(winnerVersion, name, List.of(verdict.reason()));
      default:
        return verdict;
    }
  }

  @Override
  public Rebased applyTo(Snapshot latest) throws IOException {
    TransactionProtos.Transaction txn = transaction;
    if (!obligations.isEmpty()) {
      FragmentStates states = FragmentStates.of(
          history.manifestAt(txn.getReadVersion()).fragments(), latest.manifest().fragments(), latest.version());
      LegacyRebase.Result rebased;
      try {
        rebased = LegacyRebase.rebase(txn, obligations, states, new StoreDeletionVectors(store));
      } catch (MissingDeletionFileException e) {
        // The winner's deletion file is gone: no retry can merge with rows nobody can read.
        throw new IncompatibleTransactionException(lastWinner, lastWinnerOperation,
            List.of(e.getMessage() + "; the table is damaged at that version, so this delete "
                + "cannot be merged with it (re-plan on a repaired table)"));
      }
      if (!rebased.verdict().isOk()) {
        // Rows we change were changed by a winner that left an obligation (the newest of them).
        throw new ConflictingCommitException(lastWinner, lastWinnerOperation,
            List.of(rebased.verdict().reason()));
      }
      txn = rebased.transaction().orElseThrow();
    }
    LegacyOperation op = LegacyOperationCodec.decode(txn);
    if (op instanceof CreateIndex ci) {
      CreateIndex pruned = pruneUpdatedFragments(ci);
      if (!pruned.equals(ci)) {
        op = pruned;
        txn = LegacyOperationCodec.encodeInto(pruned, txn.toBuilder()).build();
      }
    }
    LegacyApply.Result result = LegacyApply.apply(latest.manifest(), latest.indices(), op,
        txn.getReadVersion(), history);
    return new Rebased(result.manifest(), result.indices(), txn, result.provenance());
  }

  /**
   * Settles the index obligations of a CreateIndex: fragments whose indexed fields a concurrent
   * Update rewrote are dropped from the new segments' coverage (the index holds their old
   * values), as Lance does. Merging concurrent MemWAL progress into a new MemWAL index is not
   * implemented: that case fails closed as a retryable conflict.
   */
  private CreateIndex pruneUpdatedFragments(CreateIndex ci) {
    List<IndexSegment> segments = new ArrayList<>(ci.newIndices());
    for (SecondPhaseObligation o : obligations) {
      if (o instanceof SecondPhaseObligation.MergeMemWalProgress) {
        throw new ConflictingCommitException(lastWinner, lastWinnerOperation,
            List.of("it recorded MemWAL compaction progress that this CreateIndex of the MemWAL index "
                + "would have to merge, which Lancet does not do yet (fail closed); rebuild the index "
                + "on the new version"));
      }
      if (o instanceof SecondPhaseObligation.PruneUpdatedFieldsFromIndices prune) {
        for (int i = 0; i < segments.size(); i++) {
          IndexSegment seg = segments.get(i);
          boolean overUpdatedField = seg.fields().stream().anyMatch(prune.fields()::contains);
          if (overUpdatedField && seg.coveredFragments().isPresent()) {
            RoaringBitmap covered = seg.coveredFragments().get().toRoaringBitmap();
            prune.fragments().forEach(f -> covered.remove(f.intValue()));
            segments.set(i, seg.withFragmentBitmap(covered));
          }
        }
      }
    }
    return new CreateIndex(segments, ci.removedIndices());
  }
}
