package dev.lancet.table;

import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.Ref;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.keys.KeyFilterBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.roaringbitmap.RoaringBitmap;

/**
 * Merges the rows of a source into the table by key columns, as lance-core's merge insert does:
 *
 * <ul>
 *   <li>when matched (a target row with the key of a source row): keep it (default), or update
 *       it with the source row ({@link #whenMatchedUpdateAll}), optionally only where a condition
 *       over {@code source.col} and {@code target.col} holds;</li>
 *   <li>when not matched (a source row with a key the table does not have): insert it (default)
 *       or skip it;</li>
 *   <li>when not matched by source (a target row whose key the source does not have): keep it
 *       (default) or delete it, optionally only where a filter over the target's columns
 *       holds.</li>
 * </ul>
 *
 * One Transaction V2 step: deletions of the updated and deleted target rows, new fragments with
 * the updated rows (keeping their stable row ids) and the inserted ones, and an AssertUniqueKeys
 * over the key columns with the keys of every row written (an exact set up to 10,000 keys, else
 * a Bloom filter): a concurrent commit that put one of those keys into the table conflicts, and
 * the statement is planned again against the new version (within {@link #maxReplans}), so two
 * concurrent merge inserts never create a duplicate key. A source key that appears twice is an
 * error; a row with a null key never matches. The source is held in memory (it is the join's
 * build side); the table is read key columns first, the matched rows only as needed.
 *
 * <pre>{@code
 * StatementResult r = table.mergeInsert("id").whenMatchedUpdateAll().from(reader).commit();
 * r.rowsInserted(); r.rowsUpdated(); r.plans();
 * }</pre>
 */
public final class MergeInsert extends StatementBuilder<MergeInsert> {
  /** What happens to a target row whose key a source row has. */
  public enum WhenMatched { KEEP, UPDATE_ALL }

  /** What happens to a source row whose key the table does not have. */
  public enum WhenNotMatched { INSERT_ALL, SKIP }

  /** What happens to a target row whose key no source row has. */
  public enum WhenNotMatchedBySource { KEEP, DELETE }

  private final List<String> keys;
  private WhenMatched whenMatched = WhenMatched.KEEP;
  private Optional<String> matchedCondition = Optional.empty();
  private WhenNotMatched whenNotMatched = WhenNotMatched.INSERT_ALL;
  private WhenNotMatchedBySource bySource = WhenNotMatchedBySource.KEEP;
  private Optional<String> bySourceFilter = Optional.empty();
  private Optional<ArrowReader> source = Optional.empty();
  private boolean ownsSource;
  private long maxRowsPerFile = CreateOptions.DEFAULT_MAX_ROWS_PER_FILE;
  private int exactKeyThreshold = KeyFilterBuilder.DEFAULT_EXACT_THRESHOLD;

  MergeInsert(TableContext ctx, Supplier<Snapshot> latest, List<String> keys) {
    super(ctx, latest);
    if (keys.isEmpty()) {
      throw new InvalidInputException("a merge insert needs at least one key column");
    }
    if (new LinkedHashSet<>(keys).size() != keys.size()) {
      throw new InvalidInputException("key columns " + keys + " name a column twice");
    }
    this.keys = List.copyOf(keys);
  }

  @Override
  MergeInsert self() {
    return this;
  }

  /**
   * The source rows; read once, when the statement first plans. The caller closes the reader.
   * The source has the table's columns, or some of them with every key (a partial merge
   * insert, as lance-core's): a matched row takes the source's columns and keeps its others,
   * an inserted row gets null in the others (each must then be nullable).
   */
  public MergeInsert from(ArrowReader reader) {
    this.source = Optional.of(Objects.requireNonNull(reader, "reader"));
    this.ownsSource = false;
    return this;
  }

  /**
   * The source rows from in-memory batches, all of one schema (not copied until the statement
   * plans; the caller keeps and closes its roots).
   */
  public MergeInsert from(Iterable<? extends VectorSchemaRoot> batches) {
    this.source = Optional.of(RootsReader.of(batches));
    this.ownsSource = true;
    return this;
  }

  /** The source rows from one in-memory batch. */
  public MergeInsert from(VectorSchemaRoot batch) {
    return from(List.of(Objects.requireNonNull(batch, "batch")));
  }

  /** Matched target rows take the source row's values. */
  public MergeInsert whenMatchedUpdateAll() {
    this.whenMatched = WhenMatched.UPDATE_ALL;
    this.matchedCondition = Optional.empty();
    return this;
  }

  /** Matched target rows take the source row's values where {@code condition} holds. */
  public MergeInsert whenMatchedUpdateAll(String condition) {
    Sql.parseFilter(condition, "WHEN MATCHED AND");
    this.whenMatched = WhenMatched.UPDATE_ALL;
    this.matchedCondition = Optional.of(condition);
    return this;
  }

  /** Matched target rows stay as they are (the default). */
  public MergeInsert whenMatchedKeep() {
    this.whenMatched = WhenMatched.KEEP;
    this.matchedCondition = Optional.empty();
    return this;
  }

  /** Source rows with a new key are inserted (the default). */
  public MergeInsert whenNotMatchedInsertAll() {
    this.whenNotMatched = WhenNotMatched.INSERT_ALL;
    return this;
  }

  /** Source rows with a new key are left out. */
  public MergeInsert whenNotMatchedSkip() {
    this.whenNotMatched = WhenNotMatched.SKIP;
    return this;
  }

  /** Target rows whose key the source lacks stay (the default). */
  public MergeInsert whenNotMatchedBySourceKeep() {
    this.bySource = WhenNotMatchedBySource.KEEP;
    this.bySourceFilter = Optional.empty();
    return this;
  }

  /** Target rows whose key the source lacks are deleted. */
  public MergeInsert whenNotMatchedBySourceDelete() {
    this.bySource = WhenNotMatchedBySource.DELETE;
    this.bySourceFilter = Optional.empty();
    return this;
  }

  /** Target rows whose key the source lacks are deleted where {@code filter} holds. */
  public MergeInsert whenNotMatchedBySourceDelete(String filter) {
    Sql.parseFilter(filter, "WHEN NOT MATCHED BY SOURCE AND");
    this.bySource = WhenNotMatchedBySource.DELETE;
    this.bySourceFilter = Optional.of(filter);
    return this;
  }

  public MergeInsert whenMatched(WhenMatched w) {
    this.whenMatched = Objects.requireNonNull(w, "w");
    this.matchedCondition = Optional.empty();
    return this;
  }

  public MergeInsert whenNotMatched(WhenNotMatched w) {
    this.whenNotMatched = Objects.requireNonNull(w, "w");
    return this;
  }

  public MergeInsert whenNotMatchedBySource(WhenNotMatchedBySource w) {
    this.bySource = Objects.requireNonNull(w, "w");
    this.bySourceFilter = Optional.empty();
    return this;
  }

  /** The most rows one new fragment holds (default 1,048,576). */
  public MergeInsert maxRowsPerFile(long rows) {
    this.maxRowsPerFile = CreateOptions.builder().maxRowsPerFile(rows).build().maxRowsPerFile();
    return this;
  }

  /**
   * Up to this many distinct written keys the AssertUniqueKeys carries them exactly (a conflict
   * only on a real shared key), above it as a Bloom filter (default 10,000).
   */
  public MergeInsert exactKeyThreshold(int keysExactly) {
    if (keysExactly < 0) {
      throw new InvalidInputException("the exact key threshold must not be negative");
    }
    this.exactKeyThreshold = keysExactly;
    return this;
  }

  public StatementResult commit() {
    MergeStatement s = statement();
    try {
      return run(s);
    } finally {
      s.close();
    }
  }

  MergeStatement statement() {
    ArrowReader reader = source.orElseThrow(() ->
        new InvalidInputException("a merge insert needs source rows: call from(reader)"));
    return new MergeStatement(this, reader, ownsSource);
  }

  /** The statement, for transactions. Holds the source rows until closed. */
  static final class MergeStatement implements Statement, AutoCloseable {
    private final MergeInsert spec;
    private final ArrowReader reader;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private org.apache.arrow.vector.types.pojo.Schema sourceSchema;
    /** The table's top-level columns the source has, in table order. */
    private List<String> sourceColumns = List.of();
    private boolean loaded;
    /**
     * What the last plan found in each committed fragment, by fragment id. A re-plan after a
     * conflict reuses the finding for a fragment the winner left as it was (the same fragment
     * entry and the same live rows), so it reads only the fragments the winner wrote or changed.
     */
    private java.util.Map<Long, Remembered> remembered = new java.util.HashMap<>();

    private final boolean ownsReader;

    MergeStatement(MergeInsert spec, ArrowReader reader, boolean ownsReader) {
      this.spec = spec;
      this.reader = reader;
      this.ownsReader = ownsReader;
    }

    @Override
    public String kind() {
      return "merge insert";
    }

    @Override
    public String describe() {
      return "merge insert on " + String.join(", ", spec.keys) + " (when matched "
          + spec.whenMatched.name().toLowerCase(java.util.Locale.ROOT)
          + spec.matchedCondition.map(c -> " if " + c).orElse("") + ", when not matched "
          + spec.whenNotMatched.name().toLowerCase(java.util.Locale.ROOT)
          + ", when not matched by source "
          + spec.bySource.name().toLowerCase(java.util.Locale.ROOT)
          + spec.bySourceFilter.map(c -> " if " + c).orElse("") + ")";
    }

    /**
     * Reads the source once, into memory, conformed to the table's columns it has: all of them,
     * or some (a partial merge insert: matched rows keep their other columns, inserted rows get
     * null in them).
     */
    private void load(TableView view, BufferAllocator allocator) {
      if (loaded) {
        return;
      }
      loaded = true;
      try {
        sourceColumns = columnsOf(reader.getVectorSchemaRoot().getSchema(), view);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the schema of the merge insert's source", e);
      }
      BatchConformance conformance = new BatchConformance(sourceLance(view), Optional.of(reader));
      try {
        while (reader.loadNextBatch()) {
          VectorSchemaRoot in = reader.getVectorSchemaRoot();
          if (in.getRowCount() == 0) {
            continue;
          }
          VectorSchemaRoot conformed = conformance.conform(in);
          if (sourceSchema == null) {
            sourceSchema = sourceArrow(view);
          }
          // Kept in the source's own allocator: Arrow moves buffers only within one root.
          VectorSchemaRoot kept = VectorSchemaRoot.create(sourceSchema,
              conformed.getFieldVectors().get(0).getAllocator());
          try (ArrowRecordBatch rb = new VectorUnloader(conformed).getRecordBatch()) {
            new VectorLoader(kept).load(rb);
          }
          batches.add(kept);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading the merge insert's source rows", e);
      }
      if (sourceSchema == null) {
        sourceSchema = sourceArrow(view);
      }
    }

    /**
     * The table's top-level columns the source has, in table order; a source column the table
     * does not have, and a key the source lacks, are errors.
     */
    private List<String> columnsOf(org.apache.arrow.vector.types.pojo.Schema source,
        TableView view) {
      Set<String> given = new LinkedHashSet<>();
      source.getFields().forEach(f -> given.add(f.getName()));
      List<String> out = new ArrayList<>();
      for (Field f : view.schema().topLevel()) {
        if (given.remove(f.name())) {
          out.add(f.name());
        }
      }
      if (!given.isEmpty()) {
        throw new InvalidInputException("the merge insert's source has columns the table does "
            + "not: " + String.join(", ", given) + "; the table has " + view.schema().topLevel()
            .stream().map(Field::name).toList() + " (add a column first with addColumns)");
      }
      for (String k : spec.keys) {
        if (!out.contains(k)) {
          throw new InvalidInputException("the merge insert's source has no key column '" + k
              + "'; the source must have every key column");
        }
      }
      return List.copyOf(out);
    }

    /** Whether the source has only some of the table's columns. */
    private boolean partial(TableView view) {
      return sourceColumns.size() < view.schema().topLevel().size();
    }

    /** The table's Lance schema cut to the source's columns (with their children). */
    private dev.lancet.format.model.Schema sourceLance(TableView view) {
      return Columns.restrict(view.schema(), sourceColumns);
    }

    private org.apache.arrow.vector.types.pojo.Schema sourceArrow(TableView view) {
      org.apache.arrow.vector.types.pojo.Schema full = view.arrowSchema();
      List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
      for (org.apache.arrow.vector.types.pojo.Field f : full.getFields()) {
        if (sourceColumns.contains(f.getName())) {
          out.add(f);
        }
      }
      return new org.apache.arrow.vector.types.pojo.Schema(out, full.getCustomMetadata());
    }

    @Override
    public Counts plan(TxnPlan plan, TxnPlan.Step step) {
      TableView view = plan.view();
      TableContext ctx = plan.ctx();
      load(view, ctx.allocator());
      if (!sourceSchema.equals(sourceArrow(view))) {
        throw new InvalidInputException("the table's columns changed since the merge insert's "
            + "source was read (now " + view.arrowSchema() + "); run it again");
      }
      List<Field> keyFields = view.columns(spec.keys);
      int[] keyIndex = spec.keys.stream().mapToInt(sourceColumns::indexOf).toArray();
      List<Field> missing = new ArrayList<>();
      for (Field f : view.schema().topLevel()) {
        if (!sourceColumns.contains(f.name())) {
          missing.add(f);
        }
      }
      if (spec.whenNotMatched == WhenNotMatched.INSERT_ALL) {
        for (Field f : missing) {
          if (!f.nullable()) {
            throw new InvalidInputException("column '" + f.name() + "' is not in the merge "
                + "insert's source and is not nullable, so an inserted row would have no value "
                + "for it: give it in the source, or skip inserts (whenNotMatchedSkip)");
          }
        }
      }
      // The source's keys.
      int total = 0;
      for (VectorSchemaRoot b : batches) {
        total += b.getRowCount();
      }
      int[] batchOf = new int[total];
      int[] rowOf = new int[total];
      boolean integerKey = !batches.isEmpty() && KeyIndex.integer(columns(batches.get(0), keyIndex));
      long[] ints = integerKey ? new long[total] : null;
      boolean[] nulls = integerKey ? new boolean[total] : null;
      byte[][] bytes = integerKey ? null : new byte[total][];
      int g = 0;
      for (int bi = 0; bi < batches.size(); bi++) {
        VectorSchemaRoot b = batches.get(bi);
        List<FieldVector> kc = columns(b, keyIndex);
        for (FieldVector v : kc) {
          if (!KeyFilterBuilder.supports(v)) {
            throw new InvalidInputException("key column '" + v.getName() + "' is "
                + v.getField().getType() + "; a merge insert key is a string, integer or binary "
                + "column");
          }
        }
        for (int r = 0; r < b.getRowCount(); r++, g++) {
          batchOf[g] = bi;
          rowOf[g] = r;
          if (integerKey) {
            nulls[g] = kc.get(0).isNull(r);
            ints[g] = nulls[g] ? 0 : KeyIndex.value(kc.get(0), r);
          } else {
            bytes[g] = KeyFilterBuilder.keyBytes(kc, r);
          }
        }
      }
      KeyIndex bySourceKey = KeyIndex.of(integerKey, ints, nulls, bytes, total);
      if (bySourceKey.duplicate() >= 0) {
        int d = bySourceKey.duplicate();
        throw new InvalidInputException("the source has the key "
            + describeKey(columns(batches.get(batchOf[d]), keyIndex), rowOf[d]) + " ("
            + String.join(", ", spec.keys) + ") more than once; a merge insert needs unique "
            + "source keys (lance-core: an ambiguous merge insert)");
      }
      boolean[] matchedSource = new boolean[total];
      org.apache.arrow.vector.types.pojo.Schema arrow = view.arrowSchema();

      // Which target columns the scan reads: keys, the condition's target columns, the filter's.
      Set<String> read = new LinkedHashSet<>(spec.keys);
      Optional<BoundPredicate> condition = Optional.empty();
      List<Field> conditionTarget = List.of();
      if (spec.whenMatched == WhenMatched.UPDATE_ALL && spec.matchedCondition.isPresent()) {
        BoundPredicate full = Sql.filter(spec.matchedCondition.get(),
            conditionSchema(sourceSchema, arrow), "WHEN MATCHED AND");
        Set<String> targetCols = new LinkedHashSet<>();
        for (List<String> p : full.columnPaths()) {
          if (p.get(0).equals("target") && p.size() > 1) {
            targetCols.add(p.get(1));
          }
        }
        conditionTarget = view.columns(targetCols);
        read.addAll(targetCols);
        condition = Optional.of(Sql.filter(spec.matchedCondition.get(),
            conditionSchema(sourceSchema, view.arrowOf(conditionTarget)), "WHEN MATCHED AND"));
      }
      Optional<BoundPredicate> deleteFilter = Optional.empty();
      if (spec.bySource == WhenNotMatchedBySource.DELETE && spec.bySourceFilter.isPresent()) {
        BoundPredicate f = Sql.filter(spec.bySourceFilter.get(), arrow,
            "WHEN NOT MATCHED BY SOURCE AND");
        read.addAll(f.columns());
        deleteFilter = Optional.of(f);
      }
      List<Field> scanColumns = view.columns(read);
      int[] scanKeyIndex = keyFields.stream().mapToInt(scanColumns::indexOf).toArray();

      KeyFilterBuilder writtenKeys = new KeyFilterBuilder(spec.exactKeyThreshold);
      long updated = 0;
      long deleted = 0;
      long inserted = 0;
      try (RowSink sink = new RowSink(plan, step, true, spec.maxRowsPerFile)) {
        List<ViewFragment> fragments = view.fragments();
        Optional<BoundPredicate> cond = condition;
        List<Field> condTarget = conditionTarget;
        Optional<BoundPredicate> delFilter = deleteFilter;
        // Fragments are matched in parallel (each marks the source rows it matched); the
        // updated rows are then written in fragment order.
        List<FragmentMatch> found = Parallel.mapReads(ctx, fragments, f -> {
          Optional<FragmentMatch> again = recall(f, ctx, matchedSource);
          return again.isPresent() ? again.get() : match(view, f, scanColumns, scanKeyIndex,
              bySourceKey, matchedSource, cond, condTarget, delFilter, batchOf, rowOf, ctx);
        });
        remember(found, ctx);
        List<RoaringBitmap> leaving = new ArrayList<>();
        for (FragmentMatch m : found) {
          leaving.add(RoaringBitmap.or(m.update(), m.remove()));
        }
        // The deletion files are written while the updated rows are.
        try (Deletions.Started deleting = Deletions.start(plan, fragments, leaving)) {
          for (FragmentMatch m : found) {
            ViewFragment f = m.fragment();
            if (!m.updateRows().isEmpty()) {
              if (view.stableRowIds() && f.pending().isPresent()
                  && f.pending().get().rowsWithoutIds() > 0) {
                plan.reserveIds();
              }
              writeUpdated(sink, view, f, m.updateRows(), batchOf, rowOf, writtenKeys, keyIndex,
                  missing, ctx);
              ReadSet.declareRead(plan, step, f, m.update(), keyFields);
            }
            updated += m.update().getLongCardinality();
            deleted += m.remove().getLongCardinality();
          }
          deleting.add(step);
        }
        if (spec.whenNotMatched == WhenNotMatched.INSERT_ALL) {
          int[] pickBatch = new int[spec.batchSize];
          int[] pickRow = new int[spec.batchSize];
          int k = 0;
          for (int s = 0; s < total; s++) {
            if (matchedSource[s]) {
              continue;
            }
            pickBatch[k] = batchOf[s];
            pickRow[k] = rowOf[s];
            k++;
            if (k == spec.batchSize) {
              inserted += writeRows(sink, view, pickBatch, pickRow, k, writtenKeys, keyIndex, ctx);
              k = 0;
            }
          }
          inserted += writeRows(sink, view, pickBatch, pickRow, k, writtenKeys, keyIndex, ctx);
        }
        sink.finish();
      }
      if (updated + inserted > 0) {
        List<Ref> refs = new ArrayList<>();
        keyFields.forEach(kf -> refs.add(view.fieldRef(kf.id())));
        step.add(new AssertUniqueKeys(refs, writtenKeys.build()));
      }
      return new Counts(deleted, updated, inserted);
    }

    /**
     * What one fragment's scan found: rows to update (offset, source row) and to delete, and
     * every source row whose key it holds (whether or not the condition let it update).
     */
    private record FragmentMatch(ViewFragment fragment, List<long[]> updateRows,
        RoaringBitmap update, RoaringBitmap remove, int[] matchedSources) {}

    /** A committed fragment's finding, valid while its entry and live rows stay the same. */
    private record Remembered(dev.lancet.format.model.Fragment fragment,
        dev.lancet.format.deletion.DeletionVector deleted, FragmentMatch match) {}

    /** An earlier plan's finding for {@code f}, its source rows marked matched; or empty. */
    private Optional<FragmentMatch> recall(ViewFragment f, TableContext ctx,
        boolean[] matchedSource) {
      Remembered r = f.pending().isPresent() ? null : remembered.get(f.id());
      if (r == null || !r.fragment().equals(f.fragment()) || !r.deleted().equals(f.deleted(ctx))) {
        return Optional.empty();
      }
      for (int s : r.match().matchedSources()) {
        matchedSource[s] = true;
      }
      FragmentMatch m = r.match();
      return Optional.of(new FragmentMatch(f, m.updateRows(), m.update().clone(),
          m.remove().clone(), m.matchedSources()));
    }

    /** Keeps this plan's findings for the committed fragments (the bitmaps are not changed). */
    private void remember(List<FragmentMatch> found, TableContext ctx) {
      java.util.Map<Long, Remembered> now = new java.util.HashMap<>();
      for (FragmentMatch m : found) {
        ViewFragment f = m.fragment();
        if (f.pending().isEmpty()) {
          now.put(f.id(), new Remembered(f.fragment(), f.deleted(ctx), m));
        }
      }
      remembered = now;
    }

    private FragmentMatch match(TableView view, ViewFragment f, List<Field> scanColumns,
        int[] scanKeyIndex, KeyIndex bySourceKey, boolean[] matchedSource,
        Optional<BoundPredicate> condition, List<Field> conditionTarget,
        Optional<BoundPredicate> deleteFilter, int[] batchOf, int[] rowOf, TableContext ctx) {
      RoaringBitmap update = new RoaringBitmap();
      RoaringBitmap remove = new RoaringBitmap();
      List<long[]> updateRows = new ArrayList<>();
      List<dev.lancet.file.RowRange> live = f.liveRanges(ctx);
      if (live.isEmpty()) {
        return new FragmentMatch(f, updateRows, update, remove, new int[0]);
      }
      int[] sources = new int[16];
      int matched = 0;
      KeyIndex.Cursor keys = bySourceKey.cursor();
      boolean bySourceDelete = spec.bySource == WhenNotMatchedBySource.DELETE;
      try (FragmentRead in = view.read(f, scanColumns, live, spec.batchSize)) {
        VectorSchemaRoot batch;
        while ((batch = in.next()) != null) {
          long[] offsets = in.offsets();
          view.advance(offsets.length);
          List<FieldVector> kc = columns(batch, scanKeyIndex);
          int n = batch.getRowCount();
          int[] hitRow = new int[n];
          int[] hitSource = new int[n];
          int hits = 0;
          RoaringBitmap unmatched = new RoaringBitmap(); // only read for a by-source delete
          int[] found = new int[n];
          keys.lookupAll(kc, n, found);
          for (int r = 0; r < n; r++) {
            int s = found[r];
            if (s < 0) {
              if (bySourceDelete) {
                unmatched.add(r);
              }
            } else {
              matchedSource[s] = true;
              if (matched == sources.length) {
                sources = Arrays.copyOf(sources, matched * 2);
              }
              sources[matched++] = s;
              hitRow[hits] = r;
              hitSource[hits] = s;
              hits++;
            }
          }
          if (spec.whenMatched == WhenMatched.UPDATE_ALL && hits > 0) {
            boolean[] take = conditionHolds(condition, batch, conditionTarget, scanColumns,
                hitRow, hitSource, batchOf, rowOf, hits, ctx.allocator());
            for (int i = 0; i < hits; i++) {
              if (take[i]) {
                update.add((int) offsets[hitRow[i]]);
                updateRows.add(new long[] {offsets[hitRow[i]], hitSource[i]});
              }
            }
          }
          if (bySourceDelete && !unmatched.isEmpty()) {
            RoaringBitmap doomed = deleteFilter.isPresent()
                ? RoaringBitmap.and(unmatched, deleteFilter.get().selection(batch))
                : unmatched;
            doomed.forEach((int r) -> remove.add((int) offsets[r]));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("matching keys in fragment " + f.id(), e);
      }
      return new FragmentMatch(f, updateRows, update, remove, Arrays.copyOf(sources, matched));
    }

    private void writeUpdated(RowSink sink, TableView view, ViewFragment f,
        List<long[]> updateRows, int[] batchOf, int[] rowOf, KeyFilterBuilder keysOut,
        int[] keyIndex, List<Field> missing, TableContext ctx) {
      if (!missing.isEmpty()) {
        writePartlyUpdated(sink, view, f, updateRows, batchOf, rowOf, keysOut, keyIndex, missing,
            ctx);
        return;
      }
      Optional<RowIdSequence> ids = f.rowIds(ctx);
      Optional<RowVersionSequence> created = f.createdAt(ctx);
      RowSink.Kind kind = f.pending().isPresent() || created.isEmpty()
          ? RowSink.Kind.MOVED_PENDING : RowSink.Kind.MOVED;
      int chunk = spec.batchSize;
      for (int start = 0; start < updateRows.size(); start += chunk) {
        int n = Math.min(chunk, updateRows.size() - start);
        int[] pb = new int[n];
        int[] pr = new int[n];
        long[] rowIds = new long[n];
        long[] createdAt = new long[n];
        for (int i = 0; i < n; i++) {
          long[] u = updateRows.get(start + i);
          int s = (int) u[1];
          pb[i] = batchOf[s];
          pr[i] = rowOf[s];
          rowIds[i] = ids.isPresent() ? ids.get().get(u[0]) : -1;
          createdAt[i] = created.isPresent() ? created.get().versionAt(u[0]) : -1;
        }
        try (VectorSchemaRoot rows = Gather.rows(sourceSchema, batches, pb, pr, n,
            ctx.allocator())) {
          keysOut.add(columns(rows, keyIndex));
          sink.write(rows, kind, rowIds, createdAt, null);
        }
      }
    }

    /**
     * The matched rows of a partial source: the source's columns from the source, the others
     * read from the target rows (in offset order, as {@code view.read} gives them).
     */
    private void writePartlyUpdated(RowSink sink, TableView view, ViewFragment f,
        List<long[]> updateRows, int[] batchOf, int[] rowOf, KeyFilterBuilder keysOut,
        int[] keyIndex, List<Field> missing, TableContext ctx) {
      Optional<RowIdSequence> ids = f.rowIds(ctx);
      Optional<RowVersionSequence> created = f.createdAt(ctx);
      RowSink.Kind kind = f.pending().isPresent() || created.isEmpty()
          ? RowSink.Kind.MOVED_PENDING : RowSink.Kind.MOVED;
      List<long[]> byOffset = new ArrayList<>(updateRows);
      byOffset.sort(java.util.Comparator.comparingLong(u -> u[0]));
      RoaringBitmap wanted = new RoaringBitmap();
      byOffset.forEach(u -> wanted.add((int) u[0]));
      int next = 0; // the next of byOffset to meet in the read
      try (FragmentRead read = view.read(f, missing, wanted, spec.batchSize)) {
        VectorSchemaRoot batch;
        while ((batch = read.next()) != null) {
          long[] offsets = read.offsets();
          int[] pick = new int[offsets.length];
          int[] pb = new int[offsets.length];
          int[] pr = new int[offsets.length];
          long[] rowIds = new long[offsets.length];
          long[] createdAt = new long[offsets.length];
          int n = 0;
          for (int i = 0; i < offsets.length && next < byOffset.size(); i++) {
            if (byOffset.get(next)[0] != offsets[i]) {
              continue; // a row read along between two wanted ones
            }
            long[] u = byOffset.get(next++);
            int s = (int) u[1];
            pick[n] = i;
            pb[n] = batchOf[s];
            pr[n] = rowOf[s];
            rowIds[n] = ids.isPresent() ? ids.get().get(u[0]) : -1;
            createdAt[n] = created.isPresent() ? created.get().versionAt(u[0]) : -1;
            n++;
          }
          if (n == 0) {
            continue;
          }
          try (VectorSchemaRoot source = Gather.rows(sourceSchema, batches, pb, pr, n,
                  ctx.allocator());
              VectorSchemaRoot target = Gather.rows(batch.getSchema(), List.of(batch),
                  new int[n], pick, n, ctx.allocator());
              VectorSchemaRoot whole = widen(view, source, target, n, ctx.allocator())) {
            keysOut.add(columns(source, keyIndex));
            sink.write(whole, kind, Arrays.copyOf(rowIds, n), Arrays.copyOf(createdAt, n), null);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading the other columns of matched rows of fragment "
            + f.id(), e);
      }
      if (next != byOffset.size()) {
        throw new IllegalStateException("fragment " + f.id() + ": " + (byOffset.size() - next)
            + " matched rows were not read back for their other columns");
      }
    }

    private long writeRows(RowSink sink, TableView view, int[] pb, int[] pr, int n,
        KeyFilterBuilder keysOut, int[] keyIndex, TableContext ctx) {
      if (n == 0) {
        return 0;
      }
      try (VectorSchemaRoot rows = Gather.rows(sourceSchema, batches, pb, pr, n,
          ctx.allocator());
          VectorSchemaRoot whole = partial(view)
              ? widen(view, rows, null, n, ctx.allocator()) : null) {
        keysOut.add(columns(rows, keyIndex));
        sink.write(whole != null ? whole : rows, RowSink.Kind.FRESH, null, null, null);
      }
      return n;
    }

    /**
     * A batch of every table column for {@code n} rows: the source's columns moved from
     * {@code source}, the others moved from {@code target} (when given) or all null.
     */
    private VectorSchemaRoot widen(TableView view, VectorSchemaRoot source,
        VectorSchemaRoot target, int n, BufferAllocator allocator) {
      VectorSchemaRoot out = VectorSchemaRoot.create(view.arrowSchema(), allocator);
      try {
        for (FieldVector v : out.getFieldVectors()) {
          FieldVector from = source.getVector(v.getName());
          if (from == null && target != null) {
            from = target.getVector(v.getName());
          }
          if (from != null) {
            from.makeTransferPair(v).transfer();
          } else {
            v.setInitialCapacity(n);
            v.allocateNew();
            v.setValueCount(n); // validity zeroed: every row null
          }
        }
        out.setRowCount(n);
        return out;
      } catch (RuntimeException e) {
        out.close();
        throw e;
      }
    }

    /** Whether the update condition holds for each matched pair (all true without one). */
    private boolean[] conditionHolds(Optional<BoundPredicate> condition, VectorSchemaRoot batch,
        List<Field> conditionTarget, List<Field> scanColumns, int[] hitRow, int[] hitSource,
        int[] batchOf, int[] rowOf, int hits, BufferAllocator allocator) {
      boolean[] out = new boolean[hits];
      if (condition.isEmpty()) {
        Arrays.fill(out, true);
        return out;
      }
      int[] pb = new int[hits];
      int[] pr = new int[hits];
      for (int i = 0; i < hits; i++) {
        pb[i] = batchOf[hitSource[i]];
        pr[i] = rowOf[hitSource[i]];
      }
      int[] identity = new int[hits];
      for (int i = 0; i < hits; i++) {
        identity[i] = i;
      }
      List<FieldVector> targetCols = new ArrayList<>();
      for (Field c : conditionTarget) {
        targetCols.add(batch.getVector(scanColumns.indexOf(c)));
      }
      try (VectorSchemaRoot src = Gather.rows(sourceSchema, batches, pb, pr, hits, allocator);
          StructVector s = Gather.struct("source", src.getFieldVectors(), identity, hits,
              allocator);
          StructVector t = Gather.struct("target", targetCols, hitRow, hits, allocator)) {
        VectorSchemaRoot both = new VectorSchemaRoot(List.of(s.getField(), t.getField()),
            List.of(s, t), hits);
        condition.get().selection(both).forEach((int i) -> out[i] = true);
      }
      return out;
    }

    private static org.apache.arrow.vector.types.pojo.Schema conditionSchema(
        org.apache.arrow.vector.types.pojo.Schema source,
        org.apache.arrow.vector.types.pojo.Schema target) {
      return new org.apache.arrow.vector.types.pojo.Schema(List.of(
          new org.apache.arrow.vector.types.pojo.Field("source",
              org.apache.arrow.vector.types.pojo.FieldType.nullable(
                  org.apache.arrow.vector.types.pojo.ArrowType.Struct.INSTANCE),
              source.getFields()),
          new org.apache.arrow.vector.types.pojo.Field("target",
              org.apache.arrow.vector.types.pojo.FieldType.nullable(
                  org.apache.arrow.vector.types.pojo.ArrowType.Struct.INSTANCE),
              target.getFields())));
    }

    private static List<FieldVector> columns(VectorSchemaRoot b, int[] index) {
      List<FieldVector> out = new ArrayList<>(index.length);
      for (int i : index) {
        out.add(b.getVector(i));
      }
      return out;
    }

    /** The source keys whose hashes are {@code keyHashes} (as the AssertUniqueKeys hashed them). */
    @Override
    public List<String> keysWithHashes(java.util.Set<Long> keyHashes) {
      List<String> out = new ArrayList<>();
      if (keyHashes.isEmpty() || batches.isEmpty()) {
        return out;
      }
      List<String> names = batches.get(0).getSchema().getFields().stream()
          .map(org.apache.arrow.vector.types.pojo.Field::getName).toList();
      int[] keyIndex = spec.keys.stream().mapToInt(names::indexOf).toArray();
      for (VectorSchemaRoot b : batches) {
        List<FieldVector> kc = columns(b, keyIndex);
        KeyFilterBuilder.forEachKeyHash(kc, (row, hash) -> {
          if (keyHashes.contains(hash)) {
            out.add(describeKey(kc, row));
          }
        });
      }
      return out;
    }

    private static String describeKey(List<FieldVector> kc, int row) {
      List<String> parts = new ArrayList<>();
      for (FieldVector v : kc) {
        parts.add(String.valueOf(v.getObject(row)));
      }
      return "(" + String.join(", ", parts) + ")";
    }

    @Override
    public void close() {
      remembered = new java.util.HashMap<>();
      batches.forEach(VectorSchemaRoot::close);
      batches.clear();
      if (ownsReader) {
        try {
          reader.close();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    }
  }
}
