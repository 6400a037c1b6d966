package dev.lancet.table.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.expr.Batches.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.roaringbitmap.RoaringBitmap;

/**
 * The vectorized evaluator against a row-at-a-time model written here from SQL's rules (three-
 * valued logic on Java {@code Boolean}, null meaning unknown), over random batches with nulls in
 * every column and random predicates.
 */
class EvaluatorProperties {

  /** A predicate as SQL text and as the model's row function. */
  record Pred(String sql, Function<Row, Boolean> model) {
    @Override
    public String toString() {
      return sql;
    }
  }

  @Property(tries = 300)
  void vectorizedSelectionEqualsTheRowModel(
      @ForAll("rows") List<Row> rows, @ForAll("predicates") Pred p) {
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot batch = Batches.of(alloc, rows)) {
      RoaringBitmap got = Predicate.parse(p.sql()).bind(Batches.SCHEMA).selection(batch);
      RoaringBitmap want = new RoaringBitmap();
      for (int i = 0; i < rows.size(); i++) {
        if (Boolean.TRUE.equals(p.model().apply(rows.get(i)))) {
          want.add(i);
        }
      }
      assertThat(got).as(p.sql()).isEqualTo(want);
    }
  }

  @Provide
  Arbitrary<List<Row>> rows() {
    Arbitrary<Integer> a = Arbitraries.integers().between(-20, 20).injectNull(0.2);
    Arbitrary<Long> b = Arbitraries.longs().between(-1_000, 1_000).injectNull(0.2);
    Arbitrary<Double> f = Arbitraries.of(-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.25, 100.0)
        .injectNull(0.2);
    Arbitrary<String> s = Arbitraries.of("a", "ab", "abc", "b", "ba", "", "A", "ä", "a_c", "a%")
        .injectNull(0.2);
    Arbitrary<Boolean> t = Arbitraries.of(true, false).injectNull(0.3);
    return Combinators.combine(a, b, f, s, t).as(Row::new).list().ofMinSize(0).ofMaxSize(150);
  }

  @Provide
  Arbitrary<Pred> predicates() {
    return predicate(3);
  }

  private Arbitrary<Pred> predicate(int depth) {
    Arbitrary<Pred> leaf = Arbitraries.oneOf(intCompare(), longArith(), floatCompare(),
        stringCompare(), like(), inList(), between(), nullTests(), boolColumn());
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Pred> sub = Arbitraries.lazy(() -> predicate(depth - 1));
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, leaf),
        net.jqwik.api.Tuple.of(2, Combinators.combine(sub, sub).as((x, y) -> new Pred(
            "(" + x.sql() + ") AND (" + y.sql() + ")", r -> and(x.model().apply(r),
                y.model().apply(r))))),
        net.jqwik.api.Tuple.of(2, Combinators.combine(sub, sub).as((x, y) -> new Pred(
            "(" + x.sql() + ") OR (" + y.sql() + ")", r -> or(x.model().apply(r),
                y.model().apply(r))))),
        net.jqwik.api.Tuple.of(1, sub.map(x -> new Pred("NOT (" + x.sql() + ")",
            r -> not(x.model().apply(r))))),
        net.jqwik.api.Tuple.of(1, sub.map(x -> new Pred("(" + x.sql() + ") IS NOT FALSE",
            r -> !Boolean.FALSE.equals(x.model().apply(r))))));
  }

  private static final List<String> OPS = List.of("=", "<>", "<", "<=", ">", ">=");

  private static boolean op(String op, int c) {
    return switch (op) {
      case "=" -> c == 0;
      case "<>" -> c != 0;
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      default -> c >= 0;
    };
  }

  private Arbitrary<Pred> intCompare() {
    return Combinators.combine(Arbitraries.of(OPS), Arbitraries.integers().between(-25, 25))
        .as((op, k) -> new Pred("a " + op + " " + k,
            r -> r.a() == null ? null : op(op, Integer.compare(r.a(), k))));
  }

  private Arbitrary<Pred> longArith() {
    return Combinators.combine(Arbitraries.of("+", "-", "*", "%"), Arbitraries.of(OPS),
            Arbitraries.longs().between(-50, 50))
        .as((ar, op, k) -> {
          // the divisor a * 2 + 41 is never 0 (a is in -20..20)
          String rhs = ar.equals("%") ? "(a * 2 + 41)" : "a";
          return new Pred("b " + ar + " " + rhs + " " + op + " " + k, r -> {
            if (r.a() == null || r.b() == null) {
              return null;
            }
            long b = r.b();
            long a = r.a();
            long v = switch (ar) {
              case "+" -> b + a;
              case "-" -> b - a;
              case "*" -> b * a;
              default -> b % (a * 2 + 41);
            };
            return op(op, Long.compare(v, k));
          });
        });
  }

  private Arbitrary<Pred> floatCompare() {
    return Combinators.combine(Arbitraries.of(OPS), Arbitraries.of(-1.0, 0.0, -0.0, 0.5, 2.0))
        .as((op, k) -> new Pred("f " + op + " " + k,
            r -> r.f() == null ? null : op(op, Double.compare(r.f(), k))));
  }

  private Arbitrary<Pred> stringCompare() {
    return Combinators.combine(Arbitraries.of(OPS), Arbitraries.of("a", "ab", "b", "", "ä"))
        .as((op, k) -> new Pred("s " + op + " '" + k + "'",
            r -> r.s() == null ? null : op(op, compareUtf8(r.s(), k))));
  }

  private static int compareUtf8(String x, String y) {
    return java.util.Arrays.compareUnsigned(x.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        y.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private Arbitrary<Pred> like() {
    return Combinators.combine(Arbitraries.of("a%", "%b", "%b%", "a_", "_", "%", "a\\_c", "A%"),
            Arbitraries.of(true, false), Arbitraries.of(true, false))
        .as((pat, neg, ci) -> new Pred(
            "s " + (neg ? "NOT " : "") + (ci ? "ILIKE" : "LIKE") + " '" + pat + "'",
            r -> {
              if (r.s() == null) {
                return null;
              }
              int flags = java.util.regex.Pattern.DOTALL | (ci
                  ? java.util.regex.Pattern.CASE_INSENSITIVE : 0);
              boolean m = java.util.regex.Pattern.compile(likeToRegex(pat), flags)
                  .matcher(r.s()).matches();
              return m != neg;
            }));
  }

  /** An independent LIKE-to-regex for the model (backslash escapes the next character). */
  private static String likeToRegex(String pat) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < pat.length(); i++) {
      char c = pat.charAt(i);
      if (c == '\\' && i + 1 < pat.length()) {
        sb.append(java.util.regex.Pattern.quote(String.valueOf(pat.charAt(++i))));
      } else if (c == '%') {
        sb.append(".*");
      } else if (c == '_') {
        sb.append('.');
      } else {
        sb.append(java.util.regex.Pattern.quote(String.valueOf(c)));
      }
    }
    return sb.toString();
  }

  private Arbitrary<Pred> inList() {
    return Combinators.combine(Arbitraries.integers().between(-5, 5).list().ofMinSize(1)
            .ofMaxSize(12), Arbitraries.of(true, false), Arbitraries.of(true, false))
        .as((vals, withNull, neg) -> {
          List<String> items = new ArrayList<>();
          vals.forEach(v -> items.add(String.valueOf(v)));
          if (withNull) {
            items.add("NULL");
          }
          String sql = "a " + (neg ? "NOT IN" : "IN") + " (" + String.join(", ", items) + ")";
          return new Pred(sql, r -> {
            if (r.a() == null) {
              return null;
            }
            boolean found = vals.contains(r.a());
            if (found) {
              return !neg;
            }
            return withNull ? null : neg;
          });
        });
  }

  private Arbitrary<Pred> between() {
    return Combinators.combine(Arbitraries.integers().between(-10, 10),
            Arbitraries.integers().between(-10, 10), Arbitraries.of(true, false))
        .as((lo, hi, neg) -> new Pred("a " + (neg ? "NOT " : "") + "BETWEEN " + lo + " AND " + hi,
            r -> r.a() == null ? null : (r.a() >= lo && r.a() <= hi) != neg));
  }

  private Arbitrary<Pred> nullTests() {
    return Arbitraries.of(
        new Pred("a IS NULL", r -> r.a() == null),
        new Pred("b IS NOT NULL", r -> r.b() != null),
        new Pred("s IS NULL", r -> r.s() == null),
        new Pred("t IS TRUE", r -> Boolean.TRUE.equals(r.t())),
        new Pred("t IS NOT TRUE", r -> !Boolean.TRUE.equals(r.t())),
        new Pred("t IS FALSE", r -> Boolean.FALSE.equals(r.t())),
        new Pred("NULL AND TRUE", r -> null),
        new Pred("a = NULL", r -> null));
  }

  private Arbitrary<Pred> boolColumn() {
    return Arbitraries.of(new Pred("t", Row::t), new Pred("NOT t", r -> not(r.t())));
  }

  static Boolean and(Boolean x, Boolean y) {
    if (Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y)) {
      return false;
    }
    return x == null || y == null ? null : true;
  }

  static Boolean or(Boolean x, Boolean y) {
    if (Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y)) {
      return true;
    }
    return x == null || y == null ? null : false;
  }

  static Boolean not(Boolean x) {
    return x == null ? null : !x;
  }
}
