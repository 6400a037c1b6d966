package dev.lancet.file.read.v20;

import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/**
 * Reads one Arrow field of a 2.0 file from its columns: a leaf's one column, a list's offsets
 * column and its items, a struct's header column and its children, a blob's descriptions.
 */
sealed interface FieldReader permits LeafReader, ListReader, StructReader, BlobReader {
  /** Values of the field (rows for a top-level field, items under a list). */
  long numValues();

  /**
   * Reads values {@code [from, to)} into {@code v} from row {@code at}; rows before {@code at}
   * are written, and reads come in ascending order.
   */
  void read(long from, long to, FieldVector v, int at) throws IOException;

  /** Every coding the field's pages use, for the coverage check of the tests. */
  void describe(java.util.Set<String> into);
}
