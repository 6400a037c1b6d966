package dev.lancet.file.read.v20;

import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * A struct stored as a header column ({@code SimpleStruct} pages, no data) and its children.
 * 2.0 keeps no struct validity: every row is valid, as lance-core reads it.
 */
final class StructReader implements FieldReader {
  private final Column20 header;
  private final List<FieldReader> children;

  StructReader(Column20 header, List<FieldReader> children) {
    this.header = header;
    this.children = List.copyOf(children);
  }

  @Override
  public long numValues() {
    return header.numValues();
  }

  @Override
  public void read(long from, long to, FieldVector v, int at) throws IOException {
    StructVector s = (StructVector) v;
    int n = (int) (to - from);
    Vectors.ensure(s, at + n);
    for (int i = 0; i < children.size(); i++) {
      FieldVector c = (FieldVector) s.getChildByOrdinal(i);
      children.get(i).read(from, to, c, at);
    }
    Vectors.setValid(s, at, n);
  }

  @Override
  public void describe(java.util.Set<String> into) {
    into.add("SimpleStruct");
    for (FieldReader c : children) {
      c.describe(into);
    }
  }
}
