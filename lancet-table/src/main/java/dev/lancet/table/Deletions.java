package dev.lancet.table;

import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import java.io.IOException;
import java.io.UncheckedIOException;
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

  /** Deletes {@code rows} (physical offsets, live ones) of {@code f}; returns rows deleted. */
  static long delete(TxnPlan plan, TxnPlan.Step step, ViewFragment f, RoaringBitmap rows) {
    if (rows.isEmpty()) {
      return 0;
    }
    TableContext ctx = plan.ctx();
    DeletionVector before = f.deleted(ctx);
    DeletionVector after = before.union(DeletionVector.fromBitmap(rows));
    long deleted = after.cardinality() - before.cardinality();
    if (after.cardinality() >= f.fragment().physicalRows()) {
      step.add(() -> java.util.List.of(new RemoveFragment(f.ref(), true)));
      f.markRemoved();
      f.deleted(after);
      return deleted;
    }
    if (!f.hasCommittedId()) {
      plan.reserveIds();
    }
    long id = f.id();
    DeletionFile file;
    try {
      file = DeletionFiles.write(ctx.store(), id, plan.view().readVersion(), after);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the deletion file of fragment " + id, e);
    }
    plan.wrote(DeletionFileNames.DIRECTORY + "/" + file.fileName(id));
    step.add(new SetDeletionFile(id, Optional.of(file), true));
    f.deleted(after);
    return deleted;
  }
}
