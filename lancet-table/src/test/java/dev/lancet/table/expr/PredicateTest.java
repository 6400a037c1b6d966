package dev.lancet.table.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.table.expr.Batches.Row;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PredicateTest {

  // rows: 0..5
  static final List<Row> ROWS =
      List.of(
          new Row(1, 10L, 0.5, "apple", true),
          new Row(null, 20L, -0.0, "Apricot", false),
          new Row(3, null, Double.NaN, null, null),
          new Row(-4, 40L, 2.0, "a%b", true),
          new Row(5, -50L, null, "banana", false),
          new Row(Integer.MAX_VALUE, Long.MAX_VALUE, 1e300, "", null));

  BufferAllocator alloc;
  VectorSchemaRoot batch;

  @BeforeEach
  void setUp() {
    alloc = new RootAllocator();
    batch = Batches.of(alloc, ROWS);
  }

  @AfterEach
  void tearDown() {
    batch.close();
    assertThat(alloc.getAllocatedMemory()).isZero();
    alloc.close();
  }

  List<Integer> rows(String sql) {
    List<Integer> out = new ArrayList<>();
    Predicate.parse(sql).bind(Batches.SCHEMA).selection(batch).forEach((int i) -> out.add(i));
    return out;
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "a = 1 ; 0",
        "a <> 1 ; 2,3,4,5",
        "a != 1 ; 2,3,4,5",
        "a < 3 ; 0,3",
        "a <= 3 ; 0,2,3",
        "a > 3 ; 4,5",
        "a >= 3 ; 2,4,5",
        "3 < a ; 4,5",
        "a == 5 ; 4",
        // three-valued logic: NULL is never selected, NOT NULL is NULL
        "a > 0 OR NULL ; 0,2,4,5",
        "a > 0 AND NULL ; none",
        "NOT (a > 0) ; 3",
        "NOT (a = NULL) ; none",
        "t OR a > 2 ; 0,2,3,4,5",
        "t AND a > 0 ; 0",
        "NOT t ; 1,4",
        "t IS NULL ; 2,5",
        "t IS NOT TRUE ; 1,2,4,5",
        "t IS FALSE ; 1,4",
        "t IS NOT FALSE ; 0,2,3,5",
        "(a > 2) IS NULL ; 1",
        "a IS NULL ; 1",
        "b IS NOT NULL ; 0,1,3,4,5",
        // IN / BETWEEN
        "a IN (1, 3, 7) ; 0,2",
        "a IN (1, NULL) ; 0",
        "a NOT IN (1, 3) ; 3,4,5",
        "a NOT IN (1, NULL) ; none",
        "a BETWEEN 1 AND 3 ; 0,2",
        "a NOT BETWEEN 1 AND 3 ; 3,4,5",
        "s IN ('apple', 'banana') ; 0,4",
        // LIKE
        "s LIKE 'a%' ; 0,3",
        "s LIKE 'A%' ; 1",
        "s ILIKE 'a%' ; 0,1,3",
        "s NOT LIKE 'a%' ; 1,4,5",
        "s LIKE '%an%' ; 4",
        "s LIKE '%e' ; 0",
        "s LIKE 'a\\%b' ; 3",
        "s LIKE 'a_b' ; 3",
        "s LIKE '' ; 5",
        "s LIKE '_pple' ; 0",
        // arithmetic: wrapping, truncating division, modulo sign
        "a + 1 < 0 ; 3",  // int32 + int64 literal: no wrap (not top-level)
        "a + 1 + 0 < a ; none",
        "b + 1 < 0 ; 4,5",
        "a * 2 < 0 ; 3",
        "-a > 0 ; 3",
        "a / 2 = -2 ; 3",
        "a % 3 = -1 ; 3",
        "b % 20 = 0 ; 1,3",
        // floats: totalOrder (NaN largest and equal to itself, -0.0 below 0.0)
        "f > 1 ; 2,3,5",
        "f = f ; 0,1,2,3,5",
        "f = 0 ; none",
        "f = -0.0 ; 1",
        "f < 0 ; 1",
        // casts, functions, nested
        "CAST(a AS BIGINT) + 1 < 0 ; 3",
        "CAST(s AS STRING) = 'apple' ; 0",
        "lower(s) = 'apricot' ; 1",
        "length(s) = 0 ; 5",
        "coalesce(a, 0) = 0 ; 1",
        "abs(b) = 50 ; 4",
        "starts_with(s, 'ban') ; 4",
        "s || '!' = 'apple!' ; 0",
        "TRUE ; 0,1,2,3,4,5",
        "FALSE ; none",
        "a IS DISTINCT FROM 1 ; 1,2,3,4,5",
        "a IS NOT DISTINCT FROM NULL ; 1",
      })
  void selects(String sql, String expected) {
    List<Integer> want = new ArrayList<>();
    if (!expected.equals("none")) {
      for (String x : expected.split(",")) {
        want.add(Integer.parseInt(x.strip()));
      }
    }
    assertThat(rows(sql)).as(sql).containsExactlyElementsOf(want);
  }

  @Test
  void columnsAreTheTopLevelColumnsRead() {
    assertThat(Predicate.parse("a > 1 AND lower(s) LIKE 'x%' OR a IS NULL")
        .bind(Batches.SCHEMA).columns()).containsExactly("a", "s");
  }

  /** Expressions too large to bind and evaluate on any thread's stack: a specific error. */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"parens", "sum", "or", "value"})
  void hugeExpressionsAreRefusedNotOverflowed(String shape) {
    String sql = switch (shape) {
      case "parens" -> "(".repeat(10_000) + "a > 1" + ")".repeat(10_000);
      case "sum" -> "a" + " + a".repeat(10_000) + " > 1";
      case "or" -> "a = 0" + " OR a = 1".repeat(100_000);
      default -> "a" + " * 2".repeat(20_000);
    };
    org.junit.jupiter.api.function.Executable parse = shape.equals("value")
        ? () -> ValueExpression.parse(sql) : () -> Predicate.parse(sql);
    ExpressionException e = org.junit.jupiter.api.Assertions.assertThrows(
        ExpressionException.class, parse);
    assertThat(e.kind()).isEqualTo(ExpressionException.Kind.UNSUPPORTED);
    assertThat(e.getMessage()).contains("is too large").contains("IN list")
        .hasSizeLessThan(ExprLimits.ECHO_CHARS + 400);
  }

  @Test
  void deepButBoundedExpressionsStillWork() {
    String sql = "(".repeat(60) + "a > 1" + ")".repeat(60) + " AND a" + " + 1".repeat(300)
        + " > 0";
    assertThat(Predicate.parse(sql).bind(Batches.SCHEMA).columns()).containsExactly("a");
  }

  @Test
  void subqueryIsRefusedNamingTheConstructAndColumn() {
    assertThatThrownBy(() -> Predicate.parse("a > 1 AND b IN (SELECT 1)"))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("unsupported in a Lance filter: subquery (SELECT 1)")
        .hasMessageContaining("at character 16")
        .extracting(e -> ((ExpressionException) e).kind())
        .isEqualTo(ExpressionException.Kind.UNSUPPORTED);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "CASE WHEN a > 0 THEN true END | CASE expression",
        "EXISTS (SELECT 1) | EXISTS",
        "s SIMILAR TO 'a' | SIMILAR TO",
        "s LIKE 'a#%' ESCAPE '#' | ESCAPE",
        "a > ? | query parameter",
        "TRIM(s) = 'a' | TRIM",
        "a XOR b | XOR",
        "id = 1; DROP TABLE x | cannot parse",
        "a > | cannot parse",
      })
  void refusals(String sql, String message) {
    assertThatThrownBy(() -> Predicate.parse(sql).bind(Batches.SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining(message);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "a > 2.5 | literal 2.5 (float64) cannot be used with a (int32)",
        "a = '5' | cannot be used with a (int32)",
        "s = 5 | quote the value",
        "nosuch = 1 | no column named nosuch",
        "a.x = 1 | a is a int32, not a struct",
        "LOWER(s) = 'a' | function names are case-sensitive",
        "nosuchfn(a) | supported functions",
        "NULL | not a condition",
        "a + 1 | not a condition",
        "NOT a | NOT needs a condition",
        "s + 1 > 0 | join strings with ||",
        "1 / 0 = 1 | Divide by zero",
      })
  void bindingErrorsSayWhatToDo(String sql, String message) {
    assertThatThrownBy(() -> Predicate.parse(sql).bind(Batches.SCHEMA))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining(message);
  }

  @Test
  void integerDivisionByZeroInARowFailsLikeLanceCore() {
    BoundPredicate p = Predicate.parse("b / (a - 1) > 0").bind(Batches.SCHEMA);
    assertThatThrownBy(() -> p.selection(batch))
        .isInstanceOf(ExpressionException.class)
        .hasMessageContaining("Divide by zero")
        .extracting(e -> ((ExpressionException) e).kind())
        .isEqualTo(ExpressionException.Kind.EVALUATION);
  }

  @Test
  void floatDivisionByZeroIsInfinity() {
    assertThat(rows("f / 0 > 1e308")).containsExactly(0, 2, 3, 5);
  }

  @Test
  void valueExpressionEvaluatesToAVectorOfTheBoundType() {
    BoundValueExpression e = ValueExpression.parse("b * 2 + a").bind(Batches.SCHEMA);
    assertThat(e.type()).isEqualTo(Types.INT64);
    try (FieldVector v = e.evaluate(batch, alloc)) {
      BigIntVector out = (BigIntVector) v;
      assertThat(out.getValueCount()).isEqualTo(6);
      assertThat(out.get(0)).isEqualTo(21);
      assertThat(out.isNull(1)).isTrue();
      assertThat(out.isNull(2)).isTrue();
      assertThat(out.get(3)).isEqualTo(76);
      assertThat(out.get(5)).isEqualTo(Long.MAX_VALUE * 2 + Integer.MAX_VALUE); // wraps
    }
  }

  @Test
  void valueExpressionOfStrings() {
    BoundValueExpression e = ValueExpression.parse("upper(s) || '-'").bind(Batches.SCHEMA);
    try (FieldVector v = e.evaluate(batch, alloc)) {
      VarCharVector out = (VarCharVector) v;
      assertThat(out.getObject(0).toString()).isEqualTo("APPLE-");
      assertThat(out.isNull(2)).isTrue();
      assertThat(out.getObject(5).toString()).isEqualTo("-");
    }
  }

  @Test
  void topLevelLiteralTakesTheColumnTypeInValueExpressionsToo() {
    // Lance resolves `col op literal` at the top level: int32 + int32, wrapping
    BoundValueExpression e = ValueExpression.parse("a + 1").bind(Batches.SCHEMA);
    assertThat(e.type()).isEqualTo(Types.INT32);
    try (FieldVector v = e.evaluate(batch, alloc)) {
      assertThat(v.getObject(5)).isEqualTo(Integer.MIN_VALUE);
    }
  }

  @Test
  void emptySelectionOnEmptyBatch() {
    try (VectorSchemaRoot empty = Batches.of(alloc, List.of())) {
      assertThat(Predicate.parse("a > 0").bind(Batches.SCHEMA).selection(empty).isEmpty())
          .isTrue();
    }
  }
}
