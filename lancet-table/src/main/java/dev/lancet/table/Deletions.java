package dev.lancet.table;

import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * Deletes rows of a fragment for a statement: the new deletion vector is the fragment's current
 * one (as the view sees it) merged with the rows, written as a new deletion file and set with
 * SetDeletionFile; a fragment left with no live row is removed instead (RemoveFragment). A
 * concurrent delete of the same fragment is the commit loop's to resolve (a conflict today; a
 * row-level rebase of disjoint rows once the kernel has it).
 */
final class Deletions {
  private Deletions() {}

  /** A fragment's deletion, written but not yet part of the step. */
  record Prepared(ViewFragment fragment, DeletionVector after, long deleted,
      Optional<DeletionFile> file) {}

  /** Deletes {@code rows} (physical offsets, live ones) of {@code f}; returns rows deleted. */
  static long delete(TxnPlan plan, TxnPlan.Step step, ViewFragment f, RoaringBitmap rows) {
    if (rows.isEmpty()) {
      return 0;
    }
    if (!f.hasCommittedId() && !leavesNothing(plan, f, rows)) {
      plan.reserveIds();
    }
    return add(plan, step, prepare(plan, f, rows));
  }

  /**
   * Deletes the rows of many fragments at once: their deletion files are written all at once
   * (each waits on the store's fsyncs, which then share the filesystem's journal commits), then
   * added to the step in order. Returns rows deleted.
   */
  static long deleteAll(TxnPlan plan, TxnPlan.Step step, List<ViewFragment> fragments,
      List<RoaringBitmap> rows) {
    List<Integer> todo = new java.util.ArrayList<>();
    for (int i = 0; i < fragments.size(); i++) {
      if (!rows.get(i).isEmpty()) {
        todo.add(i);
        if (!fragments.get(i).hasCommittedId() && !leavesNothing(plan, fragments.get(i), rows.get(i))) {
          plan.reserveIds();
        }
      }
    }
    List<Prepared> prepared = Parallel.mapWaiting(todo, i -> prepare(plan, fragments.get(i), rows.get(i)));
    long deleted = 0;
    for (Prepared p : prepared) {
      deleted += add(plan, step, p);
    }
    return deleted;
  }

  private static boolean leavesNothing(TxnPlan plan, ViewFragment f, RoaringBitmap rows) {
    return f.deleted(plan.ctx()).union(DeletionVector.fromBitmap(rows)).cardinality()
        >= f.fragment().physicalRows();
  }

  /** The new deletion vector, written as a file unless the fragment is left empty. */
  private static Prepared prepare(TxnPlan plan, ViewFragment f, RoaringBitmap rows) {
    TableContext ctx = plan.ctx();
    DeletionVector before = f.deleted(ctx);
    DeletionVector after = before.union(DeletionVector.fromBitmap(rows));
    long deleted = after.cardinality() - before.cardinality();
    if (after.cardinality() >= f.fragment().physicalRows()) {
      return new Prepared(f, after, deleted, Optional.empty());
    }
    long id = f.id();
    try {
      return new Prepared(f, after, deleted, Optional.of(
          DeletionFiles.write(ctx.store(), id, plan.view().readVersion(), after)));
    } catch (IOException e) {
      throw new UncheckedIOException("writing the deletion file of fragment " + id, e);
    }
  }

  private static long add(TxnPlan plan, TxnPlan.Step step, Prepared p) {
    ViewFragment f = p.fragment();
    if (p.file().isEmpty()) {
      step.add(() -> List.of(new RemoveFragment(f.ref(), true)));
      f.markRemoved();
    } else {
      long id = f.id();
      plan.wrote(DeletionFileNames.DIRECTORY + "/" + p.file().get().fileName(id));
      step.add(new SetDeletionFile(id, p.file(), true));
    }
    f.deleted(p.after());
    return p.deleted();
  }
}
