package dev.lancet.table.expr;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Reads the columns an expression uses out of an Arrow batch into {@link Values}, straight from
 * the vectors' buffers (a primitive loop per column; no per-row objects except for decimals).
 * Each column is read once per batch however often the expression uses it.
 */
final class ArrowInput implements Evaluator.Batch {

  private final VectorSchemaRoot root;
  private final DictionaryProvider dictionaries;
  private final Map<String, Values> loaded = new HashMap<>();

  ArrowInput(VectorSchemaRoot root, DictionaryProvider dictionaries) {
    this.root = root;
    this.dictionaries = dictionaries;
  }

  @Override
  public int rowCount() {
    return root.getRowCount();
  }

  @Override
  public Values column(Bound.Column c) {
    return loaded.computeIfAbsent(c.dotted(), k -> load(c));
  }

  private Values load(Bound.Column c) {
    List<String> path = c.path();
    int n = root.getRowCount();
    FieldVector v = root.getVector(path.get(0));
    if (v == null) {
      throw new ExpressionException(ExpressionException.Kind.UNKNOWN_COLUMN, c.at(),
          "the batch has no column " + path.get(0) + " (the expression was bound to a schema"
              + " that has it; scan it too)" + c.at().describe());
    }
    long[] valid = validity(v, n);
    ValueVector cur = v;
    for (int k = 1; k < path.size(); k++) {
      if (!(cur instanceof StructVector s) || s.getChild(path.get(k)) == null) {
        throw new ExpressionException(ExpressionException.Kind.UNKNOWN_COLUMN, c.at(),
            "the batch has no field " + String.join(".", path.subList(0, k + 1)) + c.at()
                .describe());
      }
      cur = s.getChild(path.get(k));
      // a field of a null struct is null
      valid = Values.and(valid, validity(cur, n));
    }
    if (c.dictionary() != null) {
      return dictionary(c, (FieldVector) cur, valid, n);
    }
    return read(cur, c.type(), valid, n, c);
  }

  private Values dictionary(Bound.Column c, FieldVector indices, long[] valid, int n) {
    Dictionary d = dictionaries == null ? null : dictionaries.lookup(c.dictionary().getId());
    if (d == null) {
      throw new ExpressionException(ExpressionException.Kind.UNKNOWN_COLUMN, c.at(),
          "column " + c.dotted() + " is dictionary-encoded but no dictionary " + c.dictionary()
              .getId() + " was given: pass the scan's reader (a DictionaryProvider) to"
              + " selection(batch, dictionaries)" + c.at().describe());
    }
    FieldVector values = d.getVector();
    ArrowType vt = values.getField().getType();
    if (!Types.isString(vt)) {
      throw ExpressionException.type(c.at(), "dictionary column " + c.dotted() + " holds "
          + Types.describe(vt) + " values; only string dictionaries are supported");
    }
    Values.Bytes dict = (Values.Bytes) read(values, vt, validity(values, values.getValueCount()),
        values.getValueCount(), c);
    Values.Longs idx = (Values.Longs) read(indices, indices.getField().getType(), valid, n, c);
    int[] ix = new int[n];
    for (int i = 0; i < n; i++) {
      ix[i] = (int) idx.v[i];
    }
    // a null dictionary entry is a null row
    if (dict.valid != null) {
      for (int i = 0; i < n; i++) {
        if ((valid == null || (valid[i >>> 6] & (1L << i)) != 0) && !dict.isValid(ix[i])) {
          valid = Values.setBitOff(valid == null ? null : valid.clone(), n, i);
        }
      }
    }
    return new Values.Dict(c.type(), ix, dict, n, valid);
  }

  /** The validity of {@code v} as words, {@code null} when it has no nulls. */
  static long[] validity(ValueVector v, int n) {
    if (v.getNullCount() == 0) {
      return null;
    }
    return bits(v.getValidityBuffer(), n);
  }

  /** The first {@code n} bits of {@code buf} as words (Arrow's LSB-first bit order). */
  static long[] bits(ArrowBuf buf, int n) {
    long[] words = new long[Values.words(n)];
    long cap = buf.capacity();
    for (int w = 0; w < words.length; w++) {
      long at = (long) w * 8;
      if (at + 8 <= cap) {
        words[w] = buf.getLong(at);
      } else {
        long x = 0;
        for (int b = 0; b < 8 && at + b < cap; b++) {
          x |= (buf.getByte(at + b) & 0xFFL) << (8 * b);
        }
        words[w] = x;
      }
    }
    Values.clearTail(words, n);
    return words;
  }

  static Values read(ValueVector v, ArrowType type, long[] valid, int n, Bound.Column c) {
    if (IntegerColumns.holds(v)) {
      return new Values.Longs(type, IntegerColumns.read(v, n), n, valid);
    }
    if (v instanceof Float8Vector) {
      double[] out = new double[n];
      data(v, n, 8).asDoubleBuffer().get(out);
      return new Values.Doubles(type, out, n, valid);
    }
    if (v instanceof Float4Vector) {
      float[] raw = new float[n];
      data(v, n, 4).asFloatBuffer().get(raw);
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        out[i] = raw[i];
      }
      return new Values.Doubles(type, out, n, valid);
    }
    if (v instanceof BitVector bv) {
      long[] bits = bits(bv.getDataBuffer(), n);
      if (valid != null) {
        for (int w = 0; w < bits.length; w++) {
          bits[w] &= valid[w];
        }
      }
      return new Values.Bools(bits, n, valid);
    }
    if (v instanceof BaseVariableWidthVector s) {
      ArrowBuf ob = s.getOffsetBuffer();
      int[] off = new int[n + 1];
      if (n > 0 || ob.capacity() >= 4) {
        little(ob, (long) (n + 1) * 4).asIntBuffer().get(off);
      }
      int base = off[0];
      byte[] data = new byte[off[n] - base];
      s.getDataBuffer().getBytes(base, data, 0, data.length);
      if (base != 0) {
        for (int i = 0; i <= n; i++) {
          off[i] -= base;
        }
      }
      return new Values.Bytes(type, data, off, n, valid);
    }
    if (v instanceof BaseLargeVariableWidthVector s) {
      ArrowBuf ob = s.getOffsetBuffer();
      long[] loff = new long[n + 1];
      if (n > 0 || ob.capacity() >= 8) {
        little(ob, (long) (n + 1) * 8).asLongBuffer().get(loff);
      }
      long total = loff[n] - loff[0];
      if (total > Integer.MAX_VALUE - 16) {
        throw ExpressionException.evaluation(c.at(), "column " + c.dotted() + " holds "
            + total + " bytes in one batch; scan with a smaller batch size");
      }
      byte[] data = new byte[(int) total];
      s.getDataBuffer().getBytes(loff[0], data, 0, data.length);
      int[] off = new int[n + 1];
      for (int i = 0; i <= n; i++) {
        off[i] = (int) (loff[i] - loff[0]);
      }
      return new Values.Bytes(type, data, off, n, valid);
    }
    if (v instanceof DecimalVector d) {
      BigDecimal[] out = new BigDecimal[n];
      for (int i = 0; i < n; i++) {
        if (valid == null || (valid[i >>> 6] & (1L << i)) != 0) {
          out[i] = d.getObjectNotNull(i);
        }
      }
      return new Values.Decimals(type, out, n, valid);
    }
    // structs, fixed-size lists: nullness only
    return new Values.Opaque(type, n, valid);
  }

  /**
   * The first {@code n} values of {@code width} bytes of a fixed-width vector's data buffer, as
   * one bounds-checked view: bulk copies out of it run at memory speed, where a getter per value
   * checks bounds and the buffer's reference count every time.
   */
  static ByteBuffer data(ValueVector v, int n, int width) {
    return little(((FieldVector) v).getDataBuffer(), (long) n * width);
  }

  private static ByteBuffer little(ArrowBuf buf, long bytes) {
    if (bytes == 0) {
      return ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
    }
    return buf.nioBuffer(0, Math.toIntExact(bytes)).order(ByteOrder.LITTLE_ENDIAN);
  }
}
