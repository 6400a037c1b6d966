package dev.lancet.core.conflict.legacy;

import dev.lancet.core.conflict.legacy.SecondPhaseObligation.IntersectDeletions;
import dev.lancet.core.conflict.deletions.DeletionMerge;
import dev.lancet.core.conflict.deletions.DeletionVectors;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Row-level rebase of a Delete/Update over concurrent Deletes/Updates of the same fragments
 * (seed §9.6): when the second phase finds the rows do not intersect, each shared fragment gets
 * a new deletion file holding the union of the newest version's deletion vector and ours, and
 * our transaction is rewritten to carry it (same uuid, same read version). A fragment the union
 * deletes entirely is removed instead. The caller passes the obligations of every concurrent
 * transaction it checked, so one rebase covers them all.
 */
public final class LegacyRebase {
  private LegacyRebase() {}

  /**
   * The outcome: an OK verdict with the transaction to publish (rewritten or, when nothing
   * needed merging, the original), or a RETRYABLE verdict and no transaction.
   */
  public record Result(LegacyVerdict verdict, Optional<Transaction> transaction) {
    public Result {
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(transaction, "transaction");
      if (verdict.isOk() != transaction.isPresent()) {
        throw new IllegalArgumentException("an OK rebase carries a transaction, a conflict none");
      }
    }
  }

  public static Result rebase(Transaction ours, List<SecondPhaseObligation> obligations,
      FragmentStates states, DeletionVectors vectors) throws IOException {
    LegacyVerdict verdict = LegacySecondPhase.check(ours, obligations, states, vectors);
    if (!verdict.isOk()) {
      return new Result(verdict, Optional.empty());
    }
    Set<Long> shared = LegacySecondPhase.fragments(obligations, IntersectDeletions.class);
    if (shared.isEmpty() || !(ours.hasDelete() || ours.hasUpdate())) {
      return new Result(verdict, Optional.of(ours));
    }
    Map<Long, TableProtos.DeletionFile> rewritten = new LinkedHashMap<>();
    Set<Long> emptied = new TreeSet<>();
    for (long f : shared) {
      TableProtos.DataFragment read = states.read(f).orElseThrow();
      TableProtos.DataFragment now = states.now(f).orElseThrow();
      if (LegacySecondPhase.sameDeletionFile(read, now)) {
        continue;
      }
      TableProtos.DataFragment mine = LegacyOps.updatedFragment(ours, f).orElseThrow();
      DeletionMerge.Merged merged = DeletionMerge.merge(LegacySecondPhase.deletions(now, vectors),
          LegacySecondPhase.deletions(mine, vectors), now.getPhysicalRows());
      if (merged.emptied()) {
        emptied.add(f);
      } else {
        rewritten.put(f, vectors.write(f, states.currentVersion(), merged.deletions()));
      }
    }
    return new Result(verdict, Optional.of(rewrite(ours, rewritten, emptied)));
  }

  private static Transaction rewrite(Transaction ours, Map<Long, TableProtos.DeletionFile> files, Set<Long> emptied) {
    List<TableProtos.DataFragment> updated = ours.hasDelete() ? ours.getDelete().getUpdatedFragmentsList()
        : ours.getUpdate().getUpdatedFragmentsList();
    List<TableProtos.DataFragment> kept = new ArrayList<>();
    for (TableProtos.DataFragment f : updated) {
      if (emptied.contains(f.getId())) {
        continue;
      }
      TableProtos.DeletionFile file = files.get(f.getId());
      kept.add(file == null ? f : f.toBuilder().setDeletionFile(file).build());
    }
    Transaction.Builder b = ours.toBuilder();
    if (ours.hasDelete()) {
      b.setDelete(ours.getDelete().toBuilder().clearUpdatedFragments().addAllUpdatedFragments(kept)
          .addAllDeletedFragmentIds(emptied));
    } else {
      b.setUpdate(ours.getUpdate().toBuilder().clearUpdatedFragments().addAllUpdatedFragments(kept)
          .addAllRemovedFragmentIds(emptied));
    }
    return b.build();
  }
}
