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
 * out; a column a fragment has no data for reads as nulls. With {@link #nearest} the scan is a
 * vector search instead: the k rows nearest to a query vector, nearest first, with
 * {@code _distance} (docs/decisions/0028).
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
  private Optional<NearestQuery> nearest = Optional.empty();

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

  /**
   * Makes the scan a vector search: the {@code k} rows whose vectors in {@code column} are
   * nearest to {@code query}, nearest first, with their distance in a {@code _distance} column
   * (float32) after the selected columns. An exact search over every live row (Lancet does not
   * read vector indexes yet: see {@link #useIndex}); rows whose vector is null are left out, ties
   * go to the smaller row id, as in lance-core (docs/decisions/0028). The column holds
   * fixed-size lists of float16, float32 or float64 (the query is converted to that type), or of
   * uint8 (the query's values are then integers 0-255). {@code select} may name
   * {@code _distance} to place it among the columns. With {@link #filter}: see
   * {@link #prefilter}. Offset and limit apply to the k rows found.
   *
   * @throws InvalidInputException when {@code k} is not positive (the column and query are
   *     checked when the scan is planned, before any data is read)
   */
  public Scan nearest(String column, float[] query, int k) {
    Objects.requireNonNull(query, "query");
    return nearest(column, List.of(query), false, k);
  }

  /**
   * A vector search for several query vectors in one pass over the table: each query gets its
   * own {@code k} nearest rows, query by query (one batch each, in the order given), with a
   * {@code _query_index} column (int32, the query's position in {@code queries}) after
   * {@code _distance}. Offset and limit apply to each query's rows.
   */
  public Scan nearest(String column, List<float[]> queries, int k) {
    Objects.requireNonNull(queries, "queries");
    if (queries.isEmpty()) {
      throw new InvalidInputException("a vector search needs at least one query vector");
    }
    queries.forEach(q -> Objects.requireNonNull(q, "query vector"));
    return nearest(column, queries, true, k);
  }

  private Scan nearest(String column, List<float[]> queries, boolean several, int k) {
    Objects.requireNonNull(column, "column");
    if (k <= 0) {
      throw new InvalidInputException("a vector search needs k (the number of rows to find) "
          + "to be positive, not " + k);
    }
    List<float[]> copies = queries.stream().map(float[]::clone).toList();
    this.nearest = Optional.of(new NearestQuery(column, copies, several, k, Optional.empty(),
        false, java.util.OptionalInt.empty(), java.util.OptionalInt.empty(), true));
    return this;
  }

  /**
   * The distance metric of the vector search (default: L2 for float vectors, HAMMING for uint8;
   * with {@link #useIndex} on and a vector index on the column, the metric the index was built
   * with, as lance-core does).
   */
  public Scan metric(DistanceMetric metric) {
    Objects.requireNonNull(metric, "metric");
    this.nearest = Optional.of(nearestFor("metric").withMetric(metric));
    return this;
  }

  /**
   * Whether the {@link #filter} applies before the search (true: the k nearest of the rows the
   * filter keeps) or after it (false, the default as in lance-core: the filter is applied to the
   * k nearest rows, so fewer than k, or none, may come back).
   */
  public Scan prefilter(boolean prefilter) {
    this.nearest = Optional.of(nearestFor("prefilter").withPrefilter(prefilter));
    return this;
  }

  /**
   * How many partitions of an IVF index to probe. Carried for the index search to come; an
   * exact search probes everything, so it does not change the answer today.
   */
  public Scan nprobes(int nprobes) {
    if (nprobes <= 0) {
      throw new InvalidInputException("nprobes must be positive, not " + nprobes);
    }
    this.nearest = Optional.of(nearestFor("nprobes").withNprobes(nprobes));
    return this;
  }

  /**
   * How many times k candidates an index search re-ranks with the stored vectors. Carried for
   * the index search to come; an exact search ranks every row exactly already.
   */
  public Scan refineFactor(int factor) {
    if (factor <= 0) {
      throw new InvalidInputException("refineFactor must be positive, not " + factor);
    }
    this.nearest = Optional.of(nearestFor("refineFactor").withRefineFactor(factor));
    return this;
  }

  /**
   * Whether to search the column's vector index (default true, as in lance-core). Lancet does
   * not read vector indexes yet: with an index on the column it searches exactly instead and logs
   * a warning naming the index, so the answer is exact (never an index's approximation), only
   * slower. {@code false} always searches exactly.
   */
  public Scan useIndex(boolean useIndex) {
    this.nearest = Optional.of(nearestFor("useIndex").withUseIndex(useIndex));
    return this;
  }

  private NearestQuery nearestFor(String knob) {
    return nearest.orElseThrow(() -> new InvalidInputException(knob + "(...) sets up a vector "
        + "search: call nearest(column, query, k) first"));
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
    if (nearest.isPresent()) {
      return search().outSchema();
    }
    return plan().outSchema();
  }

  /** The scan split by fragment, each task opened on its own; tasks with no rows are left out. */
  public List<ScanTask> planTasks() {
    if (nearest.isPresent()) {
      throw new InvalidInputException("a vector search is not split into scan tasks; open() it");
    }
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
    if (nearest.isPresent()) {
      return search().open(allocator);
    }
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

  /** The vector search this scan describes, resolved against its version (and branch). */
  private NearestSearch search() {
    At at = resolver.apply(version);
    return NearestSearch.plan(at.ctx(), at.snapshot(), plan(at), nearest.orElseThrow(),
        columns.orElse(List.of()), filter, offset, limit);
  }

  private Plan plan() {
    return plan(resolver.apply(version));
  }

  private Plan plan(At at) {
    Snapshot snap = at.snapshot();
    Manifest m = snap.manifest();
    Schema schema = m.schema();
    List<Field> top = schema.topLevel();
    List<Field> projected = new ArrayList<>();
    if (columns.isEmpty()) {
      projected.addAll(top);
    } else {
      for (String name : columns.get()) {
        if (nearest.isPresent() && name.equals(NearestSearch.DISTANCE)) {
          continue; // placed by the search
        }
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
    if (filter.isEmpty() || nearest.isPresent()) { // a search binds its filter itself
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
