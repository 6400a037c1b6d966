package dev.lancet.file.read.v20;

import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/**
 * One node of a 2.0 page's encoding tree (an {@code ArrayEncoding}), bound to the page's
 * buffers and checked against them and the field's Arrow type when the page is opened.
 * Positions are the node's own values: the page's rows, or a fixed-size list's items.
 */
sealed interface Node
    permits FlatNode, NullableNode, FslNode, BinaryNode, FsstNode, DictionaryNode, PackedNode {
  /** Decodes values {@code [from, to)} into {@code v} from row {@code at}. */
  void decode(long from, long to, FieldVector v, int at) throws IOException;

  /** The coding, for the coverage check of the tests ("Nullable.some(Flat(32))"). */
  String describe();
}
