package dev.lancet.table;

import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.expr.BoundValueExpression;
import dev.lancet.table.expr.Predicate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Updates the rows a SQL filter selects, {@code SET column = SQL expression, ...}, with Lance's
 * semantics: the updated rows are deleted from their fragments (deletion vectors merged, a
 * fragment left empty removed) and written, with every column, to new fragments; with stable
 * row ids they keep their row ids and created-at versions and get the new version as last
 * updated. A value of another type than its column is cast to it (failing on a value that does
 * not convert). One Transaction V2 step; nothing is committed when no row matches.
 *
 * <pre>{@code
 * table.newUpdate().where("status = 'new'").set("status", "'seen'").set("hits", "hits + 1").commit();
 * }</pre>
 */
public final class Update extends StatementBuilder<Update> {
  /** The default filter, parsed once for every update (a Predicate is immutable). */
  private static final Predicate EVERY_ROW = Sql.parseFilter("true", "WHERE");

  private Predicate predicate = EVERY_ROW;
  private final Map<String, String> sets = new LinkedHashMap<>();
  private long maxRowsPerFile = CreateOptions.DEFAULT_MAX_ROWS_PER_FILE;

  Update(TableContext ctx, Supplier<Snapshot> latest) {
    super(ctx, latest);
  }

  @Override
  Update self() {
    return this;
  }

  /** The rows to update (default: every row). */
  public Update where(String filter) {
    // Parsed once here (a bad filter fails at the call); each plan only binds it.
    this.predicate = Sql.parseFilter(Objects.requireNonNull(filter, "filter"), "WHERE");
    return this;
  }

  /** {@code SET column = value}: {@code value} is a SQL expression of the row's columns. */
  public Update set(String column, String value) {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(value, "value");
    if (sets.put(column, value) != null) {
      throw new InvalidInputException("column '" + column + "' is SET twice; set it once");
    }
    return this;
  }

  /** The most rows one new fragment holds (default 1,048,576). */
  public Update maxRowsPerFile(long rows) {
    this.maxRowsPerFile = CreateOptions.builder().maxRowsPerFile(rows).build().maxRowsPerFile();
    return this;
  }

  public StatementResult commit() {
    return run(statement());
  }

  UpdateStatement statement() {
    if (sets.isEmpty()) {
      throw new InvalidInputException("an update needs at least one set(column, value)");
    }
    return new UpdateStatement(predicate, sets, batchSize, maxRowsPerFile);
  }

  /** The statement, for transactions. */
  static final class UpdateStatement implements Statement {
    private final Predicate predicate;
    private final Map<String, String> sets;
    private final int batchSize;
    private final long maxRowsPerFile;

    UpdateStatement(Predicate predicate, Map<String, String> sets, int batchSize,
        long maxRowsPerFile) {
      this.predicate = predicate;
      this.sets = Map.copyOf(sets);
      this.batchSize = batchSize;
      this.maxRowsPerFile = maxRowsPerFile;
    }

    @Override
    public String kind() {
      return "update";
    }

    @Override
    public String describe() {
      List<String> s = new ArrayList<>();
      sets.forEach((k, v) -> s.add(k + " = " + v));
      return "update set " + String.join(", ", s) + " where " + predicate.sql();
    }

    @Override
    public Counts plan(TxnPlan plan, TxnPlan.Step step) {
      TableView view = plan.view();
      org.apache.arrow.vector.types.pojo.Schema arrow = view.arrowSchema();
      BoundPredicate filter = Sql.bindFilter(predicate, arrow, "WHERE");
      List<Field> top = view.schema().topLevel();
      Map<Integer, BoundValueExpression> values = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : sets.entrySet()) {
        if (e.getKey().contains(".")
            && top.stream().noneMatch(f -> f.name().equals(e.getKey()))) {
          throw new InvalidInputException("SET " + e.getKey() + ": Lancet updates top-level "
              + "columns; set the whole struct column instead");
        }
        Field f = view.columns(List.of(e.getKey())).get(0);
        int index = top.indexOf(f);
        values.put(index, Sql.value(e.getValue(), arrow, arrow.getFields().get(index).getType(),
            e.getKey()));
      }
      // The fragments the filter hits are read twice (filter columns, then the matched rows).
      view.keepReaders();
      try {
        return planRows(plan, step, view, filter, top, arrow, values);
      } finally {
        view.dropReaders();
      }
    }

    private Counts planRows(TxnPlan plan, TxnPlan.Step step, TableView view,
        BoundPredicate filter, List<Field> top, org.apache.arrow.vector.types.pojo.Schema arrow,
        Map<Integer, BoundValueExpression> values) {
      long updated = 0;
      TableContext ctx = plan.ctx();
      List<ViewFragment> fragments = view.fragments();
      // The filter is evaluated on every fragment in parallel (its columns only).
      List<RoaringBitmap> matched = Parallel.mapReads(ctx, fragments,
          f -> Matches.of(view, f, filter, batchSize));
      List<ViewFragment> hit = new ArrayList<>();
      List<RoaringBitmap> hitRows = new ArrayList<>();
      for (int i = 0; i < fragments.size(); i++) {
        ViewFragment f = fragments.get(i);
        if (matched.get(i).isEmpty()) {
          continue;
        }
        if (view.stableRowIds() && f.pending().isPresent()
            && f.pending().get().rowsWithoutIds() > 0) {
          plan.reserveIds(); // the moved rows keep their ids, so they need them now
        }
        hit.add(f);
        hitRows.add(matched.get(i));
      }
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < hit.size(); i++) {
        order.add(i);
      }
      // The deletion files are written while the new rows are.
      try (Deletions.Started deleting = Deletions.start(plan, hit, hitRows)) {
        try (RowSink sink = new RowSink(plan, step, true, maxRowsPerFile)) {
          // The matched rows are read and changed a few fragments ahead while this thread writes.
          Parallel.pipeline(order, Parallel.WINDOW,
              i -> changed(view, hit.get(i), hitRows.get(i), top, arrow, values, ctx),
              held -> held.batches().forEach(h -> sink.write(h.root(), held.kind, h.rowIds(),
                  h.createdAt(), null)));
          sink.finish();
        }
        for (int i = 0; i < hit.size(); i++) {
          ReadSet.declareRead(plan, step, hit.get(i), hitRows.get(i), top);
          updated += hitRows.get(i).getLongCardinality();
        }
        deleting.add(step);
      }
      return new Counts(0, updated, 0);
    }

    /** The rows {@code rows} of {@code f} with the SET columns changed; how the sink takes them. */
    private ChangedRows changed(TableView view, ViewFragment f, RoaringBitmap rows,
        List<Field> top, org.apache.arrow.vector.types.pojo.Schema arrow,
        Map<Integer, BoundValueExpression> values, TableContext ctx) {
      Optional<RowIdSequence> ids = f.rowIds(ctx);
      Optional<RowVersionSequence> created = f.createdAt(ctx);
      RowSink.Kind kind = f.pending().isPresent() ? RowSink.Kind.MOVED_PENDING
          : created.isPresent() ? RowSink.Kind.MOVED : RowSink.Kind.MOVED_PENDING;
      ChangedRows out = new ChangedRows(ctx.allocator(), kind);
      try (FragmentRead read = view.read(f, top, rows, batchSize)) {
        // The offsets read ascend, as do the rows: one walk of both (a lookup per row read was
        // a quarter of an update's samples).
        IntIterator wanted = rows.getIntIterator();
        long next = wanted.hasNext() ? wanted.next() : Long.MAX_VALUE;
        VectorSchemaRoot batch;
        while ((batch = read.next()) != null) {
          long[] all = read.offsets();
          int[] pick = new int[all.length];
          int n = 0;
          for (int i = 0; i < all.length && next != Long.MAX_VALUE; i++) {
            while (next < all[i]) { // not read: cannot happen, the ranges cover every row
              next = wanted.hasNext() ? wanted.next() : Long.MAX_VALUE;
            }
            if (next == all[i]) {
              pick[n++] = i;
              next = wanted.hasNext() ? wanted.next() : Long.MAX_VALUE;
            }
          }
          long[] rowIds = new long[n];
          long[] createdAt = new long[n];
          for (int i = 0; i < n; i++) {
            long offset = all[pick[i]];
            rowIds[i] = ids.isPresent() ? ids.get().get(offset) : -1;
            createdAt[i] = created.isPresent() ? created.get().versionAt(offset) : -1;
          }
          if (n == all.length) {
            try (Replaced r = replace(batch, arrow, values, ctx)) {
              out.add(r.root, rowIds, createdAt, null);
            }
          } else if (n > 0) {
            try (VectorSchemaRoot picked = Gather.rows(batch.getSchema(), List.of(batch),
                    new int[n], pick, n, ctx.allocator());
                Replaced r = replace(picked, arrow, values, ctx)) {
              out.add(r.root, rowIds, createdAt, null);
            }
          }
        }
        return out;
      } catch (IOException | RuntimeException e) {
        out.close();
        if (e instanceof RuntimeException r) {
          throw r;
        }
        throw new UncheckedIOException("updating rows of fragment " + f.id(), (IOException) e);
      }
    }

    /** Changed rows and the kind of rows they are to the sink. */
    private static final class ChangedRows extends HeldBatches {
      final RowSink.Kind kind;

      ChangedRows(org.apache.arrow.memory.BufferAllocator allocator, RowSink.Kind kind) {
        super(allocator);
        this.kind = kind;
      }
    }

    /** {@code batch} with the SET columns replaced by their new values. */
    private static Replaced replace(VectorSchemaRoot batch,
        org.apache.arrow.vector.types.pojo.Schema arrow, Map<Integer, BoundValueExpression> values,
        TableContext ctx) {
      List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors());
      List<FieldVector> owned = new ArrayList<>();
      try {
        for (Map.Entry<Integer, BoundValueExpression> e : values.entrySet()) {
          org.apache.arrow.vector.types.pojo.Field field = arrow.getFields().get(e.getKey());
          try (FieldVector v = e.getValue().evaluate(batch, null, ctx.allocator(), field.getName())) {
            FieldVector typed = field.createVector(ctx.allocator());
            owned.add(typed);
            v.makeTransferPair(typed).transfer();
            typed.setValueCount(batch.getRowCount());
            vectors.set(e.getKey(), typed);
          }
        }
      } catch (RuntimeException e) {
        owned.forEach(FieldVector::close);
        throw e;
      }
      List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
      vectors.forEach(v -> fields.add(v.getField()));
      return new Replaced(new VectorSchemaRoot(fields, vectors, batch.getRowCount()), owned);
    }

    /** A batch with replaced columns; closing it frees only the new columns. */
    private record Replaced(VectorSchemaRoot root, List<FieldVector> owned)
        implements AutoCloseable {
      @Override
      public void close() {
        owned.forEach(FieldVector::close);
      }
    }
  }
}
