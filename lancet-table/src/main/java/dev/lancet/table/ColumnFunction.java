package dev.lancet.table;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Computes new columns from existing ones, batch by batch ({@link AddColumns#computed}). It
 * gets a batch of the input columns and returns a new root holding exactly the new columns,
 * with as many rows, allocated from {@code allocator}; the table closes the returned root.
 * Deleted rows are passed too (their values are never read back), so the function sees every
 * physical row of every fragment.
 */
@FunctionalInterface
public interface ColumnFunction {
  VectorSchemaRoot apply(VectorSchemaRoot input, BufferAllocator allocator);
}
