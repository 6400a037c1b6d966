package dev.lancet.table;

import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RefreshRowVersionMetadata;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Renames columns, changes their nullability and casts them, in one commit. A column renamed in
 * the same call can be named by its old or its new name in the other changes.
 *
 * <ul>
 *   <li>A rename and a nullability change keep the field's id (AlterField).</li>
 *   <li>Making a column non-nullable first checks that no live row holds a null in it.</li>
 *   <li>A cast (top-level columns; within the families lance-core allows: integers, floats,
 *       temporal types, string and binary widths, decimals, fixed-size lists element-wise)
 *       rewrites the column: its old data is tombstoned in each fragment, the field takes a new
 *       id at the same schema position, and the cast values are written as one new data file
 *       per fragment, as lance-core's {@code alterColumns} does (decision 0011).</li>
 * </ul>
 */
public final class AlterColumns {
  private record Change(Optional<String> rename, Optional<Boolean> nullable,
      Optional<ArrowType> castTo, Optional<org.apache.arrow.vector.types.pojo.Field> castField) {
    Change merge(Change o) {
      return new Change(o.rename.or(() -> rename), o.nullable.or(() -> nullable),
          o.castTo.or(() -> castTo), o.castField.or(() -> castField));
    }
  }

  private final TableContext ctx;
  private final Supplier<Snapshot> latest;
  private final Map<String, Change> changes = new LinkedHashMap<>();
  private int maxRetries = 20;
  private Consumer<Attempt> onAttempt = a -> { };

  AlterColumns(TableContext ctx, Supplier<Snapshot> latest) {
    this.ctx = ctx;
    this.latest = latest;
  }

  /** Renames column {@code path} ("a", or "s.a" for a child) to {@code newName}. */
  public AlterColumns rename(String path, String newName) {
    return add(path, new Change(Optional.of(newName), Optional.empty(), Optional.empty(), Optional.empty()));
  }

  /** Makes column {@code path} nullable or not (not: only if it holds no null). */
  public AlterColumns nullable(String path, boolean nullable) {
    return add(path, new Change(Optional.empty(), Optional.of(nullable), Optional.empty(), Optional.empty()));
  }

  /** Casts top-level column {@code name} to {@code type} (a leaf type). */
  public AlterColumns cast(String name, ArrowType type) {
    return add(name, new Change(Optional.empty(), Optional.empty(), Optional.of(type), Optional.empty()));
  }

  /** Casts top-level column {@code name} to the type of {@code field} (for fixed-size lists). */
  public AlterColumns cast(String name, org.apache.arrow.vector.types.pojo.Field field) {
    return add(name, new Change(Optional.empty(), Optional.empty(), Optional.of(field.getType()),
        Optional.of(field)));
  }

  public AlterColumns maxRetries(int retries) {
    this.maxRetries = retries;
    return this;
  }

  public AlterColumns onAttempt(Consumer<Attempt> observer) {
    this.onAttempt = Objects.requireNonNull(observer, "observer");
    return this;
  }

  private AlterColumns add(String path, Change c) {
    changes.merge(Objects.requireNonNull(path, "path"), c, Change::merge);
    return this;
  }

  /**
   * The changes by the columns' names at the version read: a change named by the new name a
   * rename of this call gives (rename "a" to "b", then cast "b") joins that rename's change, so
   * one call can rename a column and change it by either name.
   */
  private Map<String, Change> byCurrentName(Schema schema) {
    Map<String, String> renamedTo = new LinkedHashMap<>();
    changes.forEach((path, c) -> c.rename.ifPresent(n -> renamedTo.put(renamed(path, n), path)));
    Map<String, Change> out = new LinkedHashMap<>();
    for (Map.Entry<String, Change> e : changes.entrySet()) {
      String path = e.getKey();
      if (renamedTo.containsKey(path) && !renamedTo.get(path).equals(path)
          && !exists(schema, path)) {
        path = renamedTo.get(path);
      }
      Change c = e.getValue();
      out.merge(path, c, Change::merge);
    }
    return out;
  }

  /** The path {@code path} has after renaming its last segment to {@code name}. */
  private static String renamed(String path, String name) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? name : path.substring(0, dot + 1) + name;
  }

  private static boolean exists(Schema schema, String path) {
    try {
      Columns.resolve(schema, path, 0);
      return true;
    } catch (LanceTableException e) {
      return false;
    }
  }

  /** A planned cast: the old field, its Arrow field now, the target, the new Lance field. */
  private record CastPlan(Field old, org.apache.arrow.vector.types.pojo.Field from,
      org.apache.arrow.vector.types.pojo.Field to, Field lance, int token) {}

  public CommitInfo commit() {
    try (InFlightWrites.Write inFlight = InFlightWrites.begin(ctx.store())) {
      if (changes.isEmpty()) {
        throw new InvalidInputException("alterColumns needs at least one rename, nullable or cast");
      }
      Snapshot read = latest.get();
      Schema schema = read.manifest().schema();
      org.apache.arrow.vector.types.pojo.Schema arrow = TableSchemas.toArrow(schema);
      List<Field> top = schema.topLevel();
      List<CastPlan> casts = new ArrayList<>();
      Map<Field, Change> resolved = new LinkedHashMap<>();
      boolean tightens = false;
      for (Map.Entry<String, Change> e : byCurrentName(schema).entrySet()) {
        Field f = Columns.resolve(schema, e.getKey(), read.version());
        Change c = e.getValue();
        if (resolved.containsKey(f)) {
          throw new InvalidInputException("column '" + e.getKey() + "' is altered twice");
        }
        resolved.put(f, c);
        if (c.rename.isPresent()) {
          String name = c.rename.get();
          if (name.isEmpty()) {
            throw new InvalidInputException("column '" + e.getKey() + "' cannot be renamed to an "
                + "empty name");
          }
          if (!name.equals(f.name()) && Columns.nameTaken(schema, f.parentId(), name)) {
            throw new InvalidInputException("cannot rename column '" + e.getKey() + "' to '" + name
                + "': a column of that name exists");
          }
        }
        if (c.nullable.isPresent() && !c.nullable.get() && f.nullable()) {
          tightens = true;
          long nulls = NullCounts.count(ctx, read, e.getKey());
          if (nulls > 0) {
            throw new InvalidInputException("column '" + e.getKey() + "' holds " + nulls
                + " null value(s) at version " + read.version() + ", so it cannot be made "
                + "non-nullable; fill or delete those rows first");
          }
        }
        if (c.castTo.isPresent()) {
          if (!f.isTopLevel()) {
            throw new InvalidInputException("Lancet casts top-level columns only; '" + e.getKey()
                + "' is nested");
          }
          org.apache.arrow.vector.types.pojo.Field from = arrow.getFields().get(top.indexOf(f));
          org.apache.arrow.vector.types.pojo.Field to = c.castField.map(x ->
              new org.apache.arrow.vector.types.pojo.Field(f.name(),
                  new FieldType(c.nullable.orElse(f.nullable()), x.getType(), null), x.getChildren()))
              .orElseGet(() -> new org.apache.arrow.vector.types.pojo.Field(f.name(),
                  new FieldType(c.nullable.orElse(f.nullable()), c.castTo.get(), null), List.of()));
          if (to.getType() instanceof ArrowType.FixedSizeList && to.getChildren().isEmpty()) {
            throw new InvalidInputException("a cast to a fixed-size list names its item type: "
                + "pass an Arrow field with the item as its child");
          }
          if (!Casts.supported(from, to)) {
            throw new InvalidInputException("cannot cast column '" + e.getKey() + "' from "
                + describe(from) + " to " + describe(to) + ": Lance casts within a type family "
                + "(integers, floats, temporal types, string or binary widths, decimals, "
                + "fixed-size lists element-wise)");
          }
          List<Field> lance = TableSchemas.fieldToLance(to, casts.size(), Optional.empty());
          casts.add(new CastPlan(f, from, to, lance.get(0), casts.size()));
        }
      }
      if (tightens && !casts.isEmpty()) {
        throw new InvalidInputException("cannot make a column non-nullable and cast columns in "
            + "one change: cast first, then change the nullability");
      }
      String version = LanceTable.storageVersionOf(read.manifest());
      Map<Long, WrittenFile> files = casts.isEmpty() ? Map.of() : writeCasts(read, casts, version);
      TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), read);
      txn.property(dev.lancet.core.transaction.StatementName.PROPERTY, "alter columns");
      boolean stable = read.manifest().usesStableRowIds();
      txn.step("alter columns " + String.join(", ", changes.keySet()), s -> {
        for (Fragment frag : read.manifest().fragments()) {
          List<Ref> backed = new ArrayList<>();
          for (CastPlan p : casts) {
            if (frag.files().stream().anyMatch(df -> df.fields().contains(p.old().id()))) {
              backed.add(Ref.committed(p.old().id()));
            }
          }
          if (!backed.isEmpty()) {
            s.action(new TombstoneFieldData(Ref.committed(frag.id()), backed, true));
          }
        }
        for (Map.Entry<Field, Change> e : resolved.entrySet()) {
          Field f = e.getKey();
          Change c = e.getValue();
          Optional<CastPlan> cast = casts.stream().filter(p -> p.old().equals(f)).findFirst();
          if (cast.isPresent()) {
            s.action(new AlterField(Ref.committed(f.id()), c.rename, Optional.of(cast.get().lance().logicalType()),
                Optional.of(cast.get().to().isNullable()), java.util.OptionalInt.of(cast.get().token())));
          } else {
            s.action(new AlterField(Ref.committed(f.id()), c.rename, Optional.empty(), c.nullable));
          }
        }
        for (Map.Entry<Long, WrittenFile> e : files.entrySet()) {
          WrittenFile w = e.getValue();
          s.addDataFile(Ref.committed(e.getKey()), new DataFile(w.path(), w.fieldIds(),
              w.columnIndices(), w.fileMajorVersion(), w.fileMinorVersion(), w.sizeBytes()),
              w.fieldIds().stream().map(Ref::local).toArray(Ref[]::new));
        }
        if (stable && !files.isEmpty()) {
          s.action(new RefreshRowVersionMetadata(new ArrayList<>(files.keySet())));
        }
      });
      StreamWrite.Written written = new StreamWrite.Written(new ArrayList<>(files.values()), 0);
      return Append.publish(ctx, txn, written, onAttempt, maxRetries);
    }
  }

  /** The cast columns of every fragment that has data for them, one file per fragment. */
  private Map<Long, WrittenFile> writeCasts(Snapshot read, List<CastPlan> casts, String version) {
    Schema schema = read.manifest().schema();
    Map<Long, WrittenFile> out = new LinkedHashMap<>();
    List<Field> newFields = casts.stream().map(CastPlan::lance).toList();
    Schema fileSchema = new Schema(newFields, Map.of());
    org.apache.arrow.vector.types.pojo.Schema fileArrow = TableSchemas.toArrow(fileSchema);
    org.apache.arrow.vector.types.pojo.Schema inArrow = new org.apache.arrow.vector.types.pojo.Schema(
        casts.stream().map(CastPlan::from).toList());
    List<Field> inputs = casts.stream().map(CastPlan::old).toList();
    try {
      for (Fragment f : read.manifest().fragments()) {
        boolean hasData = casts.stream().anyMatch(p ->
            f.files().stream().anyMatch(df -> df.fields().contains(p.old().id())));
        if (!hasData || f.physicalRows() == 0) {
          continue;
        }
        try (DataFileWriter writer = ctx.dataFiles().newWriter(new WriteSpec(ctx.uri(),
                ctx.storageOptions(), ctx.store(), "data", fileArrow, newFields, version,
                f.physicalRows(), Long.MAX_VALUE, ctx.allocator(), Optional.empty()));
            FragmentRead in = new FragmentRead(ctx.at(read.manifest()), schema, f, inputs, false, false,
                List.of(new RowRange(0, f.physicalRows())), Scan.DEFAULT_BATCH_SIZE,
                ctx.allocator(), inArrow, x -> Optional.empty())) {
          VectorSchemaRoot batch;
          while ((batch = in.next()) != null) {
            List<FieldVector> cast = new ArrayList<>();
            try {
              for (int i = 0; i < casts.size(); i++) {
                cast.add(Casts.cast(batch.getVector(i), casts.get(i).to(), ctx.allocator(),
                    casts.get(i).old().name()));
              }
              try (VectorSchemaRoot root = new VectorSchemaRoot(
                  cast.stream().map(FieldVector::getField).toList(), cast, batch.getRowCount())) {
                cast = List.of();
                writer.write(root);
              }
            } finally {
              cast.forEach(FieldVector::close);
            }
          }
          List<WrittenFile> written = writer.finish();
          if (written.size() != 1) {
            throw new LanceTableException("fragment " + f.id() + " got " + written.size()
                + " data files for its cast columns instead of one");
          }
          out.put(f.id(), written.get(0));
        }
      }
    } catch (IOException e) {
      StreamWrite.delete(ctx, new StreamWrite.Written(new ArrayList<>(out.values()), 0));
      throw new UncheckedIOException("writing the cast columns", e);
    } catch (RuntimeException e) {
      StreamWrite.delete(ctx, new StreamWrite.Written(new ArrayList<>(out.values()), 0));
      throw e;
    }
    return out;
  }

  private static String describe(org.apache.arrow.vector.types.pojo.Field f) {
    return f.getChildren().isEmpty() ? f.getType().toString()
        : f.getType() + "<" + f.getChildren().get(0).getType() + ">";
  }

}
