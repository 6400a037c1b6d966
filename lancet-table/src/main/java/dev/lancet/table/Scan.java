package dev.lancet.table;

import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.file.RowRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A read of the table: which columns, which version (the newest, a number, a tag, or the
 * newest as of a time), how many rows after skipping how many, and whether to add the
 * {@code _rowid} / {@code _rowaddr} columns. Rows come in fragment order, deleted rows left
 * out; a column a fragment has no data for reads as nulls.
 *
 * <pre>{@code
 * try (ArrowReader r = table.newScan().select("id", "name").asOfTag("nightly").limit(100).open()) {
 *   while (r.loadNextBatch()) { VectorSchemaRoot batch = r.getVectorSchemaRoot(); ... }
 * }
 * }</pre>
 */
public final class Scan {
  /** Rows per batch unless {@link #batchSize} says otherwise. */
  public static final int DEFAULT_BATCH_SIZE = 8192;

  private final TableContext ctx;
  private final Function<VersionRef, At> resolver;
  private Optional<List<String>> columns = Optional.empty();
  private VersionRef version = new VersionRef.Latest();
  private boolean withRowId;
  private boolean withRowAddr;
  private long offset;
  private long limit = Long.MAX_VALUE;
  private int batchSize = DEFAULT_BATCH_SIZE;
  private Optional<String> filter = Optional.empty();

  /** A version a scan resolved, with the context its files are read in (its branch's). */
  record At(Snapshot snapshot, TableContext ctx) {}

  Scan(TableContext ctx, Function<VersionRef, At> resolver) {
    this.ctx = ctx;
    this.resolver = resolver;
  }

  /** Only these top-level columns, in this order (default: all, in schema order). */
  public Scan select(String... names) {
    return select(Arrays.asList(names));
  }

  public Scan select(List<String> names) {
    this.columns = Optional.of(List.copyOf(names));
    return this;
  }

  /**
   * Only the rows where the SQL filter {@code sql} is true (Lance's filter semantics,
   * docs/decisions/0013), evaluated batch by batch; the filter's columns are read too, whether
   * or not they are selected. Offset and limit count the rows the filter keeps.
   */
  public Scan filter(String sql) {
    Sql.parseFilter(sql, "filter");
    this.filter = Optional.of(sql);
    return this;
  }

  /** Adds {@code _rowid} (uint64): the stable row id, or the row address without them. */
  public Scan withRowId() {
    this.withRowId = true;
    return this;
  }

  /** Adds {@code _rowaddr} (uint64): fragment id in the high 32 bits, physical offset low. */
  public Scan withRowAddress() {
    this.withRowAddr = true;
    return this;
  }

  public Scan asOfVersion(long v) {
    this.version = new VersionRef.Number(v);
    return this;
  }

  public Scan asOfTag(String tag) {
    this.version = new VersionRef.Tag(Objects.requireNonNull(tag, "tag"));
    return this;
  }

  /** The newest version committed at or before {@code time}. */
  public Scan asOfTimestamp(Instant time) {
    this.version = new VersionRef.AsOf(Objects.requireNonNull(time, "time"));
    return this;
  }

  /** At most this many rows. */
  public Scan limit(long rows) {
    if (rows < 0) {
      throw new InvalidInputException("a scan limit must not be negative, not " + rows);
    }
    this.limit = rows;
    return this;
  }

  /** Skip this many rows first. */
  public Scan offset(long rows) {
    if (rows < 0) {
      throw new InvalidInputException("a scan offset must not be negative, not " + rows);
    }
    this.offset = rows;
    return this;
  }

  public Scan batchSize(int rows) {
    if (rows <= 0) {
      throw new InvalidInputException("a batch size must be positive, not " + rows);
    }
    this.batchSize = rows;
    return this;
  }

  /** The version the scan reads (a tag or time resolved to its number). */
  public long version() {
    return plan().version();
  }

  /** The Arrow schema of the batches the scan returns. */
  public org.apache.arrow.vector.types.pojo.Schema schema() {
    return plan().outSchema();
  }

  /** The scan split by fragment, each task opened on its own; tasks with no rows are left out. */
  public List<ScanTask> planTasks() {
    return tasks(plan());
  }

  private List<ScanTask> tasks(Plan plan) {
    List<ScanTask> tasks = new ArrayList<>();
    boolean filtered = plan.filter().isPresent();
    long skip = filtered ? 0 : offset;
    long left = filtered ? Long.MAX_VALUE : limit;
    for (Fragment f : plan.manifest().fragments()) {
      if (left == 0) {
        break;
      }
      long live = f.liveRows();
      if (skip >= live) {
        skip -= live;
        continue;
      }
      List<RowRange> liveRanges;
      try {
        liveRanges = RowSelection.live(f.physicalRows(), BaseFiles.deletions(plan.ctx(), f));
      } catch (IOException e) {
        throw new UncheckedIOException("reading the deletion file of fragment " + f.id(), e);
      }
      List<RowRange> selected = RowSelection.slice(liveRanges, skip, left);
      skip = 0;
      long n = RowSelection.count(selected);
      left -= n;
      if (n > 0) {
        tasks.add(new ScanTask(plan.ctx(), plan, f, selected));
      }
    }
    return tasks;
  }

  /** The task {@code d} describes, at its version, with its columns and ranges. */
  ScanTask task(ScanTask.Descriptor d) {
    asOfVersion(d.version()).select(d.columns()).batchSize(d.batchSize());
    this.withRowId = d.withRowId();
    this.withRowAddr = d.withRowAddr();
    Plan plan = plan();
    Fragment f = plan.manifest().fragments().stream().filter(x -> x.id() == d.fragmentId())
        .findFirst().orElseThrow(() -> new NotFoundException("fragment " + d.fragmentId()
            + " is not in version " + d.version() + " of " + ctx.uri()));
    return new ScanTask(plan.ctx(), plan, f, d.ranges());
  }

  /** The scan's rows as Arrow batches, from the table's allocator. */
  public ArrowReader open() {
    return open(ctx.allocator());
  }

  /** The scan's rows as Arrow batches, allocated from {@code allocator}. */
  public ArrowReader open(BufferAllocator allocator) {
    Plan plan = plan();
    return plan.filter().isPresent()
        ? new ScanReader(allocator, plan, tasks(plan), offset, limit)
        : new ScanReader(allocator, plan, tasks(plan));
  }

  /**
   * What a scan resolved: its version, schema, projected columns and output schema (Arrow's
   * in-memory form), the value type of each dictionary-encoded output column by its dictionary
   * id; with a filter, the columns read ({@code read}: the projected ones, then the filter's
   * others) and the schema of the batches read ({@code readSchema}).
   */
  record Plan(long version, Manifest manifest, Schema schema, List<Field> projected,
      org.apache.arrow.vector.types.pojo.Schema outSchema, boolean withRowId,
      boolean withRowAddr, int batchSize, Map<Long, ArrowType> dictionaryValueTypes,
      Optional<dev.lancet.table.expr.BoundPredicate> filter,
      List<Field> read, org.apache.arrow.vector.types.pojo.Schema readSchema, TableContext ctx) {}

  private Plan plan() {
    At at = resolver.apply(version);
    Snapshot snap = at.snapshot();
    Manifest m = snap.manifest();
    Schema schema = m.schema();
    List<Field> top = schema.topLevel();
    List<Field> projected = new ArrayList<>();
    if (columns.isEmpty()) {
      projected.addAll(top);
    } else {
      for (String name : columns.get()) {
        Field f = top.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() ->
            new NotFoundException("column '" + name + "' does not exist at version "
                + snap.version() + "; the table has " + String.join(", ",
                    top.stream().map(Field::name).toList())));
        projected.add(f);
      }
    }
    List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
    org.apache.arrow.vector.types.pojo.Schema full = TableSchemas.toArrow(schema);
    Map<Long, ArrowType> dictionaryValueTypes = new LinkedHashMap<>();
    Map<Integer, List<Field>> children = LanceSchemas.childrenOf(schema);
    for (Field f : projected) {
      org.apache.arrow.vector.types.pojo.Field arrow = full.getFields().get(top.indexOf(f));
      if (arrow.getDictionary() != null) {
        dictionaryValueTypes.put(arrow.getDictionary().getId(),
            TableSchemas.dictionaryValueType(f.logicalType(), "column '" + f.name() + "'"));
      } else {
        refuseNestedDictionaries(f, children);
      }
      out.add(arrow);
    }
    if (withRowId) {
      out.add(new org.apache.arrow.vector.types.pojo.Field(TableColumns.ROW_ID,
          FieldType.notNullable(new ArrowType.Int(64, false)), List.of()));
    }
    if (withRowAddr) {
      out.add(new org.apache.arrow.vector.types.pojo.Field(TableColumns.ROW_ADDR,
          FieldType.notNullable(new ArrowType.Int(64, false)), List.of()));
    }
    org.apache.arrow.vector.types.pojo.Schema outSchema =
        new org.apache.arrow.vector.types.pojo.Schema(out);
    Map<Long, ArrowType> dictionaries = Map.copyOf(dictionaryValueTypes);
    if (filter.isEmpty()) {
      return new Plan(snap.version(), m, schema, projected, outSchema, withRowId, withRowAddr,
          batchSize, dictionaries, Optional.empty(), projected, outSchema, at.ctx());
    }
    dev.lancet.table.expr.BoundPredicate bound = Sql.filter(filter.get(), full, "filter");
    List<Field> read = new ArrayList<>(projected);
    List<org.apache.arrow.vector.types.pojo.Field> readOut = new ArrayList<>();
    for (Field f : projected) {
      readOut.add(full.getFields().get(top.indexOf(f)));
    }
    for (String name : bound.columns()) {
      Field f = top.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
      if (!read.contains(f)) {
        read.add(f);
        readOut.add(full.getFields().get(top.indexOf(f)));
      }
    }
    readOut.addAll(out.subList(projected.size(), out.size()));
    return new Plan(snap.version(), m, schema, projected, outSchema, withRowId, withRowAddr,
        batchSize, dictionaries, Optional.of(bound), read,
        new org.apache.arrow.vector.types.pojo.Schema(readOut), at.ctx());
  }

  /** A scan returns top-level dictionary columns with their dictionaries; nested ones not yet. */
  private static void refuseNestedDictionaries(Field top, Map<Integer, List<Field>> children) {
    for (Field c : children.getOrDefault(top.id(), List.of())) {
      if (c.logicalType().startsWith("dict:")) {
        throw new InvalidInputException("column '" + top.name() + "' holds the dictionary-encoded "
            + "field '" + c.name() + "', and Lancet's scan returns dictionaries only for top-level "
            + "columns so far; project other columns");
      }
      refuseNestedDictionaries(c, children);
    }
  }
}
