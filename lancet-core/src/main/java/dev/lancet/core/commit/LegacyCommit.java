package dev.lancet.core.commit;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.apply.MemWalProgress;
import dev.lancet.core.conflict.legacy.LegacyConflicts;
import dev.lancet.core.conflict.legacy.LegacyRebase;
import dev.lancet.core.conflict.legacy.MissingDeletionFileException;
import dev.lancet.core.conflict.legacy.LegacyVerdict;
import dev.lancet.core.conflict.legacy.SecondPhaseObligation;
import dev.lancet.core.conflict.legacy.FragmentStates;
import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.operation.CreateIndex;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.FormatException;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
        throw new ConflictingCommitException(winnerVersion, name, verdict.collisions());
      case INCOMPATIBLE:
        throw new IncompatibleTransactionException(winnerVersion, name, verdict.collisions());
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
            List.of(new dev.lancet.core.conflict.Collision.FailClosed(e.getMessage() + "; the table is damaged at that "
                + "version, so this delete cannot be merged with it (re-plan on a repaired table)")));
      }
      if (!rebased.verdict().isOk()) {
        // Rows we change were changed by a winner that left an obligation (the newest of them).
        throw new ConflictingCommitException(lastWinner, lastWinnerOperation, rebased.verdict().collisions());
      }
      txn = rebased.transaction().orElseThrow();
    }
    LegacyOperation op = LegacyOperationCodec.decode(txn);
    if (op instanceof CreateIndex ci) {
      CreateIndex pruned = settleIndexObligations(ci, latest);
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
   * Settles the index obligations of a CreateIndex (they never conflict): fragments whose
   * indexed fields a concurrent Update rewrote are dropped from the new segments' coverage (the
   * index holds their old values), as Lance does; and compaction progress that concurrent
   * UpdateMemWalStates recorded is merged into the MemWAL index this CreateIndex installs, as
   * upstream's {@code finish_create_index} does (lance-format/lance
   * rust/lance/src/io/commit/conflict_resolver.rs, stored version id 57928118267): per shard the
   * higher generation, the segment stamped with the version it is rebased onto, and the MemWAL
   * index the winners updated replaced by ours (it is a singleton).
   */
  private CreateIndex settleIndexObligations(CreateIndex ci, Snapshot latest) {
    List<IndexSegment> segments = new ArrayList<>(ci.newIndices());
    List<TableProtos.CompactedSsTable> concurrentProgress = new ArrayList<>();
    for (SecondPhaseObligation o : obligations) {
      if (o instanceof SecondPhaseObligation.MergeMemWalProgress merge) {
        concurrentProgress.addAll(merge.compacted());
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
    List<IndexSegment> removed = new ArrayList<>(ci.removedIndices());
    if (!concurrentProgress.isEmpty()) {
      mergeMemWalProgress(segments, removed, concurrentProgress, latest);
    }
    return new CreateIndex(segments, removed);
  }

  private void mergeMemWalProgress(List<IndexSegment> segments, List<IndexSegment> removed,
      List<TableProtos.CompactedSsTable> concurrentProgress, Snapshot latest) {
    for (int i = 0; i < segments.size(); i++) {
      IndexSegment ours = segments.get(i);
      if (!ours.name().equals(ApplyState.MEM_WAL_INDEX)) {
        continue;
      }
      Map<UUID, Long> progress;
      try {
        progress = MemWalProgress.of(ours);
        for (TableProtos.CompactedSsTable t : concurrentProgress) {
          progress.merge(IndexCodec.uuidFromProto(t.getShardId(), "UpdateMemWalState.compacted_sstables"),
              t.getGeneration(), (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b);
        }
      } catch (FormatException e) {
        throw new ApplyException("CreateIndex", e.getMessage() + "; the concurrent MemWAL progress of version "
            + lastWinner + " cannot be merged into it");
      }
      segments.set(i, MemWalProgress.with(ours, progress, latest.version()));
      for (IndexSegment existing : latest.indices()) {
        boolean alreadyRemoved = removed.stream().anyMatch(r -> r.uuid().equals(existing.uuid()));
        if (existing.name().equals(ApplyState.MEM_WAL_INDEX) && !existing.uuid().equals(ours.uuid()) && !alreadyRemoved) {
          removed.add(existing);
        }
      }
    }
  }
}
