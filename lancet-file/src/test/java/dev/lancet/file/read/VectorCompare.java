package dev.lancet.file.read;

import java.util.Arrays;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.complex.BaseRepeatedValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Value-by-value equality of two Arrow vectors of the same type, nested or not: validity, then
 * raw value bytes (floats by their bits), list lengths and items, struct children (beneath a
 * valid struct), fixed-size list items.
 */
final class VectorCompare {
  private VectorCompare() {}

  static boolean same(FieldVector e, int i, FieldVector a, int j) {
    if (e instanceof NullVector) {
      return a instanceof NullVector;
    }
    if (e.isNull(i) != a.isNull(j)) {
      return false;
    }
    if (e.isNull(i)) {
      return true;
    }
    if (e instanceof BitVector b) {
      return b.get(i) == ((BitVector) a).get(j);
    }
    if (e instanceof BaseFixedWidthVector f) {
      int w = f.getTypeWidth();
      BaseFixedWidthVector g = (BaseFixedWidthVector) a;
      for (int k = 0; k < w; k++) {
        if (f.getDataBuffer().getByte((long) i * w + k)
            != g.getDataBuffer().getByte((long) j * w + k)) {
          return false;
        }
      }
      return true;
    }
    if (e instanceof BaseVariableWidthVector v) {
      return Arrays.equals(v.get(i), ((BaseVariableWidthVector) a).get(j));
    }
    if (e instanceof BaseLargeVariableWidthVector v) {
      return Arrays.equals(v.get(i), ((BaseLargeVariableWidthVector) a).get(j));
    }
    if (e instanceof StructVector s) {
      StructVector t = (StructVector) a;
      for (int c = 0; c < s.size(); c++) {
        if (!same((FieldVector) s.getChildByOrdinal(c), i, (FieldVector) t.getChildByOrdinal(c),
            j)) {
          return false;
        }
      }
      return true;
    }
    if (e instanceof FixedSizeListVector l) {
      int d = l.getListSize();
      for (int k = 0; k < d; k++) {
        if (!same(l.getDataVector(), i * d + k, ((FixedSizeListVector) a).getDataVector(),
            j * d + k)) {
          return false;
        }
      }
      return true;
    }
    if (e instanceof BaseRepeatedValueVector l) {
      BaseRepeatedValueVector m = (BaseRepeatedValueVector) a;
      int es = l.getOffsetBuffer().getInt(4L * i);
      int ee = l.getOffsetBuffer().getInt(4L * (i + 1));
      int as = m.getOffsetBuffer().getInt(4L * j);
      int ae = m.getOffsetBuffer().getInt(4L * (j + 1));
      if (ee - es != ae - as) {
        return false;
      }
      for (int k = 0; k < ee - es; k++) {
        if (!same(l.getDataVector(), es + k, m.getDataVector(), as + k)) {
          return false;
        }
      }
      return true;
    }
    if (e instanceof LargeListVector l) {
      LargeListVector m = (LargeListVector) a;
      long es = l.getOffsetBuffer().getLong(8L * i);
      long ee = l.getOffsetBuffer().getLong(8L * (i + 1));
      long as = m.getOffsetBuffer().getLong(8L * j);
      long ae = m.getOffsetBuffer().getLong(8L * (j + 1));
      if (ee - es != ae - as) {
        return false;
      }
      for (int k = 0; k < ee - es; k++) {
        if (!same(l.getDataVector(), (int) es + k, m.getDataVector(), (int) as + k)) {
          return false;
        }
      }
      return true;
    }
    return String.valueOf(e.getObject(i)).equals(String.valueOf(a.getObject(j)));
  }
}
