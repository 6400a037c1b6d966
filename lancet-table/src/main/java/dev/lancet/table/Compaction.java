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
 * {@link #targetRowsPerFragment} live rows, planned as lance-core's compaction plans it: runs of
 * consecutive candidate fragments (fewer physical rows than the target, or a deleted share above
 * {@link #materializeDeletionsThreshold}) that the same index segments cover are bins; a bin of
 * one fragment is rewritten only to drop its deleted rows; a bin is cut, fragment by fragment,
 * into groups of at least the target's live rows (the last one takes the rest), and each group's
 * live rows are written in order into fragments of at most the target's rows. So a compacted
 * table compacts to itself, and the new fragments are the ones lance-core's compaction of the
 * same version writes.
 *
 * <p>Committed as a {@code data_change = false} rewrite: RemoveFragment of each old fragment and
 * AddFragment + AddDataFile of the new ones, every action marked as no data change; with stable
 * row ids the rows keep their row ids and both row versions (created at, last updated).
 *
 * <p><b>Indexes</b> (docs/decisions/0026). Compaction never throws index coverage away
 * silently. With stable row ids an index keyed by row ids (vector, BTree, bitmap, label-list,
 * inverted, n-gram) stays valid when its rows move, so its coverage follows them to the new
 * fragments (an AdjustIndexCoverage per rewritten group; in the legacy form a Rewrite, which
 * lance-core remaps the same way). An index that cannot follow its rows (every index of a table
 * without stable row ids, whose entries are row addresses, until Lancet can remap index files;
 * zone-map and Bloom-filter indexes, which hold fragment offsets) keeps the fragments it covers
 * as they are: they are skipped, and the other candidates are still compacted. {@link
 * #allowIndexCoverageLoss(boolean)} rewrites them anyway; their rows are then unindexed (queries
 * scan them and stay right) until the index is optimized, and a vector index left covering
 * nothing is dropped. {@link CompactionResult#indexCoverage()} says, per index, what happened to
 * how many fragments and why.
 *
 * <p>The rewrite commutes with concurrent appends and merge inserts of new keys; a concurrent
 * commit that changed one of the fragments it rewrote (a delete, an update, a column rewrite) or
 * an index segment it adjusts collides, and the compaction is planned again against the new
 * version (within {@link #maxReplans}).
 *
 * <pre>{@code
 * CompactionResult r = table.compact().targetRowsPerFragment(1_000_000).commit();
 * r.indexCoverage().forEach(c -> System.out.println(c.describe()));
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
  private boolean allowIndexCoverageLoss = false;

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

  /**
   * Whether fragments covered by an index that cannot follow its rows into new fragments are
   * rewritten anyway (default false: they are skipped). With true their rows become unindexed
   * until the index is optimized or rebuilt, and a vector index left covering nothing is dropped;
   * building an index can take hours, so this is the caller's explicit choice
   * (docs/decisions/0026). An index that records no coverage keeps its fragments even so.
   */
  public Compaction allowIndexCoverageLoss(boolean allow) {
    this.allowIndexCoverageLoss = allow;
    return this;
  }

  public CompactionResult commit() {
    CompactStatement s = new CompactStatement();
    StatementResult r = run(s);
    boolean done = r.committed();
    return new CompactionResult(r.version(), done ? s.removed : 0, r.filesWritten(),
        done ? s.rewritten : 0, done ? s.materialized : 0, s.skipped, s.coverage, r.plans(),
        r.attempts());
  }

  /** A candidate fragment: rewritten with neighbours only, or even alone (to drop deletions). */
  private enum Candidacy { WITH_NEIGHBOURS, ITSELF }

  /** Consecutive candidates with one index signature, and their live rows. */
  private record Bin(List<ViewFragment> fragments, List<Candidacy> candidacy, List<Long> live,
      List<java.util.UUID> signature) {}

  private static List<Long> ids(List<ViewFragment> fragments) {
    return fragments.stream().map(ViewFragment::id).toList();
  }

  /** The compaction of the newest version; its counts are those of its last plan. */
  private final class CompactStatement implements Statement {
    int removed;
    long rewritten;
    long materialized;
    int skipped;
    List<IndexCoverage> coverage = List.of();

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
      CompactionCoverage indexes = new CompactionCoverage(view.read().indices(),
          view.stableRowIds(), allowIndexCoverageLoss);
      List<List<ViewFragment>> groups = new ArrayList<>();
      for (Bin bin : bins(view, ctx, indexes)) {
        for (List<ViewFragment> group : splitForSize(bin)) {
          if (!indexes.skip(ids(group))) {
            groups.add(group);
          }
        }
      }
      List<Field> top = view.schema().topLevel();
      java.util.Set<Long> removedAll = new java.util.HashSet<>();
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
            removedAll.add(f.id());
          }
          sink.finish(); // a group's rows never share a fragment with another group's
          // One group's actions together: its new fragments (above), the old ones removed, then
          // the index coverage that follows the rows (the legacy form reads groups off this order).
          List<PendingFragment> added = sink.takeWritten();
          for (ViewFragment f : group) {
            step.add(new RemoveFragment(f.ref(), false));
          }
          List<Long> old = ids(group);
          indexes.rewrite(old);
          step.add(() -> indexes.actions(old, added.stream().map(PendingFragment::ref).toList()));
        }
      }
      skipped = indexes.fragmentsSkipped();
      coverage = indexes.outcomes(ids(view.fragments()), removedAll);
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

    /**
     * The bins: runs of consecutive candidates that the same index segments cover, without the
     * bins that would change nothing (one fragment that is a candidate only with neighbours).
     */
    private List<Bin> bins(TableView view, TableContext ctx, CompactionCoverage indexes) {
      List<Bin> out = new ArrayList<>();
      Bin current = null;
      for (ViewFragment f : view.fragments()) {
        Optional<Candidacy> c = candidacy(f, ctx);
        if (c.isEmpty()) {
          current = close(out, current);
          continue;
        }
        List<java.util.UUID> signature = indexes.signature(f.id());
        if (current != null && !current.signature().equals(signature)) {
          current = close(out, current);
        }
        if (current == null) {
          current = new Bin(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), signature);
        }
        current.fragments().add(f);
        current.candidacy().add(c.get());
        current.live().add(f.liveRows(ctx));
      }
      close(out, current);
      return out;
    }

    private Optional<Candidacy> candidacy(ViewFragment f, TableContext ctx) {
      if (materializeDeletions && f.fragment().deletionFile().isPresent()
          && deletedShare(f, ctx) > threshold) {
        return Optional.of(Candidacy.ITSELF);
      }
      if (f.fragment().physicalRows() < targetRowsPerFragment) {
        return Optional.of(Candidacy.WITH_NEIGHBOURS);
      }
      return Optional.empty();
    }

    private Bin close(List<Bin> out, Bin bin) {
      if (bin != null && (bin.fragments().size() > 1
          || bin.candidacy().get(0) == Candidacy.ITSELF)) {
        out.add(bin);
      }
      return null;
    }

    /**
     * A bin cut into groups, whole fragments each: a group takes fragments until it holds the
     * target's live rows, as long as what is left holds that much too; the last group takes the
     * rest.
     */
    private List<List<ViewFragment>> splitForSize(Bin bin) {
      List<List<ViewFragment>> out = new ArrayList<>();
      int at = 0;
      int n = bin.fragments().size();
      while (at < n) {
        int end = at;
        long rows = 0;
        while (rows < targetRowsPerFragment && end < n) {
          rows += bin.live().get(end++);
        }
        long rest = 0;
        for (int i = end; i < n; i++) {
          rest += bin.live().get(i);
        }
        if (rest < targetRowsPerFragment) {
          end = n;
        }
        out.add(bin.fragments().subList(at, end));
        at = end;
      }
      return out;
    }

    private double deletedShare(ViewFragment f, TableContext ctx) {
      long physical = f.fragment().physicalRows();
      return physical == 0 ? 0 : (double) f.deleted(ctx).cardinality() / physical;
    }
  }
}
