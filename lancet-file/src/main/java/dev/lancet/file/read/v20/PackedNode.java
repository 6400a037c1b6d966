package dev.lancet.file.read.v20;

import java.io.IOException;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * {@code PackedStruct}: a struct of fixed-width fields stored row by row in one buffer, each
 * row the fields' values one after another ({@code widths} bytes each). Read as lance-core
 * does: every row and every field value valid.
 */
final class PackedNode implements Node {
  private final String where;
  private final FlatNode rows; // the buffer seen as values of one row's width
  private final int[] widths;
  private final int rowWidth;

  PackedNode(String where, FlatNode rows, int[] widths) {
    this.where = where;
    this.rows = rows;
    this.widths = widths.clone();
    int w = 0;
    for (int x : widths) {
      w += x;
    }
    this.rowWidth = w;
  }

  /** The raw bytes of rows {@code [from, to)}. */
  byte[] rowBytes(long from, long to) throws IOException {
    return rows.bytes(from * rowWidth, (to - from) * rowWidth);
  }

  int[] widths() {
    return widths.clone();
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    int n = (int) (to - from);
    StructVector s = (StructVector) v;
    Vectors.ensure(s, at + n);
    byte[] b = rowBytes(from, to);
    int fieldAt = 0;
    for (int f = 0; f < widths.length; f++) {
      BaseFixedWidthVector child = (BaseFixedWidthVector) s.getChildByOrdinal(f);
      Vectors.ensure(child, at + n);
      int w = widths[f];
      for (int r = 0; r < n; r++) {
        child.getDataBuffer().setBytes((long) (at + r) * w, b, r * rowWidth + fieldAt, w);
      }
      Vectors.setValid(child, at, n);
      fieldAt += w;
    }
    Vectors.setValid(s, at, n);
  }

  int rowWidth() {
    return rowWidth;
  }

  @Override
  public String describe() {
    return "PackedStruct";
  }
}
