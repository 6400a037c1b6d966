package dev.lancet.interop.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancet.cli.Main;
import dev.lancet.interop.vector.ExactSearchDifferentialTest.Result;
import dev.lancet.interop.vector.ExactSearchDifferentialTest.Search;
import dev.lancet.interop.vector.VectorTables.Element;
import dev.lancet.interop.vector.VectorTables.Spec;
import dev.lancet.table.DistanceMetric;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.LanceTableException;
import dev.lancet.table.NotFoundException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;

/**
 * The rest of issue 27's exact search: bad input refused before any data is read, Hamming on
 * uint8 vectors (which lance-core 7.0.0's Java API cannot search: checked against a reference
 * computed here from the rows lance-core reads), a table with a vector index (exact fallback,
 * the index's metric by default, as lance-core), and {@code lancet search} against lance-core.
 */
class VectorSearchBehaviourTest {
  static BufferAllocator alloc;
  static Path root;

  @BeforeAll
  static void setUp() throws Exception {
    alloc = new RootAllocator();
    root = Files.createTempDirectory("lancet-vector-behaviour");
  }

  @AfterAll
  static void tearDown() {
    alloc.close();
    ExactSearchDifferentialTest.deleteRecursively(root);
  }

  static Path table(String name, Spec spec, long seed) throws Exception {
    Path dir = root.resolve(name);
    VectorTables.create(dir, alloc, new SplittableRandom(seed), spec, true, true);
    return dir;
  }

  /** Each bad input fails with its own message on a table whose data files are gone. */
  @Test
  void badInputIsRefusedBeforeAnyDataIsRead() throws Exception {
    Path dir = table("bad", new Spec(Element.F32, 4, 200, 50, false, 0.1, false, false), 1);
    try (Stream<Path> files = Files.list(dir.resolve("data"))) {
      for (Path f : files.toList()) {
        Files.delete(f); // any read of data would now fail with an I/O error
      }
    }
    float[] ok = {0.1f, 0.2f, 0.3f, 0.4f};
    try (LanceTable t = LanceTable.open(dir.toString())) {
      List<Object[]> cases = List.of(
          new Object[] {(Consumer<LanceTable>) x -> x.newScan()
              .nearest("vec", new float[] {1, 2, 3}, 5).open(),
              InvalidInputException.class, "has 3 values, but column 'vec' holds vectors of 4"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("name", ok, 5).open(),
              InvalidInputException.class, "column 'name' is not a vector column"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("nope", ok, 5).open(),
              NotFoundException.class, "vector column 'nope' does not exist"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", ok, 0),
              InvalidInputException.class, "k (the number of rows to find) to be positive, not 0"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", ok, -3),
              InvalidInputException.class, "positive, not -3"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan()
              .nearest("vec", new float[] {0, Float.NaN, 0, 0}, 5).open(),
              InvalidInputException.class, "has NaN at position 1"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan()
              .nearest("vec", List.of(ok, new float[] {Float.POSITIVE_INFINITY, 0, 0, 0}), 5)
              .open(), InvalidInputException.class, "query vector 1 has Infinity at position 0"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", ok, 5)
              .metric(DistanceMetric.HAMMING).open(), InvalidInputException.class,
              "which the HAMMING metric does not measure: use L2, COSINE or DOT"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan()
              .nearest("vec", new float[4], 5).metric(DistanceMetric.COSINE).open(),
              InvalidInputException.class, "is all zeros"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().metric(DistanceMetric.L2),
              InvalidInputException.class, "call nearest(column, query, k) first"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", ok, 5).nprobes(0),
              InvalidInputException.class, "nprobes must be positive, not 0"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", ok, 5)
              .refineFactor(-1), InvalidInputException.class, "refineFactor must be positive"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", List.of(), 5),
              InvalidInputException.class, "at least one query vector"},
          new Object[] {(Consumer<LanceTable>) x -> x.newScan().nearest("vec", ok, 5)
              .filter("nope > 1").open(), LanceTableException.class, "nope"});
      for (Object[] c : cases) {
        @SuppressWarnings("unchecked")
        Consumer<LanceTable> call = (Consumer<LanceTable>) c[0];
        assertThatThrownBy(() -> call.accept(t)).as((String) c[2])
            .isInstanceOf((Class<?>) c[1]).hasMessageContaining((String) c[2]);
      }
      // And a valid search does read, so the table really has no data left to read.
      assertThatThrownBy(() -> t.newScan().nearest("vec", ok, 5).open())
          .isNotInstanceOf(InvalidInputException.class);
    }
  }

  /**
   * Hamming on uint8 vectors: lance-core 7.0.0's Java {@code Query} carries the key as float32,
   * which its nearest refuses for uint8 columns (silently: the scan then has no _distance), so
   * the oracle here is the Hamming distance computed from the vectors lance-core reads.
   */
  @Test
  void hammingOnUint8VectorsRanksAsTheReferenceOnLanceCoresRows() throws Exception {
    for (int dim : new int[] {1, 8, 16, 33}) {
      long seed = 7000 + dim;
      System.out.println("[exact-search hamming] seed=" + seed + " dim=" + dim);
      Path dir = table("u8-" + dim, new Spec(Element.U8, dim, 500, 120, dim % 2 == 0, 0.1,
          false, false), seed);
      List<long[]> ids = new ArrayList<>();
      List<byte[]> vecs = new ArrayList<>();
      try (Dataset ds = Dataset.open(dir.toString(), alloc)) {
        try (LanceScanner sc = ds.newScan(new ScanOptions.Builder().withRowId(true)
            .columns(List.of("vec")).build()); ArrowReader r = sc.scanBatches()) {
          while (r.loadNextBatch()) {
            VectorSchemaRoot b = r.getVectorSchemaRoot();
            FixedSizeListVector v = (FixedSizeListVector) b.getVector("vec");
            UInt8Vector rid = (UInt8Vector) b.getVector("_rowid");
            for (int i = 0; i < b.getRowCount(); i++) {
              if (v.isNull(i)) {
                continue;
              }
              byte[] bytes = new byte[dim];
              for (int j = 0; j < dim; j++) {
                bytes[j] = ((org.apache.arrow.vector.UInt1Vector) v.getDataVector())
                    .get(i * dim + j);
              }
              ids.add(new long[] {rid.get(i)});
              vecs.add(bytes);
            }
          }
        }
        // lance-core cannot run this search: pinned, so a lance-core that can shows up here.
        Query q = new Query.Builder().setColumn("vec").setKey(new float[dim]).setK(3)
            .setUseIndex(false).setDistanceType(DistanceType.Hamming).build();
        try (LanceScanner sc = ds.newScan(new ScanOptions.Builder().nearest(q).build());
            ArrowReader r = sc.scanBatches()) {
          assertThat(r.getVectorSchemaRoot().getSchema().getFields().stream()
              .map(f -> f.getName())).doesNotContain("_distance");
        }
      }
      SplittableRandom rnd = new SplittableRandom(seed);
      try (LanceTable t = LanceTable.open(dir.toString())) {
        for (int k : new int[] {1, 5, 40, 1000}) {
          float[] query = new float[dim];
          byte[] qb = new byte[dim];
          for (int j = 0; j < dim; j++) {
            qb[j] = (byte) rnd.nextInt(256);
            query[j] = qb[j] & 0xff;
          }
          List<long[]> expected = new ArrayList<>();
          for (int i = 0; i < ids.size(); i++) {
            long bits = 0;
            for (int j = 0; j < dim; j++) {
              bits += Integer.bitCount((qb[j] ^ vecs.get(i)[j]) & 0xff);
            }
            expected.add(new long[] {bits, ids.get(i)[0]});
          }
          expected.sort(Comparator.<long[]>comparingLong(x -> x[0])
              .thenComparing((a, b) -> Long.compareUnsigned(a[1], b[1])));
          expected = expected.subList(0, Math.min(k, expected.size()));
          Result ours;
          try (ArrowReader r = t.newScan().select("id").nearest("vec", query, k).withRowId()
              .open()) { // HAMMING is the default for uint8
            ours = ExactSearchDifferentialTest.read(r);
          }
          assertThat(ours.rowIds()).as("dim " + dim + " k " + k)
              .containsExactlyElementsOf(expected.stream().map(x -> x[1]).toList());
          assertThat(ours.distances()).as("dim " + dim + " k " + k)
              .containsExactlyElementsOf(expected.stream().map(x -> (float) x[0]).toList());
        }
        assertThatThrownBy(() -> t.newScan().nearest("vec", new float[dim], 3)
            .metric(DistanceMetric.L2).open()).isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("uint8 vectors take HAMMING");
        float[] bad = new float[dim];
        bad[0] = 256;
        assertThatThrownBy(() -> t.newScan().nearest("vec", bad, 3).open())
            .isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("integer from 0 to 255");
      }
    }
  }

  /**
   * With a vector index on the column: Lancet searches exactly (it reads no vector index yet),
   * by default with the index's metric as lance-core does, so its answer is lance-core's exact
   * answer with that metric; and with useIndex(false), L2 as lance-core.
   */
  @Test
  void withAVectorIndexTheSearchIsExactWithTheIndexsMetric() throws Exception {
    Path dir = table("indexed", new Spec(Element.F32, 8, 600, 600, false, 0.05, false, false),
        99);
    try (Dataset ds = Dataset.open(dir.toString(), alloc)) {
      ds.createIndex(List.of("vec"), IndexType.IVF_FLAT, Optional.of("vec_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.ivfFlat(2,
              DistanceType.Dot)).build(), true);
    }
    float[] q = {0.5f, -0.25f, 0.1f, 0.9f, -0.7f, 0.3f, 0.2f, -0.1f};
    try (LanceTable t = LanceTable.open(dir.toString());
        Dataset ds = Dataset.open(dir.toString(), alloc)) {
      Search dot = new Search(List.of(q), 10, DistanceMetric.DOT, Optional.empty(), false,
          Optional.of(List.of("id")), Optional.empty(), Optional.empty());
      Result ours;
      try (ArrowReader r = t.newScan().select("id").nearest("vec", q, 10).withRowId().open()) {
        ours = ExactSearchDifferentialTest.read(r); // no metric: the index's (dot)
      }
      ExactSearchDifferentialTest.compare("indexed, default metric", ours,
          ExactSearchDifferentialTest.lanceCore(ds, dot, q), Element.F32, DistanceMetric.DOT);
      Search l2 = new Search(List.of(q), 10, DistanceMetric.L2, Optional.empty(), false,
          Optional.of(List.of("id")), Optional.empty(), Optional.empty());
      try (ArrowReader r = t.newScan().select("id").nearest("vec", q, 10).useIndex(false)
          .withRowId().open()) {
        ours = ExactSearchDifferentialTest.read(r); // useIndex(false): the column's default
      }
      ExactSearchDifferentialTest.compare("indexed, useIndex(false)", ours,
          ExactSearchDifferentialTest.lanceCore(ds, l2, q), Element.F32, DistanceMetric.L2);
    }
  }

  /** {@code asOfVersion} and {@code asOfTag} search that version, as lance-core opened at it. */
  @Test
  void anOlderVersionIsSearchedAsLanceCoreSearchesIt() throws Exception {
    Path dir = table("versions", new Spec(Element.F32, 5, 400, 90, false, 0.1, true, false), 11);
    float[] q = {1, 0, 0, -1, 1};
    long before;
    try (LanceTable t = LanceTable.open(dir.toString())) {
      before = t.version();
      t.tags().create("before", before);
      t.delete("cat < 5");
    }
    Search s = new Search(List.of(q), 15, DistanceMetric.L2, Optional.empty(), false,
        Optional.of(List.of("id", "cat")), Optional.empty(), Optional.empty());
    Result theirs = dev.lancet.datafile.lance.LanceDatasets.withDataset(dir,
        Optional.of(before), ds -> {
          try {
            return ExactSearchDifferentialTest.lanceCore(ds, s, q);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    try (LanceTable t = LanceTable.open(dir.toString())) {
      for (boolean byTag : new boolean[] {false, true}) {
        dev.lancet.table.Scan scan = t.newScan().select("id", "cat").nearest("vec", q, 15)
            .withRowId();
        if (byTag) {
          scan.asOfTag("before");
        } else {
          scan.asOfVersion(before);
        }
        try (ArrowReader r = scan.open()) {
          ExactSearchDifferentialTest.compare("version " + before + (byTag ? " by tag" : ""),
              ExactSearchDifferentialTest.read(r), theirs, Element.F32, DistanceMetric.L2);
        }
      }
      try (ArrowReader r = t.newScan().select("id", "cat").nearest("vec", q, 15).withRowId()
          .open()) {
        Result now = ExactSearchDifferentialTest.read(r);
        assertThat(now.rows()).allSatisfy(row -> assertThat(row.get("cat")).satisfiesAnyOf(
            c -> assertThat(c).isEqualTo("null"), c -> assertThat(Integer.parseInt(c))
                .isGreaterThanOrEqualTo(5)));
        assertThat(theirs.rows()).anySatisfy(row -> assertThat(row.get("cat")).isIn("0", "1",
            "2", "3", "4"));
      }
    }
  }

  /** {@code lancet search --format json} returns lance-core's rows. */
  @Test
  void theSearchCommandPrintsLanceCoresRows() throws Exception {
    Path dir = table("cli", new Spec(Element.F32, 3, 300, 70, true, 0.1, true, false), 5);
    float[] q = {1, 0, -1};
    Search s = new Search(List.of(q), 7, DistanceMetric.COSINE, Optional.of("cat < 5"), true,
        Optional.of(List.of("id", "name")), Optional.empty(), Optional.empty());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(
        "search", dir.toString(), "--column", "vec", "--vector", "[1, 0, -1]", "-k", "7",
        "--metric", "cosine", "--where", "cat < 5", "--prefilter", "--columns", "id,name",
        "--with-row-id", "--format", "json");
    assertThat(code).as(err.toString()).isZero();
    JsonNode rows = new ObjectMapper().readTree(out.toString());
    Result theirs;
    try (Dataset ds = Dataset.open(dir.toString(), alloc)) {
      theirs = ExactSearchDifferentialTest.lanceCore(ds, s, q);
    }
    assertThat(rows.size()).isEqualTo(theirs.rows().size()).isPositive();
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      assertThat(row.get("_rowid").asLong()).isEqualTo(theirs.rowIds().get(i));
      assertThat((float) row.get("_distance").asDouble()).isEqualTo(theirs.distances().get(i));
      assertThat(row.get("name").asText()).isEqualTo(theirs.rows().get(i).get("name"));
    }
    StringWriter err2 = new StringWriter();
    int bad = Main.commandLine(new PrintWriter(new StringWriter(), true),
        new PrintWriter(err2, true)).execute("search", dir.toString(), "--column", "vec",
        "--vector", "[1, 2]");
    assertThat(bad).isNotZero();
    assertThat(err2.toString()).contains("has 2 values, but column 'vec' holds vectors of 3");
  }
}
