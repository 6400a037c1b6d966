package dev.lancet.file.read.v20;

import java.io.IOException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/** {@code FixedSizeList}: row r is items {@code [r * dimension, (r + 1) * dimension)}. */
final class FslNode implements Node {
  private final int dimension;
  private final Node items;

  FslNode(int dimension, Node items) {
    this.dimension = dimension;
    this.items = items;
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    Vectors.ensure(v, at + (int) (to - from));
    FieldVector child = ((FixedSizeListVector) v).getDataVector();
    items.decode(from * dimension, to * dimension, child, Math.multiplyExact(at, dimension));
  }

  @Override
  public String describe() {
    return "FixedSizeList(" + items.describe() + ")";
  }
}
