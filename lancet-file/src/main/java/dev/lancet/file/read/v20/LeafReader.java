package dev.lancet.file.read.v20;

import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/**
 * A field stored in one column whose pages each decode to the field's vector: fixed-width
 * values, fixed-size lists of them, strings and binaries, packed structs.
 */
final class LeafReader implements FieldReader {
  private final Column20 column;
  private final Node[] pages;

  LeafReader(Column20 column, Node[] pages) {
    this.column = column;
    this.pages = pages;
  }

  @Override
  public long numValues() {
    return column.numValues();
  }

  @Override
  public void read(long from, long to, FieldVector v, int at) throws IOException {
    long row = from;
    int out = at;
    while (row < to) {
      int p = column.pageOf(row);
      long base = column.pageStart[p];
      long end = Math.min(to, column.pageStart[p + 1]);
      pages[p].decode(row - base, end - base, v, out);
      out += (int) (end - row);
      row = end;
    }
  }

  @Override
  public void describe(java.util.Set<String> into) {
    for (Node n : pages) {
      into.add(n.describe());
    }
  }
}
