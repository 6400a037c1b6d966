package dev.lancet.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.table.spi.DataFileReader;
import dev.lancet.table.spi.ReadSpec;
import dev.lancet.file.RowRange;
import dev.lancet.table.vector.ElementType;
import dev.lancet.table.vector.Hit;
import dev.lancet.table.vector.QueryVectors;
import dev.lancet.table.vector.TopK;
import dev.lancet.table.vector.VectorBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exact vector search (docs/decisions/0028), planned and checked before any data is read:
 * the live rows of every fragment, split into chunks searched in parallel (only the vector
 * column, the row ids and, with a pre-filter, the filter's columns are read), each chunk keeping
 * its own k nearest per query; the chunks' rows merged; then the selected columns read for the
 * rows found only, the post-filter applied to them, and the result assembled query by query.
 */
final class NearestSearch {
  static final String DISTANCE = "_distance";
  static final String QUERY_INDEX = "_query_index";

  private static final Logger LOG = LoggerFactory.getLogger(NearestSearch.class);

  /** Fewest rows a chunk searched on its own holds: fewer, and opening the file dominates. */
  private static final long MIN_CHUNK_ROWS = 65_536;

  private final TableContext ctx;
  private final Scan.Plan plan;
  private final NearestQuery query;
  private final Field vectorField;
  private final ElementType type;
  private final int dim;
  private final QueryVectors queries;
  private final Optional<BoundPredicate> filter;
  private final List<Field> filterFields;
  private final Schema outSchema;
  private final int distanceAt;
  private final long offset;
  private final long limit;

  private NearestSearch(TableContext ctx, Scan.Plan plan, NearestQuery query, Field vectorField,
      ElementType type, int dim, QueryVectors queries, Optional<BoundPredicate> filter,
      List<Field> filterFields, int distanceAt, long offset, long limit) {
    this.ctx = ctx;
    this.plan = plan;
    this.query = query;
    this.vectorField = vectorField;
    this.type = type;
    this.dim = dim;
    this.queries = queries;
    this.filter = filter;
    this.filterFields = filterFields;
    this.distanceAt = distanceAt;
    this.offset = offset;
    this.limit = limit;
    this.outSchema = outSchema(plan, query.several(), distanceAt);
  }

  /**
   * Checks the search against the version read, in this order (each a specific error, before
   * any data is read): the column exists and holds vectors, the metric suits its element type,
   * every query vector fits it, the filter binds.
   */
  static NearestSearch plan(TableContext ctx, Snapshot snap, Scan.Plan plan, NearestQuery q,
      List<String> selected, Optional<String> filterSql, long offset, long limit) {
    if (!plan.dictionaryValueTypes().isEmpty()) {
      throw new InvalidInputException("a vector search does not return dictionary-encoded "
          + "columns yet (" + String.join(", ", plan.projected().stream()
              .filter(f -> f.logicalType().startsWith("dict:")).map(Field::name).toList())
          + "); select other columns");
    }
    List<Field> top = plan.schema().topLevel();
    Field field = top.stream().filter(f -> f.name().equals(q.column())).findFirst()
        .orElseThrow(() -> new NotFoundException("vector column '" + q.column() + "' does not "
            + "exist at version " + plan.version() + "; the table has " + String.join(", ",
                top.stream().map(Field::name).toList())));
    Schema full = TableSchemas.toArrow(plan.schema());
    org.apache.arrow.vector.types.pojo.Field arrow = full.getFields().get(top.indexOf(field));
    Optional<ElementType> element = arrow.getType() instanceof ArrowType.FixedSizeList
        && arrow.getChildren().size() == 1
        ? ElementType.of(arrow.getChildren().get(0).getType()) : Optional.empty();
    if (element.isEmpty()) {
      throw new InvalidInputException("column '" + q.column() + "' is not a vector column (it "
          + "holds " + describe(arrow) + "); a vector search needs a fixed-size list of "
          + "float16, float32, float64 or uint8 values");
    }
    ElementType type = element.get();
    int dim = ((ArrowType.FixedSizeList) arrow.getType()).getListSize();
    DistanceMetric metric = metric(ctx, snap, q, field, type);
    if (type.isFloat() == (metric == DistanceMetric.HAMMING)) {
      throw new InvalidInputException("column '" + q.column() + "' holds " + describe(arrow)
          + ", which the " + metric + " metric does not measure: "
          + (type.isFloat() ? "use L2, COSINE or DOT" : "uint8 vectors take HAMMING"));
    }
    QueryVectors queries = QueryVectors.prepare(q.queries(), q.column(), type, dim, metric);
    Optional<BoundPredicate> filter = filterSql.map(sql -> Sql.filter(sql, full, "filter"));
    List<Field> filterFields = new ArrayList<>();
    filter.ifPresent(p -> {
      for (String name : p.columns()) {
        filterFields.add(top.stream().filter(x -> x.name().equals(name)).findFirst()
            .orElseThrow());
      }
    });
    int distanceAt = selected.indexOf(DISTANCE);
    if (distanceAt >= 0 && selected.lastIndexOf(DISTANCE) != distanceAt) {
      throw new InvalidInputException("select names " + DISTANCE + " twice");
    }
    return new NearestSearch(ctx, plan, q.withMetric(metric), field, type, dim, queries, filter,
        List.copyOf(filterFields), distanceAt < 0 ? plan.projected().size() : distanceAt,
        offset, limit);
  }

  /**
   * The metric asked for; else the one of the vector index on the column when the index is to
   * be used (as lance-core does), read from the index file; else the column's default.
   */
  private static DistanceMetric metric(TableContext ctx, Snapshot snap, NearestQuery q,
      Field field, ElementType type) {
    List<IndexSegment> indexes = snap.indices().stream()
        .filter(s -> s.keyedFields().contains(field.id()))
        .filter(s -> s.indexDetails().isEmpty()
            || s.detailsTypeUrl().endsWith("VectorIndexDetails"))
        .toList();
    if (q.useIndex() && !indexes.isEmpty()) {
      LOG.warn("vector index '{}' on column '{}' of {} is not read by Lancet yet: searching "
          + "exactly instead (the exact answer, more slowly)", indexes.get(0).name(), q.column(),
          ctx.uri());
    }
    if (q.metric().isPresent()) {
      return q.metric().get();
    }
    if (!q.useIndex() || indexes.isEmpty()) {
      return type.isFloat() ? DistanceMetric.L2 : DistanceMetric.HAMMING;
    }
    IndexSegment index = indexes.get(0);
    return indexMetric(ctx, index).orElseThrow(() -> new InvalidInputException("column '"
        + q.column() + "' has the vector index '" + index.name() + "', whose distance metric "
        + "Lancet cannot read (from _indices/" + index.uuid() + "/index.idx); lance-core "
        + "would search with that metric: name it with metric(...), or useIndex(false) for the "
        + "column's default"));
  }

  /** The metric recorded in the index file's schema metadata ({@code lance:index}). */
  private static Optional<DistanceMetric> indexMetric(TableContext ctx, IndexSegment index) {
    if (index.baseId().isPresent()) {
      return Optional.empty();
    }
    String path = "_indices/" + index.uuid() + "/index.idx";
    try (DataFileReader r = ctx.dataFiles().openReader(new ReadSpec(ctx.uri(),
        ctx.storageOptions(), path, ctx.allocator()))) {
      Map<String, String> meta = r.schema().getCustomMetadata();
      String json = meta == null ? null : meta.get("lance:index");
      if (json == null) {
        return Optional.empty();
      }
      JsonNode node = new ObjectMapper().readTree(json).get("distance_type");
      return node == null ? Optional.empty() : Optional.of(DistanceMetric.parse(node.asText()));
    } catch (IOException | RuntimeException e) {
      LOG.debug("reading the metric of index {} from {}", index.name(), path, e);
      return Optional.empty();
    }
  }

  private static String describe(org.apache.arrow.vector.types.pojo.Field f) {
    if (f.getType() instanceof ArrowType.FixedSizeList l && f.getChildren().size() == 1) {
      return "fixed-size lists of " + l.getListSize() + " " + f.getChildren().get(0).getType()
          + " values";
    }
    return f.getType().toString();
  }

  private static Schema outSchema(Scan.Plan plan, boolean several, int distanceAt) {
    List<org.apache.arrow.vector.types.pojo.Field> fields =
        new ArrayList<>(plan.outSchema().getFields().subList(0, plan.projected().size()));
    fields.add(distanceAt, new org.apache.arrow.vector.types.pojo.Field(DISTANCE,
        FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
        List.of()));
    if (several) {
      fields.add(new org.apache.arrow.vector.types.pojo.Field(QUERY_INDEX,
          FieldType.notNullable(new ArrowType.Int(32, true)), List.of()));
    }
    fields.addAll(plan.outSchema().getFields().subList(plan.projected().size(),
        plan.outSchema().getFields().size()));
    return new Schema(fields);
  }

  Schema outSchema() {
    return outSchema;
  }

  /** One fragment's live rows, or a run of them, searched by one task. */
  private record Chunk(Fragment fragment, List<RowRange> ranges) {}

  ArrowReader open(BufferAllocator allocator) {
    List<Chunk> chunks = chunks();
    List<TopK[]> found = Parallel.mapReads(ctx, chunks, this::search);
    List<List<Hit>> hits = new ArrayList<>();
    for (int q = 0; q < queries.count(); q++) {
      TopK all = new TopK(query.k());
      for (TopK[] f : found) {
        all.addAll(f[q]);
      }
      hits.add(all.sorted());
    }
    Map<Long, Fetched> rows = fetch(hits, allocator);
    List<VectorSchemaRoot> results = new ArrayList<>();
    try {
      for (int q = 0; q < hits.size(); q++) {
        VectorSchemaRoot r = assemble(q, hits.get(q), rows, allocator);
        if (r.getRowCount() > 0) {
          results.add(r);
        } else {
          r.close();
        }
      }
    } catch (RuntimeException e) {
      results.forEach(VectorSchemaRoot::close);
      throw e;
    } finally {
      rows.values().forEach(f -> f.root().close());
    }
    return new Results(allocator, outSchema, results);
  }

  /** The live rows of every fragment, in chunks of about a share of the pool's threads. */
  private List<Chunk> chunks() {
    List<Fragment> fragments = plan.manifest().fragments();
    List<List<RowRange>> live = Parallel.mapReads(ctx, fragments, f -> {
      try {
        return RowSelection.live(f.physicalRows(), DeletionFiles.current(ctx.store(), f));
      } catch (IOException e) {
        throw new UncheckedIOException("reading the deletion file of fragment " + f.id(), e);
      }
    });
    long total = live.stream().mapToLong(RowSelection::count).sum();
    long per = Math.max(MIN_CHUNK_ROWS,
        -Math.floorDiv(-total, 4L * Runtime.getRuntime().availableProcessors()));
    List<Chunk> out = new ArrayList<>();
    for (int i = 0; i < fragments.size(); i++) {
      List<RowRange> ranges = live.get(i);
      long n = RowSelection.count(ranges);
      for (long skip = 0; skip < n; skip += per) {
        out.add(new Chunk(fragments.get(i), RowSelection.slice(ranges, skip, per)));
      }
    }
    return out;
  }

  /**
   * The k nearest rows of one chunk, per query. With a pre-filter, the filter's columns are read
   * and evaluated first, and the vectors of the matching rows only are read after (a selective
   * filter then reads few vectors).
   */
  private TopK[] search(Chunk chunk) {
    int n = queries.count();
    TopK[] heaps = new TopK[n];
    for (int q = 0; q < n; q++) {
      heaps[q] = new TopK(query.k());
    }
    RoaringBitmap matching = null;
    IntFunction<List<RowRange>> ranges = gap -> chunk.ranges();
    if (filter.isPresent() && query.prefilter()) {
      RoaringBitmap m = matching(chunk);
      if (m.isEmpty()) {
        return heaps;
      }
      matching = m;
      ranges = gap -> Matches.ranges(m, gap);
    }
    List<Field> read = List.of(vectorField);
    Schema readSchema = withRowId(arrowOf(read));
    BufferAllocator allocator = ctx.allocator();
    long fragmentId = chunk.fragment().id();
    String column = query.column();
    try (FragmentRead fr = new FragmentRead(ctx, plan.schema(), chunk.fragment(), read, true,
        false, ranges, plan.batchSize(), allocator, readSchema,
        f -> FragmentRead.inlineRowIds(f, ctx.store()), null);
        VectorSchemaRoot named = VectorSchemaRoot.create(readSchema, allocator)) {
      VectorBatch vectors = new VectorBatch(type, dim);
      VectorSchemaRoot batch;
      while ((batch = fr.next()) != null) {
        long[] offsets = fr.offsets();
        load(batch, named);
        FixedSizeListVector vec = (FixedSizeListVector) named.getVector(0);
        UInt8Vector ids = (UInt8Vector) named.getVector(TableColumns.ROW_ID);
        vectors.load(vec, column);
        int rows = named.getRowCount();
        for (int r = 0; r < rows; r++) {
          // rows between matching ones come along where skipping costs more than reading
          if (vectors.isNull(r) || (matching != null && !matching.contains((int) offsets[r]))) {
            continue;
          }
          long id = ids.get(r);
          long addr = TableColumns.rowAddress(fragmentId, offsets[r]);
          for (int q = 0; q < n; q++) {
            float d = queries.distance(q, vectors, r);
            if (d <= heaps[q].bound()) {
              heaps[q].offer(d, id, addr);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("searching fragment " + fragmentId + " of " + ctx.uri(), e);
    }
    return heaps;
  }

  /** The physical offsets of the chunk's rows the filter keeps. */
  private RoaringBitmap matching(Chunk chunk) {
    Schema schema = arrowOf(filterFields);
    RoaringBitmap out = new RoaringBitmap();
    BufferAllocator allocator = ctx.allocator();
    try (FragmentRead fr = new FragmentRead(ctx, plan.schema(), chunk.fragment(), filterFields,
        false, false, chunk.ranges(), plan.batchSize(), allocator, schema,
        f -> Optional.empty());
        VectorSchemaRoot named = VectorSchemaRoot.create(schema, allocator)) {
      VectorSchemaRoot batch;
      while ((batch = fr.next()) != null) {
        long[] offsets = fr.offsets();
        load(batch, named);
        int[] selected = filter.get().selection(named).toArray();
        for (int k = 0; k < selected.length; k++) {
          selected[k] = (int) offsets[selected[k]];
        }
        out.addN(selected, 0, selected.length);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("evaluating the filter on fragment "
          + chunk.fragment().id() + " of " + ctx.uri(), e);
    }
    return out;
  }

  /** The rows found, read back per fragment: the selected columns and the post-filter's. */
  private record Fetched(VectorSchemaRoot root, Map<Long, Integer> indexOf,
      RoaringBitmap passes) {}

  private Map<Long, Fetched> fetch(List<List<Hit>> hits, BufferAllocator allocator) {
    Map<Long, TreeSet<Long>> wanted = new TreeMap<>();
    for (List<Hit> h : hits) {
      for (Hit hit : h) {
        wanted.computeIfAbsent(hit.rowAddress() >>> 32, x -> new TreeSet<>())
            .add(hit.rowAddress() & 0xFFFF_FFFFL);
      }
    }
    boolean postFilter = filter.isPresent() && !query.prefilter();
    List<Field> read = new ArrayList<>(plan.projected());
    if (postFilter) {
      filterFields.stream().filter(f -> !read.contains(f)).forEach(read::add);
    }
    Schema schema = arrowOf(read);
    Map<Long, Fragment> byId = new HashMap<>();
    plan.manifest().fragments().forEach(f -> byId.put(f.id(), f));
    List<Map.Entry<Long, TreeSet<Long>>> work = new ArrayList<>(wanted.entrySet());
    Map<Long, Fetched> out = new LinkedHashMap<>();
    List<Fetched> fetched = Parallel.mapReads(ctx, work, e -> {
      Fragment f = byId.get(e.getKey());
      List<RowRange> ranges = new ArrayList<>();
      for (long o : e.getValue()) {
        RowRange last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
        if (last != null && last.end() == o) {
          ranges.set(ranges.size() - 1, new RowRange(last.start(), o + 1));
        } else {
          ranges.add(new RowRange(o, o + 1));
        }
      }
      int count = e.getValue().size();
      VectorSchemaRoot held = VectorSchemaRoot.create(schema, allocator);
      try (FragmentRead fr = new FragmentRead(ctx, plan.schema(), f, read, false, false, ranges,
          count, allocator, schema, x -> Optional.empty())) {
        VectorSchemaRoot batch = fr.next();
        if (batch == null || batch.getRowCount() != count) {
          throw new LanceTableException("fragment " + f.id() + ": reading back " + count
              + " rows a vector search found returned " + (batch == null ? 0
                  : batch.getRowCount()));
        }
        long[] offsets = fr.offsets();
        load(batch, held);
        Map<Long, Integer> indexOf = new HashMap<>();
        for (int i = 0; i < offsets.length; i++) {
          indexOf.put(offsets[i], i);
        }
        RoaringBitmap passes = postFilter ? filter.get().selection(held) : null;
        return new Fetched(held, indexOf, passes);
      } catch (IOException ex) {
        held.close();
        throw new UncheckedIOException("fragment " + f.id() + ": reading back the rows a vector "
            + "search found", ex);
      } catch (RuntimeException ex) {
        held.close();
        throw ex;
      }
    });
    for (int i = 0; i < work.size(); i++) {
      out.put(work.get(i).getKey(), fetched.get(i));
    }
    return out;
  }

  /** Query {@code q}'s output rows: post-filtered, then offset and limit applied. */
  private VectorSchemaRoot assemble(int q, List<Hit> hits, Map<Long, Fetched> rows,
      BufferAllocator allocator) {
    List<Hit> kept = new ArrayList<>();
    List<Fetched> from = new ArrayList<>();
    List<Integer> at = new ArrayList<>();
    long skip = offset;
    for (Hit h : hits) {
      if (kept.size() >= limit) {
        break;
      }
      Fetched f = rows.get(h.rowAddress() >>> 32);
      int i = f.indexOf().get(h.rowAddress() & 0xFFFF_FFFFL);
      if (f.passes() != null && !f.passes().contains(i)) {
        continue;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      kept.add(h);
      from.add(f);
      at.add(i);
    }
    int n = kept.size();
    VectorSchemaRoot out = VectorSchemaRoot.create(outSchema, allocator);
    try {
      int projected = plan.projected().size();
      for (int c = 0; c < projected; c++) {
        String name = plan.projected().get(c).name();
        FieldVector dst = out.getVector(c < distanceAt ? c : c + 1);
        dst.setInitialCapacity(n);
        dst.allocateNew();
        for (int j = 0; j < n; j++) {
          dst.copyFromSafe(at.get(j), j, from.get(j).root().getVector(name));
        }
        dst.setValueCount(n);
      }
      Float4Vector dist = (Float4Vector) out.getVector(DISTANCE);
      dist.allocateNew(n);
      for (int j = 0; j < n; j++) {
        dist.set(j, kept.get(j).distance());
      }
      dist.setValueCount(n);
      if (query.several()) {
        IntVector qi = (IntVector) out.getVector(QUERY_INDEX);
        qi.allocateNew(n);
        for (int j = 0; j < n; j++) {
          qi.set(j, q);
        }
        qi.setValueCount(n);
      }
      if (plan.withRowId()) {
        UInt8Vector v = (UInt8Vector) out.getVector(TableColumns.ROW_ID);
        v.allocateNew(n);
        for (int j = 0; j < n; j++) {
          v.set(j, kept.get(j).rowId());
        }
        v.setValueCount(n);
      }
      if (plan.withRowAddr()) {
        UInt8Vector v = (UInt8Vector) out.getVector(TableColumns.ROW_ADDR);
        v.allocateNew(n);
        for (int j = 0; j < n; j++) {
          v.set(j, kept.get(j).rowAddress());
        }
        v.setValueCount(n);
      }
      out.setRowCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  private Schema arrowOf(List<Field> fields) {
    Schema full = TableSchemas.toArrow(plan.schema());
    List<Field> top = plan.schema().topLevel();
    List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
    for (Field f : fields) {
      out.add(full.getFields().get(top.indexOf(f)));
    }
    return new Schema(out);
  }

  private static Schema withRowId(Schema s) {
    List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>(s.getFields());
    out.add(new org.apache.arrow.vector.types.pojo.Field(TableColumns.ROW_ID,
        FieldType.notNullable(new ArrowType.Int(64, false)), List.of()));
    return new Schema(out);
  }

  /** Moves {@code batch}'s buffers (shared, not copied) into {@code into}'s vectors. */
  private static void load(VectorSchemaRoot batch, VectorSchemaRoot into) {
    try (ArrowRecordBatch rb = new VectorUnloader(batch).getRecordBatch()) {
      new VectorLoader(into).load(rb);
    }
  }

  /** The search's result batches, one per query that found rows. */
  private static final class Results extends ArrowReader {
    private final Schema schema;
    private final List<VectorSchemaRoot> batches;
    private int next;

    Results(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
      super(allocator);
      this.schema = schema;
      this.batches = new ArrayList<>(batches);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (next >= batches.size()) {
        return false;
      }
      try (VectorSchemaRoot b = batches.get(next)) {
        batches.set(next++, null);
        load(b, getVectorSchemaRoot());
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
      for (int i = next; i < batches.size(); i++) {
        batches.get(i).close();
      }
      next = batches.size();
    }

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
