package dev.lancet.table;

import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Rewrites small fragments, and fragments with many deleted rows, into fragments of about
 * {@link #targetRowsPerFragment} live rows, as lance-core's compaction plans it: runs of
 * consecutive candidate fragments (fewer physical rows than the target, or a deleted share above
 * {@link #materializeDeletionsThreshold}) are rewritten together, their live rows in order into
 * fragments of the target's rows (the last one holding the rest); a run of one fragment is
 * rewritten only to drop its deleted rows. So a compacted table compacts to itself.
 *
 * <p>Committed as a {@code data_change = false} rewrite: RemoveFragment of each old fragment and
 * AddFragment + AddDataFile of the new ones, every action marked as no data change; with stable
 * row ids the rows keep their row ids and both row versions (created at, last updated). Index
 * coverage of the removed fragments is pruned (the rewritten rows are unindexed until the index
 * is optimized, which keeps queries right). The rewrite commutes with concurrent appends and merge
 * inserts of new keys; a concurrent commit that changed one of the fragments it rewrote (a
 * delete, an update, a column rewrite) collides, and the compaction is planned again against the
 * new version (within {@link #maxReplans}).
 *
 * <pre>{@code
 * CompactionResult r = table.compact().targetRowsPerFragment(1_000_000).commit();
 * }</pre>
 */
public final class Compaction extends StatementBuilder<Compaction> {
  /** lance-core's default target: 1,048,576 rows per fragment. */
  public static final long DEFAULT_TARGET_ROWS_PER_FRAGMENT = 1024L * 1024;
  /** lance-core's default: rewrite a fragment when more than 10% of its rows are deleted. */
  public static final double DEFAULT_MATERIALIZE_DELETIONS_THRESHOLD = 0.1;

  private long targetRowsPerFragment = DEFAULT_TARGET_ROWS_PER_FRAGMENT;
  private double threshold = DEFAULT_MATERIALIZE_DELETIONS_THRESHOLD;
  private boolean materializeDeletions = true;

  Compaction(TableContext ctx, Supplier<Snapshot> latest) {
    super(ctx, latest);
  }

  @Override
  Compaction self() {
    return this;
  }

  /** The rows a compacted fragment holds (default 1,048,576). */
  public Compaction targetRowsPerFragment(long rows) {
    if (rows <= 0 || rows > Integer.MAX_VALUE) {
      throw new InvalidInputException("target rows per fragment must be between 1 and "
          + Integer.MAX_VALUE + ", not " + rows);
    }
    this.targetRowsPerFragment = rows;
    return this;
  }

  /**
   * A fragment whose deleted share of rows is above this (0 to 1; default 0.1) is rewritten
   * without them.
   */
  public Compaction materializeDeletionsThreshold(double share) {
    if (!(share >= 0 && share <= 1)) {
      throw new InvalidInputException("the materialize-deletions threshold is a share of rows "
          + "between 0 and 1, not " + share);
    }
    this.threshold = share;
    return this;
  }

  /** Whether deleted rows are a reason to rewrite a fragment at all (default true). */
  public Compaction materializeDeletions(boolean on) {
    this.materializeDeletions = on;
    return this;
  }

  public CompactionResult commit() {
    CompactStatement s = new CompactStatement();
    StatementResult r = run(s);
    return new CompactionResult(r.version(), r.committed() ? s.removed : 0, r.filesWritten(),
        r.committed() ? s.rewritten : 0, r.committed() ? s.materialized : 0, r.plans(),
        r.attempts());
  }

  /** The compaction of the newest version; its counts are those of its last plan. */
  private final class CompactStatement implements Statement {
    int removed;
    long rewritten;
    long materialized;

    @Override
    public String kind() {
      return "compaction";
    }

    @Override
    public String describe() {
      return "compact to " + targetRowsPerFragment + " rows per fragment";
    }

    @Override
    public Counts plan(TxnPlan plan, TxnPlan.Step step) {
      removed = 0;
      rewritten = 0;
      materialized = 0;
      TableView view = plan.view();
      TableContext ctx = plan.ctx();
      List<List<ViewFragment>> groups = groups(view, ctx);
      List<Field> top = view.schema().topLevel();
      try (RowSink sink = new RowSink(plan, step, false, targetRowsPerFragment)) {
        for (List<ViewFragment> group : groups) {
          // Fragments are read a few ahead on other threads while this one writes, in order.
          Parallel.pipeline(group, Parallel.WINDOW, f -> read(view, f, top, ctx), held -> {
            for (HeldBatches.Held h : held.batches()) {
              sink.write(h.root(), RowSink.Kind.COMPACTED, h.rowIds(), h.createdAt(),
                  h.lastUpdatedAt());
              rewritten += h.root().getRowCount();
            }
          });
          for (ViewFragment f : group) {
            materialized += f.deleted(ctx).cardinality();
            removed++;
          }
          sink.finish(); // a group's rows never share a fragment with another group's
        }
      }
      for (List<ViewFragment> group : groups) {
        for (ViewFragment f : group) {
          step.add(new RemoveFragment(f.ref(), false));
        }
      }
      return Counts.NONE;
    }

    /** The live rows of {@code f}, every column, with their row ids and versions. */
    private HeldBatches read(TableView view, ViewFragment f, List<Field> top, TableContext ctx) {
      Optional<RowIdSequence> ids = f.rowIds(ctx);
      Optional<RowVersionSequence> created = f.createdAt(ctx);
      Optional<RowVersionSequence> updated = f.lastUpdatedAt(ctx);
      HeldBatches out = new HeldBatches(ctx.allocator());
      try (FragmentRead read = view.read(f, top, f.liveRanges(ctx), batchSize)) {
        VectorSchemaRoot batch;
        while ((batch = read.next()) != null) {
          long[] offsets = read.offsets();
          int n = offsets.length;
          view.advance(n);
          long[] rowIds = new long[n];
          long[] c = new long[n];
          long[] u = new long[n];
          for (int i = 0; i < n; i++) {
            rowIds[i] = ids.isPresent() ? ids.get().get(offsets[i]) : -1;
            c[i] = created.isPresent() ? created.get().versionAt(offsets[i]) : 1;
            u[i] = updated.isPresent() ? updated.get().versionAt(offsets[i]) : c[i];
          }
          out.add(batch, rowIds, c, u);
        }
        return out;
      } catch (IOException | RuntimeException e) {
        out.close();
        if (e instanceof RuntimeException r) {
          throw r;
        }
        throw new UncheckedIOException("compacting fragment " + f.id(), (IOException) e);
      }
    }

    /** The groups of fragments to rewrite, each into fragments of about the target's rows. */
    private List<List<ViewFragment>> groups(TableView view, TableContext ctx) {
      List<List<ViewFragment>> out = new ArrayList<>();
      List<ViewFragment> current = new ArrayList<>();
      for (ViewFragment f : view.fragments()) {
        boolean small = f.fragment().physicalRows() < targetRowsPerFragment;
        boolean deletions = materializeDeletions && f.fragment().deletionFile().isPresent()
            && deletedShare(f, ctx) > threshold;
        if (!small && !deletions) {
          close(out, current, ctx);
          current = new ArrayList<>();
          continue;
        }
        current.add(f);
      }
      close(out, current, ctx);
      return out;
    }

    private double deletedShare(ViewFragment f, TableContext ctx) {
      long physical = f.fragment().physicalRows();
      return physical == 0 ? 0 : (double) f.deleted(ctx).cardinality() / physical;
    }

    /** A group is worth rewriting with two or more fragments, or one with deletions to drop. */
    private void close(List<List<ViewFragment>> out, List<ViewFragment> group, TableContext ctx) {
      if (group.size() > 1 || (group.size() == 1 && materializeDeletions
          && group.get(0).fragment().deletionFile().isPresent()
          && deletedShare(group.get(0), ctx) > threshold)) {
        out.add(group);
      }
    }
  }
}
