package dev.lancet.table.expr;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.BitSetUtil;
import org.roaringbitmap.RoaringBitmap;

/**
 * A filter bound to a schema, ready to evaluate over batches of that schema. Immutable and safe
 * to share between threads.
 *
 * <p>The result of a filter is a {@link RoaringBitmap} of the row offsets (0-based, within the
 * batch) where the condition is true; false and NULL (unknown) rows are not selected, as in SQL
 * WHERE. A bitmap is what the callers need next: a deletion vector is a bitmap of offsets, and a
 * scan takes the selected rows out of the batch.
 */
public final class BoundPredicate {

  private final String sql;
  private final Schema schema;
  private final Bound bound;

  BoundPredicate(String sql, Schema schema, Bound bound) {
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

  /** The top-level columns the filter reads (what a scan must project to evaluate it). */
  public Set<String> columns() {
    Set<String> out = new TreeSet<>();
    collect(bound, out);
    return out;
  }

  /** Every column and nested field the filter reads, as paths from the top-level name down. */
  public Set<List<String>> columnPaths() {
    Set<List<String>> out = new java.util.LinkedHashSet<>();
    collectPaths(bound, out);
    return out;
  }

  private static void collectPaths(Bound b, Set<List<String>> out) {
    if (b instanceof Bound.Column c) {
      out.add(c.path());
    }
    for (Bound x : Binder.operands(b)) {
      collectPaths(x, out);
    }
  }

  static void collect(Bound b, Set<String> out) {
    if (b instanceof Bound.Column c) {
      out.add(c.path().get(0));
    }
    for (Bound x : Binder.operands(b)) {
      collect(x, out);
    }
  }

  /** The rows of {@code batch} the filter selects; for batches without dictionary columns. */
  public RoaringBitmap selection(VectorSchemaRoot batch) {
    return selection(batch, null);
  }

  /**
   * The rows of {@code batch} the filter selects. {@code dictionaries} resolves dictionary-encoded
   * columns (an {@code ArrowReader} is one); {@code null} when there are none.
   *
   * @throws ExpressionException (kind EVALUATION) when a row fails, e.g. an integer division by
   *     zero, as lance-core fails the scan
   */
  public RoaringBitmap selection(VectorSchemaRoot batch, DictionaryProvider dictionaries) {
    int n = batch.getRowCount();
    if (n == 0) {
      return new RoaringBitmap();
    }
    Values v = Evaluator.eval(bound, new ArrowInput(batch, dictionaries));
    long[] words;
    if (v instanceof Values.Bools b) {
      words = b.bits.clone();
      if (b.valid != null) {
        for (int w = 0; w < words.length; w++) {
          words[w] &= b.valid[w];
        }
      }
    } else {
      words = new long[Values.words(n)]; // an all-NULL result selects nothing
    }
    return BitSetUtil.bitmapOf(words);
  }

  @Override
  public String toString() {
    return sql;
  }
}
