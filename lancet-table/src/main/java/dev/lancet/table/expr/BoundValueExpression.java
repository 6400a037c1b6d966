package dev.lancet.table.expr;

import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/** A value expression bound to a schema: its result type is known before any batch is seen. */
public final class BoundValueExpression {

  private final String sql;
  private final Schema schema;
  private final Bound bound;

  BoundValueExpression(String sql, Schema schema, Bound bound) {
    this.sql = sql;
    this.schema = schema;
    this.bound = bound;
  }

  public String sql() {
    return sql;
  }

  public Schema schema() {
    return schema;
  }

  /** The result type ({@code null} type for a bare NULL). */
  public ArrowType type() {
    return bound.type();
  }

  /** Whether a row's value can be null (as DataFusion, and so lance-core, derives it). */
  public boolean nullable() {
    return Nullability.of(bound, schema);
  }

  /** The top-level columns the expression reads. */
  public Set<String> columns() {
    Set<String> out = new TreeSet<>();
    BoundPredicate.collect(bound, out);
    return out;
  }

  /** {@link #evaluate(VectorSchemaRoot, DictionaryProvider, BufferAllocator, String)} unnamed. */
  public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
    return evaluate(batch, null, allocator, "expr");
  }

  /**
   * One value per row of {@code batch}, as a new vector of {@link #type()} named {@code name},
   * allocated from {@code allocator}. The caller owns (and closes) the vector; nothing else is
   * left allocated.
   *
   * @throws ExpressionException (kind EVALUATION) when a row fails (division by zero, overflow,
   *     a cast that does not convert)
   */
  public FieldVector evaluate(
      VectorSchemaRoot batch, DictionaryProvider dictionaries, BufferAllocator allocator,
      String name) {
    Values v = Evaluator.eval(bound, new ArrowInput(batch, dictionaries));
    return ArrowOutput.toVector(v, name, allocator);
  }

  @Override
  public String toString() {
    return sql;
  }
}
