/**
 * SQL filters and value expressions with Lance's semantics, evaluated over Arrow batches
 * (internal to the table module; the user-facing API takes SQL strings and calls this).
 *
 * <h2>Entry points</h2>
 *
 * <pre>{@code
 * // filters: scan().filter(...), delete(pred), update(pred, ...)
 * BoundPredicate p = Predicate.parse("id % 10 = 0 AND name LIKE 'a%'").bind(batchSchema);
 * p.columns();                                   // top-level columns to project: [id, name]
 * RoaringBitmap rows = p.selection(batch);       // row offsets where the filter is TRUE
 * RoaringBitmap rows = p.selection(batch, reader); // when columns are dictionary-encoded
 *
 * // values: UPDATE ... SET col = expr
 * BoundValueExpression e = ValueExpression.parse("price * 2").bind(batchSchema);
 * e.type();                                      // the result's Arrow type, before any batch
 * try (FieldVector v = e.evaluate(batch, allocator)) { ... }  // caller closes
 * }</pre>
 *
 * Parse once, bind once per schema, evaluate per batch; bound expressions are immutable and
 * thread-safe. Bind against the schema of the batches (for a dictionary-encoded column the
 * field must carry its {@code DictionaryEncoding}; lance-core's {@code Dataset.getSchema()}
 * drops it, the scanner's batches keep it).
 *
 * <p>Every failure is an {@link dev.lancet.table.expr.ExpressionException} with a {@code kind}
 * (SYNTAX, UNSUPPORTED, UNKNOWN_COLUMN, TYPE, EVALUATION), the position, and what to do.
 *
 * <h2>Layers</h2>
 *
 * <ol>
 *   <li>{@code SqlTranslator}: JSqlParser's AST to {@link dev.lancet.table.expr.Expr} (a small
 *       sealed tree); anything else is refused naming the construct and its column.
 *   <li>{@code Binder} (+ {@code Coercion}, {@code Casts}): names and types; Lance's literal
 *       resolution, then DataFusion's coercion; constant folding.
 *   <li>{@code Evaluator} (+ {@code Arith}, {@code InKernels}, {@code LikePattern}, {@code
 *       Functions}): column-at-a-time kernels over {@code Values} (primitive arrays and
 *       validity bitmaps read straight from the Arrow buffers by {@code ArrowInput}).
 * </ol>
 *
 * What is supported, how types coerce, and where Lancet refuses rather than guesses: see
 * {@code docs/decisions/0013-filter-semantics.md}.
 */
package dev.lancet.table.expr;
