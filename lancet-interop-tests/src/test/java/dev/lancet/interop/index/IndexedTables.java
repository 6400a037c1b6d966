package dev.lancet.interop.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.index.Index;
import org.lance.index.IndexDescription;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.PQBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * Tables that Lancet writes and lance-core 7.0.0 indexes, and lance-core's view of them, for the
 * compaction-and-index tests (docs/decisions/0026). Rows: {@code id} (int64), {@code cat}
 * ({@code "c" + id % 5}), {@code vec} and {@code vec2} (8 floats each, pseudo-random per id and
 * column, so every distance is distinct).
 */
final class IndexedTables {
  static final int DIM = 8;

  private IndexedTables() {}

  static Schema schema() {
    return new Schema(List.of(
        Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("cat", ArrowType.Utf8.INSTANCE),
        vector("vec"), vector("vec2")));
  }

  private static Field vector(String name) {
    return new Field(name, FieldType.notNullable(new ArrowType.FixedSizeList(DIM)),
        List.of(Field.notNullable("item",
            new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
  }

  static float[] vec(long id, String column) {
    SplittableRandom r = new SplittableRandom(id * 1_000_003L + column.hashCode());
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) r.nextDouble();
    }
    return v;
  }

  /** Rows {@code start .. start + count - 1}, made as they are read. */
  static final class Rows extends ArrowReader {
    private final long start;
    private final long count;
    private long produced;

    Rows(BufferAllocator allocator, long start, long count) {
      super(allocator);
      this.start = start;
      this.count = count;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (produced >= count) {
        return false;
      }
      int n = (int) Math.min(256, count - produced);
      VectorSchemaRoot root = getVectorSchemaRoot();
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector cat = (VarCharVector) root.getVector("cat");
      for (int i = 0; i < n; i++) {
        long v = start + produced + i;
        id.setSafe(i, v);
        cat.setSafe(i, ("c" + v % 5).getBytes(StandardCharsets.UTF_8));
      }
      for (String column : List.of("vec", "vec2")) {
        FixedSizeListVector list = (FixedSizeListVector) root.getVector(column);
        Float4Vector items = (Float4Vector) list.getDataVector();
        for (int i = 0; i < n; i++) {
          list.setNotNull(i);
          float[] f = vec(start + produced + i, column);
          for (int j = 0; j < DIM; j++) {
            items.setSafe(i * DIM + j, f[j]);
          }
        }
        items.setValueCount(n * DIM);
      }
      root.setRowCount(n);
      produced += n;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return schema();
    }
  }

  /** A Lancet table of rows {@code 0 .. rows - 1} in fragments of {@code perFragment} rows. */
  static void create(Path dir, boolean stableRowIds, long rows, long perFragment) {
    try (BufferAllocator alloc = new RootAllocator(); Rows data = new Rows(alloc, 0, rows);
        LanceTable t = LanceTable.create(dir.toString(), data, CreateOptions.builder()
            .stableRowIds(stableRowIds).maxRowsPerFile(perFragment).build())) {
      assertThat(t.countRows()).isEqualTo(rows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Rows {@code start .. start + count - 1} appended by Lancet as one fragment. */
  static void append(Path dir, long start, long count) {
    try (BufferAllocator alloc = new RootAllocator(); Rows data = new Rows(alloc, start, count);
        LanceTable t = LanceTable.open(dir.toString())) {
      t.append(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The index kinds the tests build with lance-core, and the column each is on. */
  enum Kind {
    IVF_FLAT("vec"), IVF_PQ("vec2"), BTREE("id"), BITMAP("cat"), ZONEMAP("cat");

    final String column;

    Kind(String column) {
      this.column = column;
    }

    boolean vector() {
      return this == IVF_FLAT || this == IVF_PQ;
    }
  }

  /** lance-core builds index {@code name} of {@code kind} over every fragment of the table. */
  static void buildIndex(Path dir, String name, Kind kind) {
    IndexParams params = switch (kind) {
      case IVF_FLAT -> IndexParams.builder()
          .setVectorIndexParams(VectorIndexParams.ivfFlat(2, DistanceType.L2)).build();
      case IVF_PQ -> IndexParams.builder().setVectorIndexParams(VectorIndexParams
          .withIvfPqParams(DistanceType.L2, new IvfBuildParams.Builder().setNumPartitions(2)
              .build(), new PQBuildParams.Builder().setNumSubVectors(2).setNumBits(8).build()))
          .build();
      case BTREE -> IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("btree"))
          .build();
      case BITMAP -> IndexParams.builder()
          .setScalarIndexParams(ScalarIndexParams.create("bitmap")).build();
      case ZONEMAP -> IndexParams.builder()
          .setScalarIndexParams(ScalarIndexParams.create("zonemap")).build();
    };
    IndexType type = IndexType.valueOf(kind.name());
    lance(dir, ds -> ds.createIndex(IndexOptions.builder(List.of(kind.column), type, params)
        .withIndexName(name).build()));
  }

  static <T> T lance(Path dir, java.util.function.Function<Dataset, T> body) {
    return LanceDatasets.withDataset(dir, Optional.empty(), body);
  }

  /** Per index name (describeIndices): the fragments its segments cover, and their uuids. */
  record Coverage(TreeSet<Integer> fragments, TreeSet<String> uuids) {}

  static Map<String, Coverage> coverage(Path dir) {
    return lance(dir, ds -> {
      Map<String, Coverage> out = new TreeMap<>();
      for (IndexDescription d : ds.describeIndices()) {
        Coverage c = new Coverage(new TreeSet<>(), new TreeSet<>());
        for (Index segment : d.getSegments()) {
          c.fragments().addAll(segment.fragments().orElseThrow(
              () -> new AssertionError("index " + d.getName() + " records no coverage")));
          c.uuids().add(segment.uuid().toString());
        }
        out.put(d.getName(), c);
      }
      assertThat(out.keySet()).as("listIndexes").isEqualTo(new TreeSet<>(ds.listIndexes()));
      return out;
    });
  }

  /** Fragment id to live rows, as lance-core reads the table. */
  static Map<Integer, Integer> fragments(Path dir) {
    return lance(dir, ds -> {
      Map<Integer, Integer> out = new TreeMap<>();
      ds.getFragments().forEach(f -> out.put(f.getId(), f.countRows()));
      return out;
    });
  }

  /** Rows lance-core counts as not covered by index {@code name}. */
  static long unindexedRows(Path dir, String name) {
    return lance(dir, ds -> ((Number) ds.getIndexStatistics(name).get("num_unindexed_rows"))
        .longValue());
  }

  /** An answer: the ids in order, and whether an index served it. */
  record Answer(List<Long> ids, boolean indexed) {}

  /**
   * The {@code k} nearest rows to {@code key} in {@code column}, through its index (every
   * partition probed and, for PQ, every candidate re-ranked exactly, so the answer is exact) or
   * by brute force.
   */
  static Answer nearest(Path dir, String column, float[] key, int k, boolean useIndex) {
    Query q = new Query.Builder().setColumn(column).setKey(key).setK(k).setNprobes(2)
        .setRefineFactor(10_000).setUseIndex(useIndex).build();
    return scan(dir, new ScanOptions.Builder().columns(List.of("id")).nearest(q)
        .collectStats(true).build(), false);
  }

  /** The ids of the rows matching {@code filter}, through a scalar index or not, sorted. */
  static Answer filter(Path dir, String filter, boolean useScalarIndex) {
    return scan(dir, new ScanOptions.Builder().columns(List.of("id")).filter(filter)
        .useScalarIndex(useScalarIndex).collectStats(true).build(), true);
  }

  @SuppressWarnings("try")
  private static Answer scan(Path dir, ScanOptions options, boolean sort) {
    return lance(dir, ds -> {
      List<Long> ids = new ArrayList<>();
      try (LanceScanner scanner = ds.newScan(options); ArrowReader r = scanner.scanBatches()) {
        while (r.loadNextBatch()) {
          BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
          for (int i = 0; i < id.getValueCount(); i++) {
            ids.add(id.get(i));
          }
        }
        if (sort) {
          ids.sort(null);
        }
        return new Answer(ids, scanner.getStats().orElseThrow().getIndexComparisons() > 0);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** A byte copy of a table directory. */
  static Path copy(Path from, Path to) {
    try (var files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
