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
import java.util.concurrent.FutureTask;
import java.util.function.Function;
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
    List<Integer> todo = withRows(rows);
    for (int i : todo) {
      if (!fragments.get(i).hasCommittedId() && !leavesNothing(plan, fragments.get(i), rows.get(i))) {
        plan.reserveIds();
      }
    }
    return addAll(plan, step,
        Parallel.mapWaiting(todo, i -> prepare(plan, fragments.get(i), rows.get(i))));
  }

  /** The indices of the fragments with rows to delete. */
  private static List<Integer> withRows(List<RoaringBitmap> rows) {
    List<Integer> out = new java.util.ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (!rows.get(i).isEmpty()) {
        out.add(i);
      }
    }
    return out;
  }

  /** Adds the prepared deletions to {@code step} in order; returns rows deleted. */
  private static long addAll(TxnPlan plan, TxnPlan.Step step, List<Prepared> prepared) {
    long deleted = 0;
    for (Prepared p : prepared) {
      deleted += add(plan, step, p);
    }
    return deleted;
  }

  /**
   * Deletes the rows {@code match} gives of each fragment: each fragment's deletion file is
   * written as soon as its rows are known, while other fragments are still being matched (the
   * fsyncs then overlap the reads). Returns rows deleted.
   */
  static long deleteMatching(TxnPlan plan, TxnPlan.Step step, List<ViewFragment> fragments,
      Function<ViewFragment, RoaringBitmap> match) {
    if (!fragments.stream().allMatch(ViewFragment::hasCommittedId)) {
      // A fragment this transaction wrote may need ids reserved first, which is the plan's to do
      // on one thread: match all, then delete.
      return deleteAll(plan, step, fragments, Parallel.mapReads(plan.ctx(), fragments, match));
    }
    List<Optional<Prepared>> prepared = Parallel.mapReadsThenWaiting(plan.ctx(), fragments,
        match, (f, rows) -> rows.isEmpty() ? Optional.empty() : Optional.of(prepare(plan, f, rows)));
    return addAll(plan, step, prepared.stream().flatMap(Optional::stream).toList());
  }

  /**
   * Starts writing the deletion files for {@code rows} of {@code fragments} on a thread of its
   * own, for a statement with other work to do before it adds them to its step (an update's or
   * a merge insert's new rows): their fsyncs overlap that work. {@link Started#add} adds them
   * where {@link #deleteAll} would have. Where a fragment is one the transaction wrote (its ids
   * may need reserving, in order, on the plan's thread) nothing starts early.
   */
  static Started start(TxnPlan plan, List<ViewFragment> fragments, List<RoaringBitmap> rows) {
    List<Integer> todo = withRows(rows);
    if (todo.isEmpty() || !todo.stream().allMatch(i -> fragments.get(i).hasCommittedId())) {
      return new Started(plan, fragments, rows, null);
    }
    FutureTask<List<Prepared>> writing = new FutureTask<>(() -> Parallel.mapWaiting(todo,
        i -> prepare(plan, fragments.get(i), rows.get(i))));
    Thread t = new Thread(writing, "lancet-deletions");
    t.setDaemon(true);
    t.start();
    return new Started(plan, fragments, rows, writing);
  }

  /** Deletion files being written; closing it without {@link #add} leaves them to the plan. */
  static final class Started implements AutoCloseable {
    private final TxnPlan plan;
    private final List<ViewFragment> fragments;
    private final List<RoaringBitmap> rows;
    private final FutureTask<List<Prepared>> writing; // null: written by add
    private boolean added;

    private Started(TxnPlan plan, List<ViewFragment> fragments, List<RoaringBitmap> rows,
        FutureTask<List<Prepared>> writing) {
      this.plan = plan;
      this.fragments = fragments;
      this.rows = rows;
      this.writing = writing;
    }

    /** Waits for the files and adds the deletions to {@code step}; returns rows deleted. */
    long add(TxnPlan.Step step) {
      added = true;
      if (writing == null) {
        return deleteAll(plan, step, fragments, rows);
      }
      return addAll(plan, step, Parallel.await(writing));
    }

    /** After a failure: waits for the files and notes them, so the plan's abort deletes them. */
    @Override
    public void close() {
      if (added || writing == null) {
        return;
      }
      try {
        for (Prepared p : Parallel.await(writing)) {
          p.file().ifPresent(f -> plan.wrote(path(p.fragment().id(), f)));
        }
      } catch (RuntimeException e) {
        // The write that failed left no name; the ones before it are left for cleanup.
      }
    }
  }

  private static String path(long fragmentId, DeletionFile file) {
    return DeletionFileNames.DIRECTORY + "/" + file.fileName(fragmentId);
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
      plan.wrote(path(id, p.file().get()));
      step.add(new SetDeletionFile(id, p.file(), true));
    }
    f.deleted(p.after());
    return p.deleted();
  }
}
