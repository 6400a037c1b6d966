package dev.lancet.table;

import dev.lancet.core.action.AddField;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.ReserveRowIds;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Several statements committed as one version, atomically: each statement is one user step of a
 * single Transaction V2 composite operation, planned in order against the table as the
 * statements before it left it (a delete after an append deletes the matching appended rows; an
 * update sees the columns an addColumns before it added).
 *
 * <pre>{@code
 * TransactionResult r = table.newTransaction()
 *     .append(newRows)
 *     .delete("expired = true")
 *     .setConfig("etl.last_load", "2026-12-01")
 *     .commit();
 * }</pre>
 *
 * <p>The statements run when {@link #commit()} is called. A concurrent commit that does not
 * collide is rebased over; one that collides fails the transaction with a
 * {@link RetryableConflictException} and nothing of it is committed (its files are deleted): run
 * it again. A statement that deletes or moves rows an earlier statement wrote needs those
 * fragments' ids (a deletion file is named by its fragment's id) and, with stable row ids, their
 * row ids: they are reserved first with ReserveFragmentIds / ReserveRowIds, committed as a
 * metadata-only version of their own (reported in {@link TransactionResult#reservationVersions()}).
 */
public final class TableTransaction {
  private final TableContext ctx;
  private final Supplier<Snapshot> latest;
  private final List<Statement> statements = new ArrayList<>();
  private final List<AutoCloseable> owned = new ArrayList<>();
  private int maxRetries = 20;
  private Consumer<Attempt> onAttempt = a -> { };
  private java.util.function.LongConsumer onProgress = rows -> { };

  TableTransaction(TableContext ctx, Supplier<Snapshot> latest) {
    this.ctx = ctx;
    this.latest = latest;
  }

  /** Appends every batch of {@code data} as new fragments. */
  public TableTransaction append(ArrowReader data) {
    Objects.requireNonNull(data, "data");
    statements.add(new AppendStatement(data));
    return this;
  }

  /** Appends the rows of in-memory batches (not copied; the caller keeps and closes them). */
  public TableTransaction append(Iterable<? extends VectorSchemaRoot> batches) {
    RootsReader reader = RootsReader.of(batches);
    owned.add(reader);
    statements.add(new AppendStatement(reader));
    return this;
  }

  /** Appends the rows of one in-memory batch. */
  public TableTransaction append(VectorSchemaRoot batch) {
    return append(List.of(Objects.requireNonNull(batch, "batch")));
  }

  /** Deletes the rows {@code filter} selects. */
  public TableTransaction delete(String filter) {
    statements.add(new Delete.DeleteStatement(Sql.parseFilter(filter, "WHERE"),
        Scan.DEFAULT_BATCH_SIZE));
    return this;
  }

  /** Updates the rows {@code filter} selects: {@code set} maps columns to SQL values. */
  public TableTransaction update(String filter, Map<String, String> set) {
    Update u = new Update(ctx, latest).where(filter);
    set.forEach(u::set);
    statements.add(u.statement());
    return this;
  }

  /** An update built with {@link LanceTable#newUpdate()} (its where and sets). */
  public TableTransaction update(Update update) {
    statements.add(update.statement());
    return this;
  }

  /** A merge insert built with {@link LanceTable#mergeInsert(String...)} (keys, clauses, source). */
  public TableTransaction mergeInsert(MergeInsert mergeInsert) {
    MergeInsert.MergeStatement s = mergeInsert.statement();
    owned.add(s);
    statements.add(s);
    return this;
  }

  /** Adds all-null columns (each nullable); later statements can set them. */
  public TableTransaction addColumns(org.apache.arrow.vector.types.pojo.Field... columns) {
    if (columns.length == 0) {
      throw new InvalidInputException("addColumns needs at least one column");
    }
    statements.add(new AddNullColumns(Arrays.asList(columns)));
    return this;
  }

  /** Sets a key of the table's config. */
  public TableTransaction setConfig(String key, String value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    statements.add(new Statement() {
      @Override
      public String kind() {
        return "change config";
      }

      @Override
      public String describe() {
        return "set config " + key;
      }

      @Override
      public Counts plan(TxnPlan plan, TxnPlan.Step step) {
        step.add(ConfigUpdate.ofConfig(UpdateMap.set(key, value)));
        return Counts.NONE;
      }
    });
    return this;
  }

  /** How many lost races the commit retries (default 20). */
  public TableTransaction maxRetries(int retries) {
    if (retries < 0) {
      throw new InvalidInputException("max retries must not be negative, not " + retries);
    }
    this.maxRetries = retries;
    return this;
  }

  /** Reports every commit attempt (the reservations' too). */
  public TableTransaction onAttempt(Consumer<Attempt> observer) {
    this.onAttempt = Objects.requireNonNull(observer, "observer");
    return this;
  }

  /** Reports the table rows the statements have read so far. */
  public TableTransaction onProgress(java.util.function.LongConsumer rowsRead) {
    this.onProgress = Objects.requireNonNull(rowsRead, "rowsRead");
    return this;
  }

  /** Runs the statements in order and commits them as one version. */
  public TransactionResult commit() {
    if (statements.isEmpty()) {
      throw new InvalidInputException("the transaction has no statement");
    }
    List<Attempt> attempts = new ArrayList<>();
    Consumer<Attempt> observer = a -> {
      attempts.add(a);
      onAttempt.accept(a);
    };
    List<Long> reservations = new ArrayList<>();
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      TableView view = new TableView(ctx, latest.get());
      view.onProgress(onProgress);
      TxnPlan plan = new TxnPlan(ctx, view, p -> reservations.add(reserve(p, observer)));
      List<TransactionResult.StatementCounts> counts = new ArrayList<>();
      CommitResult r;
      try {
        for (Statement s : statements) {
          TxnPlan.Step step = plan.step(s.kind(), s.describe());
          Statement.Counts c = s.plan(plan, step);
          counts.add(new TransactionResult.StatementCounts(s.describe(), c.deleted(),
              c.updated(), c.inserted()));
        }
        r = plan.commit(observer, maxRetries);
      } catch (CommitStateUnknownException e) {
        throw e;
      } catch (RuntimeException e) {
        plan.deleteWritten();
        throw Commits.translate(e);
      }
      return new TransactionResult(r.version(), r.transactionUuid(), counts, attempts,
          reservations);
    } finally {
      for (AutoCloseable c : owned) {
        try {
          c.close();
        } catch (Exception e) {
          // releasing in-memory source rows
        }
      }
    }
  }

  /**
   * Reserves ids for every fragment the transaction wrote and has not reserved yet (and, with
   * stable row ids, row ids for their rows without one), as a version of its own; returns it.
   */
  private long reserve(TxnPlan plan, Consumer<Attempt> observer) {
    TableView view = plan.view();
    List<ViewFragment> fragments = view.unreserved();
    List<ViewFragment> needIds = new ArrayList<>();
    long rows = 0;
    if (view.stableRowIds()) {
      for (ViewFragment f : view.pending()) {
        long n = f.pending().get().rowsWithoutIds();
        if (n > 0) {
          needIds.add(f);
          rows += n;
        }
      }
    }
    long count = fragments.size();
    long rowCount = rows;
    TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), latest.get());
    txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, "reserve ids");
    txn.step("reserve ids for a multi-statement transaction", s -> {
      s.action(new ReserveFragmentIds(count));
      if (rowCount > 0) {
        s.action(new ReserveRowIds(rowCount));
      }
    });
    CommitResult r = Commits.commit(txn, observer, maxRetries);
    Manifest m = r.manifest();
    long first = m.effectiveMaxFragmentId().orElse(-1) - count + 1;
    for (int i = 0; i < fragments.size(); i++) {
      fragments.get(i).pending().get().reserve(first + i);
      fragments.get(i).renumber(first + i);
    }
    long nextRow = m.nextRowId() - rowCount;
    for (ViewFragment f : needIds) {
      PendingFragment p = f.pending().get();
      long n = p.rowsWithoutIds();
      p.assignRowIds(nextRow);
      nextRow += n;
      f.rowIds(p.rowIds().orElseThrow());
    }
    return r.version();
  }

  /** Appends a reader's rows through the transaction's row sink. */
  private static final class AppendStatement implements Statement {
    private final ArrowReader data;

    AppendStatement(ArrowReader data) {
      this.data = data;
    }

    @Override
    public String kind() {
      return "append";
    }

    @Override
    public String describe() {
      return "append";
    }

    @Override
    public Counts plan(TxnPlan plan, TxnPlan.Step step) {
      long rows;
      try (RowSink sink = new RowSink(plan, step, true, CreateOptions.DEFAULT_MAX_ROWS_PER_FILE)) {
        BatchConformance conformance = new BatchConformance(plan.view().schema(),
            Optional.of(data));
        while (data.loadNextBatch()) {
          VectorSchemaRoot b = data.getVectorSchemaRoot();
          if (b.getRowCount() > 0) {
            sink.write(conformance.conform(b), RowSink.Kind.FRESH, null, null, null);
          }
        }
        sink.finish();
        rows = sink.rows();
      } catch (IOException e) {
        throw new UncheckedIOException("reading the rows to append", e);
      }
      return new Counts(0, 0, rows);
    }
  }

  /** Adds all-null columns: AddField actions; later statements see the columns. */
  private static final class AddNullColumns implements Statement {
    private final List<org.apache.arrow.vector.types.pojo.Field> columns;

    AddNullColumns(List<org.apache.arrow.vector.types.pojo.Field> columns) {
      this.columns = List.copyOf(columns);
    }

    @Override
    public String kind() {
      return "add columns";
    }

    @Override
    public String describe() {
      return "add columns " + String.join(", ", columns.stream().map(
          org.apache.arrow.vector.types.pojo.Field::getName).toList());
    }

    @Override
    public Counts plan(TxnPlan plan, TxnPlan.Step step) {
      TableView view = plan.view();
      Schema schema = view.schema();
      int first = Math.max(view.fieldWatermark(), schema.maxFieldId()) + 1;
      Schema added = TableSchemas.toLance(
          new org.apache.arrow.vector.types.pojo.Schema(columns), first, Optional.empty());
      for (Field f : added.topLevel()) {
        if (Columns.nameTaken(schema, Field.NO_PARENT, f.name())) {
          throw new InvalidInputException("column '" + f.name() + "' already exists");
        }
        if (!f.nullable()) {
          throw new InvalidInputException("column '" + f.name() + "' is not nullable, so it "
              + "cannot be added as all-null; make it nullable");
        }
      }
      StorageChecks.check(added, view.fileVersion());
      for (Field f : added.fields()) {
        Field def = f.toBuilder().id(0).parentId(Field.NO_PARENT).build();
        step.add(f.isTopLevel() ? AddField.topLevel(f.id(), def)
            : new AddField(f.id(), Optional.of(Ref.local(f.parentId())), def));
      }
      List<Field> all = new ArrayList<>(schema.fields());
      all.addAll(added.fields());
      view.schema(new Schema(all, schema.metadata()));
      return Counts.NONE;
    }
  }
}
