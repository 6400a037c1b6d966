package dev.lancet.table.expr;

import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The parsed, unbound expression tree: what the SQL text says, before names are resolved against
 * a schema and types are inferred ({@link Binder} turns it into a {@link Bound} tree).
 *
 * <p>It is deliberately small: every node is a construct Lance filters accept, so a JSqlParser
 * node that has no counterpart here is refused at translation, naming the construct and where
 * it is.
 */
public sealed interface Expr {

  Position at();

  /** A column or nested struct field: {@code props.a} is {@code ["props", "a"]}. */
  record ColumnRef(List<String> path, boolean exactCase, Position at) implements Expr {
    public ColumnRef {
      path = List.copyOf(path);
    }

    public String dotted() {
      return String.join(".", path);
    }
  }

  /** A literal: integers are int64 (float64 beyond it), decimals are float64, as Lance. */
  record Literal(Scalar value, Position at) implements Expr {}

  record Negate(Expr operand, Position at) implements Expr {}

  record Not(Expr operand, Position at) implements Expr {}

  record And(Expr left, Expr right, Position at) implements Expr {}

  record Or(Expr left, Expr right, Position at) implements Expr {}

  record Compare(CompareOp op, Expr left, Expr right, Position at) implements Expr {}

  record Arith(ArithOp op, Expr left, Expr right, Position at) implements Expr {}

  /** {@code a || b}. */
  record Concat(Expr left, Expr right, Position at) implements Expr {}

  record IsNull(Expr operand, boolean negated, Position at) implements Expr {}

  /** {@code x IS [NOT] TRUE|FALSE}. */
  record IsBool(Expr operand, boolean value, boolean negated, Position at) implements Expr {}

  /** {@code a IS [NOT] DISTINCT FROM b}. */
  record IsDistinct(Expr left, Expr right, boolean negated, Position at) implements Expr {}

  record InList(Expr operand, List<Expr> items, boolean negated, Position at) implements Expr {
    public InList {
      items = List.copyOf(items);
    }
  }

  record Between(Expr operand, Expr low, Expr high, boolean negated, Position at)
      implements Expr {}

  /** {@code [NOT] LIKE|ILIKE pattern [ESCAPE '\']}; the only escape Lance accepts is backslash. */
  record Like(Expr operand, Expr pattern, boolean caseInsensitive, boolean negated, Position at)
      implements Expr {}

  /**
   * {@code CAST(x AS type)}, {@code TRY_CAST} ({@code safe}: a value that does not convert
   * becomes null) and typed literals ({@code date '2024-01-02'} is a cast of a string, as in
   * Lance).
   */
  record Cast(Expr operand, ArrowType target, boolean safe, Position at) implements Expr {}

  /** A function call; {@code name} is as written (function names are case-sensitive in Lance). */
  record Call(String name, List<Expr> args, Position at) implements Expr {
    public Call {
      args = List.copyOf(args);
    }
  }

  /** Comparison operators. */
  enum CompareOp {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    CompareOp(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }

    /** The operator with its operands swapped: {@code a < b} is {@code b > a}. */
    public CompareOp flip() {
      return switch (this) {
        case EQ, NE -> this;
        case LT -> GT;
        case LE -> GE;
        case GT -> LT;
        case GE -> LE;
      };
    }

    /** Whether a three-way comparison result {@code c} (negative, zero, positive) satisfies it. */
    public boolean test(int c) {
      return switch (this) {
        case EQ -> c == 0;
        case NE -> c != 0;
        case LT -> c < 0;
        case LE -> c <= 0;
        case GT -> c > 0;
        case GE -> c >= 0;
      };
    }
  }

  /** Arithmetic operators. */
  enum ArithOp {
    ADD("+"),
    SUB("-"),
    MUL("*"),
    DIV("/"),
    MOD("%");

    private final String symbol;

    ArithOp(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }
  }
}
