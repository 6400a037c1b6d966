package dev.lancet.interop.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.expr.ExpressionException;
import dev.lancet.table.expr.Predicate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.roaringbitmap.RoaringBitmap;

/**
 * Lancet's filter evaluator against lance-core 7.0.0's scanner filter on one table lance-core
 * wrote ({@link FilterTable}: every supported type, nulls in every column, three fragments).
 *
 * <p>For each predicate in {@link #AGREE}: the ids lance-core's {@code scan(filter)} returns
 * equal the ids Lancet selects when it evaluates the predicate over every row that lance-core
 * scans without a filter. For each in {@link #BOTH_REFUSE}: lance-core fails and Lancet refuses
 * with an {@link ExpressionException}. {@link #LANCET_REFUSES} and {@link #LANCET_EXTENDS} pin
 * the few places where the two differ on purpose (docs/decisions, filter semantics).
 */
class FilterConformanceTest {

  /** Predicates both evaluate, with the same rows. */
  static final List<String> AGREE =
      List.of(
          // the example
          "id % 10 = 0 AND name LIKE 'a%'",
          // comparisons, each operator, literal on either side
          "id < 5",
          "5 > id",
          "id >= 1195",
          "id <= 3 OR id >= 1197",
          "i32 = 0",
          "i32 <> 0",
          "i32 != -1000",
          "-5 < i8",
          "i64 > 0",
          "i16 >= -100 AND i16 < 100",
          "u8 > 200",
          "u16 <= 1000",
          "u32 = 4294967295",
          "u64 > 9223372036854775807",
          "u64 > i64",
          "i32 = i64",
          "i32 < f64",
          "f32 < i32",
          "f32 > 1.5",
          "f32 = 0.25",
          "f32 > 0.1",
          "f64 = 0",
          "f64 = -0.0",
          "f64 > 1000",
          "f64 <> f64",
          "f64 = f64",
          "1.5 < f64",
          "b",
          "b = true",
          "NOT b",
          "name = 'apple'",
          "name > 'b'",
          "name < 'a'",
          "ls = 'L3'",
          "ls > name",
          "bin = X'0100'",
          "NAME = 'apple'",
          "`name` = 'apple'",
          "name = \"apple\"",
          "\"name\" = 'apple'",
          "id == 5",
          // three-valued logic
          "i32 > 0 OR NULL",
          "i32 > 0 AND NULL",
          "NOT (i32 = NULL)",
          "i32 = NULL",
          "NOT NULL",
          "TRUE",
          "FALSE",
          "1 = 1",
          "b OR i32 > 0",
          "b AND i32 > 0",
          "NOT (b AND f64 > 0)",
          "NOT (b OR i16 < 0)",
          "(i32 > 0) IS NULL",
          "i32 + NULL IS NULL",
          "NULL IS NULL",
          // IS [NOT] NULL / TRUE / FALSE
          "i32 IS NULL",
          "name IS NOT NULL",
          "bin IS NULL",
          "d32 IS NULL",
          "dec IS NOT NULL",
          "b IS TRUE",
          "b IS NOT TRUE",
          "b IS FALSE",
          "b IS NOT FALSE",
          "(i32 > 0) IS TRUE",
          // IN / NOT IN
          "i32 IN (1, 2, NULL)",
          "i32 NOT IN (1, 2, NULL)",
          "i32 NOT IN (-1000, 0, 1000)",
          "id IN (1, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)",
          "name IN ('apple', 'ABC', 'a%b')",
          "name IN ('apple', NULL)",
          "name NOT IN ('apple')",
          "f64 IN (1, 2)",
          "f32 IN (0.5, 1.5)",
          "dec IN (1, 2)",
          "props.a IN (2, 5, 8)",
          // BETWEEN
          "i32 BETWEEN -10 AND 10",
          "i32 NOT BETWEEN -10 AND 10",
          "i32 BETWEEN 10 AND -10",
          "i32 BETWEEN NULL AND 5",
          "dec BETWEEN 1 AND 5",
          "d32 BETWEEN date '2024-01-01' AND date '2024-02-01'",
          // LIKE / ILIKE / escapes
          "name LIKE 'a%'",
          "name NOT LIKE 'a%'",
          "name LIKE '%e'",
          "name LIKE '%pp%'",
          "name LIKE '%'",
          "name LIKE '_'",
          "name LIKE 'a_b%'",
          "name LIKE 'a\\_b%'",
          "name LIKE 'a\\%b'",
          "name LIKE 'a\\%b' ESCAPE '\\'",
          "name LIKE '%\\\\%'",
          "name LIKE 'x\\y%'",
          "name LIKE 'x\\\\y%'",
          "name LIKE 'tail\\'",
          "name LIKE 'tail\\\\'",
          "name LIKE '\\_%'",
          "name LIKE 'ü%'",
          "name LIKE '_n%'",
          "name LIKE 'line_break%'",
          "name LIKE '%break%'",
          "name ILIKE 'a%'",
          "name ILIKE 'ÜN%'",
          "name NOT ILIKE 'a%'",
          "name ILIKE '%B%'",
          "name LIKE NULL",
          "ls LIKE 'L1%'",
          "tag LIKE 'r%'",
          "tag LIKE '%e%'",
          "tag IS NULL",
          "props.b LIKE 'b1%'",
          // arithmetic (wrapping integer semantics, integer division and modulo)
          "i32 + 1 < 0",
          "i32 * 2 > 0",
          "i32 + i32 < 0",
          "-i32 < 0",
          "-i64 < 0",
          "i64 + 1 < 0",
          "i64 * 2 > 0",
          "i8 + i8 > 100",
          "i16 * i16 > 0",
          "u8 + u8 < 10",
          "u8 - 1 > 250",
          "u32 + 1 > 4294967295",
          "i32 / 7 = -3",
          "i32 % 7 = -3",
          "i64 % 10 = 0",
          "id % 3 = 0 AND id % 5 = 0 OR id < 3",
          "i8 = 100 + 100",
          "i32 = 2 * 3",
          "2 * 3 = id",
          "id + 0.5 > 3",
          "i32 / 2.0 > 1",
          "f64 / 0 > 0",
          "f32 * 2 > f64",
          "-id < -5",
          "dec + 1 > 2",
          "dec * 2 > 1",
          "props.a + props.deep.x > 0",
          // casts
          "CAST(i32 AS BIGINT) + 1 < 0",
          "CAST(i32 AS DOUBLE) > 1.5",
          "CAST(d32 AS STRING) = '2024-01-02'",
          "CAST(ts_s AS DATE) = date '2024-01-02'",
          "CAST('2024-01-02' AS DATE) = d32",
          "CAST(dec AS DOUBLE) > 1.5",
          "dec > CAST(1.5 AS DECIMAL(10,2))",
          "dec > CAST(1.5 AS DECIMAL(5,1))",
          "dec = CAST('12.34' AS DECIMAL(10,2))",
          "CAST(u8 AS INT) - 100 > 0",
          "CAST(b AS INT) = 1",
          "CAST(i16 AS STRING) LIKE '-1%'",
          // dates and timestamps (all units, naive and zoned)
          "d32 = date '2024-01-02'",
          "d32 > date '2024-01-02'",
          "d64 > date '2024-01-02'",
          "d32 = d64",
          "d32 < ts_s",
          "ts_s > timestamp '2024-01-02 03:04:05'",
          "ts_s > timestamp '2024-01-02'",
          "ts_s > timestamp '2024-01-02T06:00:00'",
          "ts_s > date '2024-01-02'",
          "ts_ms > timestamp '2024-01-02 03:04:05.123'",
          "ts_us = timestamp '2024-01-02 03:04:05'",
          "ts_us > timestamp '2024-01-02 06:00:00'",
          "ts_us > timestamp '2024-01-02 06:00:00+02:00'",
          "ts_ns > timestamp '2024-01-02 03:04:05.123456789'",
          "ts_utc > timestamp '2024-01-02 06:00:00'",
          "ts_ny > timestamp '2024-01-02 06:00:00'",
          "ts_ny > timestamp '2024-01-02 06:00:00+02:00'",
          "ts_ny > CAST('2024-01-02 06:00:00' AS TIMESTAMP)",
          "ts_ny < ts_utc",
          "ts_ns = ts_us",
          "ts_s < ts_ms",
          "ts_s IN (timestamp '2024-01-02 03:04:05')",
          "d32 > timestamp '2024-01-02 06:00:00'",
          // nested fields
          "props.a > 10",
          "props['a'] > 10",
          "props.deep.x > 100",
          "props IS NULL",
          "props.deep IS NULL",
          "props.deep.x IS NULL AND props IS NOT NULL",
          "props.b = 'b3'",
          // fixed-size list: only IS NULL
          "vec IS NULL",
          "vec IS NOT NULL",
          // functions
          "lower(name) = 'abc'",
          "upper(name) = 'ABC'",
          "lower(tag) = 'red'",
          "length(name) = 0",
          "char_length(name) = 5",
          "character_length(name) = 7",
          "octet_length(name) = 7",
          "abs(i64) < 10",
          "abs(f64) < 2",
          "abs(dec) < 100",
          "starts_with(name, 'a')",
          "ends_with(name, 'e')",
          "coalesce(i32, 0) = 0",
          "coalesce(name, 'none') = 'none'",
          "is_valid(name)",
          "name || 'x' = 'applex'",
          // NULL-heavy combinations
          "i32 > 0 AND name IS NULL OR b IS NULL",
          "NOT (i32 > 0 AND f64 < 1) OR props.a IS NULL",
          "(f32 > 0 OR f64 > 0) AND NOT (u8 > 100 OR u16 < 1000)",
          "NOT (name LIKE 'a%' OR i8 < 0)");

  /** lance-core fails (planning or execution) and Lancet refuses. */
  static final List<String> BOTH_REFUSE =
      List.of(
          "i32 > 2.5",
          "id = 5.0",
          "i32 IN (1.5)",
          "i32 = '5'",
          "name = 5",
          "i8 > 200",
          "i32 > 3000000000",
          "u8 > -1",
          "u64 = 18446744073709551615",
          "b = 1",
          "bin = 'x'",
          "d32 = '2024-01-02'",
          "ts_s > '2024-01-02 03:04:05'",
          "dec > 1.5",
          "dec = 12.34",
          "f64 = 'NaN'",
          "i32 / 0 = 1",
          "i32 % 0 = 1",
          "abs(i32) < 10",
          "CAST(f64 AS INT) = 3",
          "CAST(name AS INT) = 3",
          "name LIKE 'a#%b' ESCAPE '#'",
          "b IS UNKNOWN",
          "id IN (SELECT 1)",
          "EXISTS (SELECT 1)",
          "CASE WHEN i32 > 0 THEN true ELSE false END",
          "name SIMILAR TO 'a'",
          "trim(name) = 'abc'",
          "substring(name, 1, 2) = 'ap'",
          "ceil(f64) = 1",
          "props.nope = 1",
          "nosuch = 1",
          "NULL",
          "id = 1 OR");

  /** lance-core 7.0.0 accepts these; Lancet refuses rather than guess (see the decision). */
  static final List<String> LANCET_REFUSES =
      List.of(
          // lance-core silently ignores everything after the first statement
          "id = 1; DROP TABLE x",
          // an ESCAPE of '' is no escape at all in lance-core; upstream's newest planner refuses it
          "name LIKE 'a%' ESCAPE ''");

  /** lance-core 7.0.0 refuses these; Lancet evaluates them (upstream's newest coercion does). */
  static final Map<String, Set<Long>> LANCET_EXTENDS = new LinkedHashMap<>();

  static {
    // dictionary columns compare with string literals (lance-core 7.0.0: "could not convert to
    // literal of type 'Dictionary(Int32, Utf8)'")
    LANCET_EXTENDS.put("tag = 'red'", ids(id -> "red".equals(FilterTable.tag(id))));
    LANCET_EXTENDS.put("tag IN ('red', 'blue')",
        ids(id -> "red".equals(FilterTable.tag(id)) || "blue".equals(FilterTable.tag(id))));
    LANCET_EXTENDS.put("tag <> 'red'",
        ids(id -> FilterTable.tag(id) != null && !"red".equals(FilterTable.tag(id))));
  }

  @TempDir static Path dir;
  static Path table;
  static final Map<String, Set<Long>> lancet = new LinkedHashMap<>();
  static final Map<String, Throwable> lancetErrors = new LinkedHashMap<>();

  @BeforeAll
  static void writeAndEvaluate() throws Exception {
    table = FilterTable.write(dir.resolve("filters"));
    List<String> all = new ArrayList<>(AGREE);
    all.addAll(LANCET_EXTENDS.keySet());
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open().allocator(alloc).uri(table.toString()).build();
        LanceScanner scanner = ds.newScan(new ScanOptions.Builder().batchSize(512).build());
        ArrowReader reader = scanner.scanBatches()) {
      Map<String, BoundPredicate> bound = new LinkedHashMap<>();
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) root.getVector("id");
        for (String p : all) {
          if (lancetErrors.containsKey(p)) {
            continue;
          }
          try {
            BoundPredicate b = bound.computeIfAbsent(p,
                s -> Predicate.parse(s).bind(root.getSchema()));
            RoaringBitmap sel = b.selection(root, reader);
            Set<Long> ids = lancet.computeIfAbsent(p, k -> new TreeSet<>());
            sel.forEach((int i) -> ids.add(id.get(i)));
          } catch (RuntimeException e) {
            lancetErrors.put(p, e);
          }
        }
      }
    }
  }

  @TestFactory
  Stream<DynamicTest> lancetSelectsTheRowsLanceCoreReturns() {
    assertThat(AGREE).hasSizeGreaterThanOrEqualTo(50).doesNotHaveDuplicates();
    return AGREE.stream().map(p -> DynamicTest.dynamicTest(p, () -> {
      Set<Long> expected = lanceIds(p);
      if (lancetErrors.containsKey(p)) {
        fail("Lancet failed on " + p + " (lance-core returns " + expected.size() + " rows)",
            lancetErrors.get(p));
      }
      assertThat(lancet.get(p)).as(p).containsExactlyElementsOf(expected);
    }));
  }

  @TestFactory
  Stream<DynamicTest> bothRefuse() {
    return BOTH_REFUSE.stream().map(p -> DynamicTest.dynamicTest(p, () -> {
      assertThatThrownBy(() -> lanceIds(p)).as("lance-core on " + p).isNotNull();
      assertThatThrownBy(() -> lancetIds(p)).as("Lancet on " + p)
          .isInstanceOf(ExpressionException.class);
    }));
  }

  @TestFactory
  Stream<DynamicTest> lancetRefusesWhatLanceCoreGuesses() {
    return LANCET_REFUSES.stream().map(p -> DynamicTest.dynamicTest(p, () -> {
      lanceIds(p); // lance-core accepts it (pinned)
      assertThatThrownBy(() -> Predicate.parse(p)).isInstanceOf(ExpressionException.class);
    }));
  }

  @TestFactory
  Stream<DynamicTest> lancetExtendsWhereLanceCoreRefuses() {
    return LANCET_EXTENDS.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      assertThatThrownBy(() -> lanceIds(e.getKey())).as("lance-core 7.0.0 refuses").isNotNull();
      assertThat(lancetErrors).doesNotContainKey(e.getKey());
      assertThat(lancet.get(e.getKey())).containsExactlyElementsOf(e.getValue());
    }));
  }

  /** The ids lance-core's scanner returns with {@code filter}. */
  static Set<Long> lanceIds(String filter) throws Exception {
    Set<Long> out = new TreeSet<>();
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open().allocator(alloc).uri(table.toString()).build();
        LanceScanner scanner = ds.newScan(new ScanOptions.Builder().columns(List.of("id"))
            .filter(filter).batchSize(512).build());
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        BigIntVector id = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  /** Lancet's ids for {@code filter} over a fresh full scan (for the refusal cases). */
  static Set<Long> lancetIds(String filter) throws Exception {
    Set<Long> out = new TreeSet<>();
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open().allocator(alloc).uri(table.toString()).build();
        LanceScanner scanner = ds.newScan(new ScanOptions.Builder().batchSize(512).build());
        ArrowReader reader = scanner.scanBatches()) {
      BoundPredicate b = null;
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        if (b == null) {
          b = Predicate.parse(filter).bind(root.getSchema());
        }
        BigIntVector id = (BigIntVector) root.getVector("id");
        b.selection(root, reader).forEach((int i) -> out.add(id.get(i)));
      }
    }
    return out;
  }

  private static Set<Long> ids(java.util.function.LongPredicate p) {
    Set<Long> out = new TreeSet<>();
    for (long id = 0; id < FilterTable.ROWS; id++) {
      if (p.test(id)) {
        out.add(id);
      }
    }
    return out;
  }
}
