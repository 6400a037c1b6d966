package dev.lancet.table.expr;

import dev.lancet.table.expr.Expr.ArithOp;
import dev.lancet.table.expr.Expr.CompareOp;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * The bound expression tree: names resolved against a schema, every node typed, implicit
 * conversions made explicit as {@link Cast} nodes and constant subtrees folded into {@link
 * Const}. Operands of {@link Compare}, {@link Arith}, {@link InList} and {@link IsDistinct} have
 * one common type (except integer comparisons, which are exact across signedness).
 */
sealed interface Bound {

  ArrowType type();

  Position at();

  /**
   * A top-level column or nested struct field, {@code path} from the top-level name down. For a
   * dictionary-encoded column {@code type} is the dictionary's value type and {@code dictionary}
   * is set.
   */
  record Column(List<String> path, ArrowType type, DictionaryEncoding dictionary, Position at)
      implements Bound {
    public Column {
      path = List.copyOf(path);
    }

    String dotted() {
      return String.join(".", path);
    }
  }

  record Const(Scalar value, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return value.type();
    }
  }

  /** A conversion to {@code type}; {@code safe} turns a value that does not convert into null. */
  record Cast(Bound operand, ArrowType type, boolean safe, Position at) implements Bound {}

  record Negate(Bound operand, ArrowType type, Position at) implements Bound {}

  /** Both operands have type {@code type} (decimals: each its own decimal type). */
  record Arith(ArithOp op, Bound left, Bound right, ArrowType type, Position at)
      implements Bound {}

  record Concat(Bound left, Bound right, ArrowType type, Position at) implements Bound {}

  record Compare(CompareOp op, Bound left, Bound right, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record And(Bound left, Bound right, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record Or(Bound left, Bound right, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record Not(Bound operand, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record IsNull(Bound operand, boolean negated, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record IsBool(Bound operand, boolean value, boolean negated, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record IsDistinct(Bound left, Bound right, boolean negated, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  /** {@code values} are non-null constants of the operand's type; {@code hasNull} if NULL was listed. */
  record InList(Bound operand, List<Scalar> values, boolean hasNull, boolean negated, Position at)
      implements Bound {
    public InList {
      values = List.copyOf(values);
    }

    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record Like(Bound operand, LikePattern pattern, boolean negated, Position at) implements Bound {
    @Override
    public ArrowType type() {
      return Types.BOOL;
    }
  }

  record Call(Functions.Fn fn, List<Bound> args, ArrowType type, Position at) implements Bound {
    public Call {
      args = List.copyOf(args);
    }
  }
}
