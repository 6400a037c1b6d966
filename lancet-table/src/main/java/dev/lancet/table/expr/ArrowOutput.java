package dev.lancet.table.expr;

import java.math.BigDecimal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Writes evaluated {@link Values} into a new Arrow vector of their type. */
final class ArrowOutput {

  private ArrowOutput() {}

  /** A new vector named {@code name} from {@code allocator}; the caller closes it. */
  static FieldVector toVector(Values in, String name, BufferAllocator allocator) {
    Values v = in instanceof Values.Dict d ? d.decode() : in;
    int n = v.length;
    if (Types.isNull(v.type)) {
      return new NullVector(name, n);
    }
    FieldVector out = new Field(name, FieldType.nullable(v.type), null).createVector(allocator);
    try {
      fill(v, out, n);
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  private static void fill(Values v, FieldVector out, int n) {
    if (out instanceof BaseFixedWidthVector f) {
      f.allocateNew(n);
    } else if (out instanceof BaseVariableWidthVector s) {
      Values.Bytes b = (Values.Bytes) v;
      s.allocateNew(Math.max(1, b.data.length), n);
    } else if (out instanceof BaseLargeVariableWidthVector s) {
      Values.Bytes b = (Values.Bytes) v;
      s.allocateNew(Math.max(1, b.data.length), n);
    }
    for (int i = 0; i < n; i++) {
      if (!v.isValid(i)) {
        setNull(out, i);
        continue;
      }
      if (v instanceof Values.Longs l) {
        long x = l.v[i];
        if (out instanceof BigIntVector o) {
          o.set(i, x);
        } else if (out instanceof IntVector o) {
          o.set(i, (int) x);
        } else if (out instanceof SmallIntVector o) {
          o.set(i, (short) x);
        } else if (out instanceof TinyIntVector o) {
          o.set(i, (byte) x);
        } else if (out instanceof UInt1Vector o) {
          o.set(i, (int) x);
        } else if (out instanceof UInt2Vector o) {
          o.set(i, (char) x);
        } else if (out instanceof UInt4Vector o) {
          o.set(i, (int) x);
        } else if (out instanceof UInt8Vector o) {
          o.set(i, x);
        } else if (out instanceof DateDayVector o) {
          o.set(i, (int) x);
        } else if (out instanceof DateMilliVector o) {
          o.set(i, x);
        } else if (out instanceof TimeStampVector o) {
          o.set(i, x);
        } else {
          throw new IllegalStateException("no writer for " + out.getField());
        }
      } else if (v instanceof Values.Doubles d) {
        if (out instanceof Float8Vector o) {
          o.set(i, d.v[i]);
        } else {
          ((Float4Vector) out).set(i, (float) d.v[i]);
        }
      } else if (v instanceof Values.Bools b) {
        ((BitVector) out).set(i, b.get(i) ? 1 : 0);
      } else if (v instanceof Values.Decimals d) {
        BigDecimal x = d.v[i];
        ((DecimalVector) out).set(i, x);
      } else if (v instanceof Values.Bytes b) {
        int s = b.offsets[i];
        int len = b.offsets[i + 1] - s;
        if (out instanceof BaseVariableWidthVector o) {
          o.setSafe(i, b.data, s, len);
        } else {
          ((BaseLargeVariableWidthVector) out).setSafe(i, b.data, s, len);
        }
      } else {
        throw new IllegalStateException("no writer for " + Types.describe(v.type));
      }
    }
  }

  private static void setNull(FieldVector out, int i) {
    if (out instanceof BaseFixedWidthVector f) {
      f.setNull(i);
    } else if (out instanceof BaseVariableWidthVector s) {
      s.setNull(i);
    } else if (out instanceof BaseLargeVariableWidthVector s) {
      s.setNull(i);
    }
  }
}
