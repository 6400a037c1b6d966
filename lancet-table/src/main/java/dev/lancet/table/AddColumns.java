package dev.lancet.table;

import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RefreshRowVersionMetadata;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import dev.lancet.table.spi.DataFileWriter;
import dev.lancet.file.RowRange;
import dev.lancet.table.spi.WriteSpec;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import dev.lancet.table.expr.BoundValueExpression;
import dev.lancet.table.expr.ExpressionException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Adds top-level columns, in one of four ways:
 *
 * <ul>
 *   <li>{@link #nulls}: all-null columns, a change of schema only (no data is written; every
 *       fragment reads them as null);</li>
 *   <li>{@link #computed}: the values of each fragment computed batch by batch by a Java
 *       function of existing columns, written as one new data file per fragment;</li>
 *   <li>{@link #from}: values from a reader aligned with the table: one row per live row, in
 *       scan order (what {@code newScan().open()} returns at the version read); deleted rows
 *       get null.</li>
 * </ul>
 *
 * One Transaction V2 step: an AddField per new field (parent first, so ids are minted in
 * Lance's pre-order), an AddDataFile per fragment for the new data, and, with stable row ids,
 * RefreshRowVersionMetadata for the fragments that gained data. Column additions commute with
 * appends and deletes; a fragment a concurrent commit removed makes it a conflict.
 */
public final class AddColumns {
  private final TableContext ctx;
  private final Supplier<Snapshot> latest;
  private Optional<org.apache.arrow.vector.types.pojo.Schema> columns = Optional.empty();
  private Optional<List<String>> inputs = Optional.empty();
  private Optional<ColumnFunction> function = Optional.empty();
  private Optional<ArrowReader> aligned = Optional.empty();
  private boolean allNull;
  /** New column name → SQL expression, in order ({@link #sql}). */
  private final Map<String, String> sqlColumns = new LinkedHashMap<>();
  private int maxRetries = 20;
  private Consumer<Attempt> onAttempt = a -> { };
  private int batchSize = Scan.DEFAULT_BATCH_SIZE;

  AddColumns(TableContext ctx, Supplier<Snapshot> latest) {
    this.ctx = ctx;
    this.latest = latest;
  }

  /** All-null columns (each must be nullable). */
  public AddColumns nulls(org.apache.arrow.vector.types.pojo.Field... fields) {
    mode();
    this.columns = Optional.of(new org.apache.arrow.vector.types.pojo.Schema(Arrays.asList(fields)));
    this.allNull = true;
    return this;
  }

  /** Columns {@code newColumns} computed by {@code fn} from the existing columns {@code inputs}. */
  public AddColumns computed(org.apache.arrow.vector.types.pojo.Schema newColumns,
      List<String> inputs, ColumnFunction fn) {
    mode();
    this.columns = Optional.of(newColumns);
    this.inputs = Optional.of(List.copyOf(inputs));
    this.function = Optional.of(Objects.requireNonNull(fn, "fn"));
    return this;
  }

  /**
   * A column {@code name} computed by the SQL {@code expression} of the existing columns for
   * every row (the same expressions as {@code update().set(...)}: {@code "score * 100"},
   * {@code "upper(name)"}, {@code "CAST(id AS double) / 2"}); the column's type is the
   * expression's, nullable unless the expression cannot give null (lance-core's rule). Call it again for more columns, all added in one commit.
   */
  public AddColumns sql(String name, String expression) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(expression, "expression");
    if (columns.isPresent() || aligned.isPresent()) {
      throw new InvalidInputException("an addColumns takes one of nulls, computed, sql or from");
    }
    if (sqlColumns.put(name, expression) != null) {
      throw new InvalidInputException("column '" + name + "' is given twice; give it once");
    }
    return this;
  }

  /** The columns of {@code reader}, one row per live row of the table in scan order. */
  public AddColumns from(ArrowReader reader) {
    mode();
    this.aligned = Optional.of(Objects.requireNonNull(reader, "reader"));
    return this;
  }

  public AddColumns maxRetries(int retries) {
    this.maxRetries = retries;
    return this;
  }

  public AddColumns onAttempt(Consumer<Attempt> observer) {
    this.onAttempt = Objects.requireNonNull(observer, "observer");
    return this;
  }

  /** Rows per batch handed to a {@link ColumnFunction}. */
  public AddColumns batchSize(int rows) {
    if (rows <= 0) {
      throw new InvalidInputException("a batch size must be positive, not " + rows);
    }
    this.batchSize = rows;
    return this;
  }

  private void mode() {
    if (columns.isPresent() || aligned.isPresent() || !sqlColumns.isEmpty()) {
      throw new InvalidInputException("an addColumns takes one of nulls, computed, sql or from");
    }
  }

  /**
   * The {@link #sql} columns as a computed addition: each expression bound to the table's
   * columns at the version read, the inputs the columns they name.
   */
  private void bindSql(Schema schema) {
    org.apache.arrow.vector.types.pojo.Schema arrow = TableSchemas.toArrow(schema);
    List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
    List<BoundValueExpression> bound = new ArrayList<>();
    java.util.Set<String> reads = new java.util.LinkedHashSet<>();
    for (Map.Entry<String, String> e : sqlColumns.entrySet()) {
      BoundValueExpression b = Sql.value(e.getValue(), arrow, e.getKey());
      if (b.type().getTypeID() == org.apache.arrow.vector.types.pojo.ArrowType.ArrowTypeID.Null) {
        throw new InvalidInputException("column '" + e.getKey() + "' = '" + e.getValue()
            + "' has no type (a bare NULL): CAST it, as in CAST(NULL AS bigint)");
      }
      out.add(new org.apache.arrow.vector.types.pojo.Field(e.getKey(),
          new org.apache.arrow.vector.types.pojo.FieldType(b.nullable(), b.type(), null), null));
      bound.add(b);
      reads.addAll(b.columns());
    }
    if (reads.isEmpty()) {
      reads.add(arrow.getFields().get(0).getName()); // a constant still needs each row
    }
    List<org.apache.arrow.vector.types.pojo.Field> fields = List.copyOf(out);
    this.columns = Optional.of(new org.apache.arrow.vector.types.pojo.Schema(fields));
    this.inputs = Optional.of(List.copyOf(reads));
    this.function = Optional.of((input, allocator) -> {
      List<FieldVector> vectors = new ArrayList<>();
      try {
        for (int i = 0; i < bound.size(); i++) {
          vectors.add(bound.get(i).evaluate(input, null, allocator, fields.get(i).getName()));
        }
      } catch (ExpressionException e) {
        vectors.forEach(FieldVector::close);
        throw new InvalidInputException("addColumns().sql: " + e.getMessage(), e);
      } catch (RuntimeException e) {
        vectors.forEach(FieldVector::close);
        throw e;
      }
      return new VectorSchemaRoot(vectors);
    });
  }

  public CommitInfo commit() {
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      Snapshot read = latest.get();
      Schema schema = read.manifest().schema();
      if (!sqlColumns.isEmpty()) {
        bindSql(schema);
      }
      org.apache.arrow.vector.types.pojo.Schema arrow;
      try {
        arrow = aligned.isPresent() ? aligned.get().getVectorSchemaRoot().getSchema()
            : columns.orElseThrow(() -> new InvalidInputException(
                "addColumns needs columns: call nulls, computed, sql or from"));
      } catch (IOException e) {
        throw new UncheckedIOException("reading the schema of the new columns", e);
      }
      // Provisional ids 0..n-1 are the AddField tokens; the kernel mints the real ids.
      Schema added = TableSchemas.toLance(arrow, 0, aligned.map(r -> (ArrowReader) r));
      for (Field f : added.topLevel()) {
        if (Columns.nameTaken(schema, Field.NO_PARENT, f.name())) {
          throw new InvalidInputException("column '" + f.name() + "' already exists at version "
              + read.version() + "; drop or rename it first");
        }
        if (allNull && !f.nullable()) {
          throw new InvalidInputException("column '" + f.name() + "' is not nullable, so it cannot "
              + "be added as all-null; make it nullable or add it with data (computed or from)");
        }
      }
      String version = LanceTable.storageVersionOf(read.manifest());
      StorageChecks.check(added, version);
      Map<Long, WrittenFile> files = new LinkedHashMap<>();
      long rows = 0;
      try {
        if (function.isPresent()) {
          rows = compute(read, added, version, files);
        } else if (aligned.isPresent()) {
          rows = align(read, added, version, files);
        }
      } catch (RuntimeException e) {
        deleteAll(files);
        throw e;
      }
      String names = String.join(", ", added.topLevel().stream().map(Field::name).toList());
      TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), read);
      txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, "add columns");
      boolean stable = read.manifest().usesStableRowIds();
      txn.step("add columns " + names, s -> {
        for (Field f : added.fields()) {
          Field def = f.toBuilder().id(0).parentId(Field.NO_PARENT).build();
          if (f.isTopLevel()) {
            s.addField(f.id(), def);
          } else {
            s.addChildField(f.id(), Ref.local(f.parentId()), def);
          }
        }
        for (Map.Entry<Long, WrittenFile> e : files.entrySet()) {
          WrittenFile w = e.getValue();
          Ref[] refs = w.fieldIds().stream().map(Ref::local).toArray(Ref[]::new);
          s.addDataFile(Ref.committed(e.getKey()), new DataFile(w.path(), w.fieldIds(),
              w.columnIndices(), w.fileMajorVersion(), w.fileMinorVersion(), w.sizeBytes()), refs);
        }
        if (stable && !files.isEmpty()) {
          s.action(new RefreshRowVersionMetadata(new ArrayList<>(files.keySet())));
        }
      });
      StreamWrite.Written written = new StreamWrite.Written(new ArrayList<>(files.values()), rows);
      return Append.publish(ctx, txn, written, onAttempt, maxRetries);
    }
  }

  /** One data file per fragment with the function's output for every physical row. */
  private long compute(Snapshot read, Schema added, String version, Map<Long, WrittenFile> out) {
    Schema schema = read.manifest().schema();
    List<Field> top = schema.topLevel();
    List<Field> inputFields = new ArrayList<>();
    org.apache.arrow.vector.types.pojo.Schema full = TableSchemas.toArrow(schema);
    List<org.apache.arrow.vector.types.pojo.Field> inputArrow = new ArrayList<>();
    for (String name : inputs.get()) {
      Field f = Columns.resolve(schema, name, read.version());
      if (!f.isTopLevel()) {
        throw new InvalidInputException("computed columns read top-level columns; '" + name
            + "' is nested: name its top-level column");
      }
      inputFields.add(f);
      inputArrow.add(full.getFields().get(top.indexOf(f)));
    }
    org.apache.arrow.vector.types.pojo.Schema inSchema =
        new org.apache.arrow.vector.types.pojo.Schema(inputArrow);
    BatchConformance conformance = new BatchConformance(added, Optional.empty());
    long rows = 0;
    for (Fragment f : read.manifest().fragments()) {
      if (f.physicalRows() == 0) {
        continue;
      }
      List<RowRange> all = List.of(new RowRange(0, f.physicalRows()));
      try (DataFileWriter writer = newWriter(added, version, f.physicalRows());
          FragmentRead in = new FragmentRead(ctx.at(read.manifest()), schema, f, inputFields, false, false, all,
              batchSize, ctx.allocator(), inSchema, x -> Optional.empty())) {
        VectorSchemaRoot batch;
        while ((batch = in.next()) != null) {
          try (VectorSchemaRoot result = function.get().apply(batch, ctx.allocator())) {
            if (result == null || result.getRowCount() != batch.getRowCount()) {
              throw new InvalidInputException("the column function returned "
                  + (result == null ? "no batch" : result.getRowCount() + " rows") + " for a batch of "
                  + batch.getRowCount() + " rows of fragment " + f.id() + "; it must return one "
                  + "row per input row");
            }
            writer.write(conformance.conform(result));
          }
        }
        put(out, f, writer.finish());
        rows += f.physicalRows();
      } catch (IOException e) {
        throw new UncheckedIOException("computing new columns for fragment " + f.id(), e);
      }
    }
    return rows;
  }

  /** One data file per fragment from the aligned reader; deleted rows get null. */
  private long align(Snapshot read, Schema added, String version, Map<Long, WrittenFile> out) {
    RowFeeder feeder = new RowFeeder(aligned.get(), new BatchConformance(added, aligned.map(r -> r)));
    org.apache.arrow.vector.types.pojo.Schema arrow = TableSchemas.toArrow(added);
    long live = read.manifest().liveRows();
    long rows = 0;
    try {
      for (Fragment f : read.manifest().fragments()) {
        if (f.physicalRows() == 0) {
          continue;
        }
        DeletionVector deleted = BaseFiles.deletions(ctx.at(read.manifest()), f);
        if (!deleted.isEmpty()) {
          for (Field c : added.fields()) {
            if (!c.nullable()) {
              throw new InvalidInputException("column '" + added.path(c) + "' is not nullable, "
                  + "but fragment " + f.id() + " has deleted rows, which get null; make it nullable");
            }
          }
        }
        try (DataFileWriter writer = newWriter(added, version, f.physicalRows())) {
          for (long start = 0; start < f.physicalRows(); start += batchSize) {
            int n = (int) Math.min(batchSize, f.physicalRows() - start);
            try (VectorSchemaRoot chunk = VectorSchemaRoot.create(arrow, ctx.allocator())) {
              chunk.allocateNew();
              for (int i = 0; i < n; i++) {
                if (!deleted.contains((int) (start + i))) {
                  if (!feeder.copyNext(chunk, i)) {
                    throw new InvalidInputException("the reader has " + feeder.delivered()
                        + " rows, but the table has " + live + " live rows at version "
                        + read.version() + "; it must have exactly one row per live row");
                  }
                }
              }
              for (FieldVector v : chunk.getFieldVectors()) {
                v.setValueCount(n);
              }
              chunk.setRowCount(n);
              writer.write(chunk);
            }
          }
          put(out, f, writer.finish());
          rows += f.physicalRows();
        }
      }
      if (feeder.hasMore()) {
        throw new InvalidInputException("the reader has more rows than the " + live + " live "
            + "rows of the table at version " + read.version() + "; it must have exactly one row "
            + "per live row");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing the new columns", e);
    }
    return rows;
  }

  private DataFileWriter newWriter(Schema added, String version, long rows) throws IOException {
    return ctx.dataFiles().newWriter(new WriteSpec(ctx.uri(), ctx.storageOptions(), ctx.store(),
        "data", TableSchemas.toArrow(added), added.fields(), version, rows,
        CreateOptions.DEFAULT_MAX_BYTES_PER_FILE * 64, ctx.allocator(), Optional.empty()));
  }

  private static void put(Map<Long, WrittenFile> out, Fragment f, List<WrittenFile> files) {
    if (files.size() != 1 || files.get(0).physicalRows() != f.physicalRows()) {
      throw new LanceTableException("fragment " + f.id() + " of " + f.physicalRows()
          + " rows got " + files.size() + " data file(s) for its new columns instead of one");
    }
    out.put(f.id(), files.get(0));
  }

  private void deleteAll(Map<Long, WrittenFile> files) {
    StreamWrite.delete(ctx, new StreamWrite.Written(new ArrayList<>(files.values()), 0));
  }
}
