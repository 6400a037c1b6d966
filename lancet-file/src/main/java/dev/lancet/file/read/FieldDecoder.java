package dev.lancet.file.read;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Decodes one top-level field of a batch: each of its leaf columns into the leaf's vector (found
 * from the field's vector by the leaf's path of struct children), the structs' validity set by
 * the first leaf beneath each.
 */
final class FieldDecoder {
  private final FieldColumns columns;
  private final List<ColumnPages> pages;

  FieldDecoder(FieldColumns columns, List<ColumnPages> pages) {
    this.columns = columns;
    this.pages = List.copyOf(pages);
  }

  /** Whether the field's vector has child vectors (then it is allocated anew for each batch). */
  boolean nested() {
    return !columns.field().getChildren().isEmpty();
  }

  void decode(FieldVector top, long[] from, long[] to, int count) throws IOException {
    for (int i = 0; i < pages.size(); i++) {
      FieldColumns.Leaf leaf = columns.leaves().get(i);
      int depth = leaf.depth();
      FieldVector[] chain = new FieldVector[depth + 1];
      chain[0] = top;
      for (int d = 0; d < depth; d++) {
        chain[d + 1] = (FieldVector) ((StructVector) chain[d]).getChildByOrdinal(leaf.path()[d]);
      }
      // Layer j is the struct j levels above the leaf: chain[depth - j].
      StructVector[] ancestors = new StructVector[depth + 1];
      for (int j = 1; j <= depth; j++) {
        if (depth - j >= leaf.firstOwned()) {
          ancestors[j] = (StructVector) chain[depth - j];
        }
      }
      pages.get(i).decode(from, to, count, VectorSink.of(chain[depth], ancestors), 0);
    }
  }
}
