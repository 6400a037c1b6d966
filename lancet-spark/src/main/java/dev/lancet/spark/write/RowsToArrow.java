package dev.lancet.spark.write;

import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Copies Spark rows into Arrow vectors of a Lance table's schema (the inverse of
 * {@code SparkSchemas.toSpark}): each column gets a writer for its Arrow type, filled row by row,
 * with the checks Spark's types do not make (an unsigned value out of range, a fixed-size list
 * or binary of the wrong length) failing with the column's name.
 */
final class RowsToArrow {
  private final VectorSchemaRoot root;
  private final ValueWriter[] writers;
  private final int[] ordinals;
  private int rows;

  /**
   * @param ordinals for each column of {@code root}, the ordinal of its value in the rows
   */
  RowsToArrow(VectorSchemaRoot root, int[] ordinals) {
    this.root = root;
    this.ordinals = ordinals;
    List<FieldVector> vectors = root.getFieldVectors();
    this.writers = new ValueWriter[vectors.size()];
    for (int i = 0; i < writers.length; i++) {
      writers[i] = writerFor(vectors.get(i), vectors.get(i).getName());
    }
  }

  void add(SpecializedGetters row) {
    for (int i = 0; i < writers.length; i++) {
      writers[i].write(row, ordinals[i], rows);
    }
    rows++;
  }

  int rows() {
    return rows;
  }

  /** Sets the value counts; the root then holds the rows added since the last reset. */
  VectorSchemaRoot finishBatch() {
    for (FieldVector v : root.getFieldVectors()) {
      v.setValueCount(rows);
    }
    root.setRowCount(rows);
    return root;
  }

  void reset() {
    for (FieldVector v : root.getFieldVectors()) {
      v.reset();
    }
    root.setRowCount(0);
    rows = 0;
  }

  /** Writes value {@code ordinal} of {@code from} at {@code index} of its vector. */
  private abstract static class ValueWriter {
    final ValueVector vector;
    final String column;

    ValueWriter(ValueVector vector, String column) {
      this.vector = vector;
      this.column = column;
    }

    final void write(SpecializedGetters from, int ordinal, int index) {
      if (from.isNullAt(ordinal)) {
        if (!vector.getField().isNullable()) {
          throw new IllegalArgumentException("column '" + column + "' is not nullable in the "
              + "Lance table, but a row has null there");
        }
        setNull(index);
      } else {
        set(from, ordinal, index);
      }
    }

    void setNull(int index) {
      if (vector instanceof org.apache.arrow.vector.BaseFixedWidthVector f) {
        f.setNull(index);
      } else if (vector instanceof org.apache.arrow.vector.BaseVariableWidthVector v) {
        v.setNull(index);
      } else if (vector instanceof org.apache.arrow.vector.BaseLargeVariableWidthVector v) {
        v.setNull(index);
      } else if (vector instanceof ListVector l) {
        l.setNull(index);
      } else if (vector instanceof LargeListVector l) {
        l.setNull(index);
      } else if (vector instanceof FixedSizeListVector l) {
        l.setNull(index);
      } else if (vector instanceof StructVector s) {
        s.setNull(index);
      }
    }

    abstract void set(SpecializedGetters from, int ordinal, int index);

    IllegalArgumentException outOfRange(Object value) {
      return new IllegalArgumentException("column '" + column + "' (" + vector.getField().getType()
          + ") cannot hold " + value);
    }
  }

  static ValueWriter writerFor(ValueVector v, String column) {
    ArrowType type = v.getField().getType();
    if (v instanceof BitVector b) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { b.setSafe(i, r.getBoolean(o) ? 1 : 0); }
      };
    } else if (v instanceof TinyIntVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getByte(o)); }
      };
    } else if (v instanceof SmallIntVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getShort(o)); }
      };
    } else if (v instanceof IntVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getInt(o)); }
      };
    } else if (v instanceof BigIntVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getLong(o)); }
      };
    } else if (v instanceof UInt1Vector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          short s = r.getShort(o);
          if (s < 0 || s > 0xFF) {
            throw outOfRange(s);
          }
          t.setSafe(i, s);
        }
      };
    } else if (v instanceof UInt2Vector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          int s = r.getInt(o);
          if (s < 0 || s > 0xFFFF) {
            throw outOfRange(s);
          }
          t.setSafe(i, s);
        }
      };
    } else if (v instanceof UInt4Vector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          long s = r.getLong(o);
          if (s < 0 || s > 0xFFFFFFFFL) {
            throw outOfRange(s);
          }
          t.setSafe(i, (int) s);
        }
      };
    } else if (v instanceof UInt8Vector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          BigDecimal d = r.getDecimal(o, 20, 0).toJavaBigDecimal();
          if (d.signum() < 0 || d.stripTrailingZeros().scale() > 0 || d.toBigInteger().bitLength() > 64) {
            throw outOfRange(d);
          }
          t.setSafe(i, d.toBigInteger().longValue());
        }
      };
    } else if (v instanceof Float4Vector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getFloat(o)); }
      };
    } else if (v instanceof Float8Vector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getDouble(o)); }
      };
    } else if (v instanceof DecimalVector t) {
      int precision = t.getPrecision();
      int scale = t.getScale();
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          Decimal d = r.getDecimal(o, precision, scale);
          if (precision <= Decimal.MAX_LONG_DIGITS()) {
            t.setSafe(i, d.toUnscaledLong());
          } else {
            t.setSafe(i, d.toJavaBigDecimal().setScale(scale));
          }
        }
      };
    } else if (v instanceof VarCharVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          UTF8String s = r.getUTF8String(o);
          if (s.getBaseObject() instanceof byte[] bytes) {
            t.setSafe(i, bytes, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
          } else {
            t.setSafe(i, s.getBytes());
          }
        }
      };
    } else if (v instanceof LargeVarCharVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getUTF8String(o).getBytes()); }
      };
    } else if (v instanceof VarBinaryVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getBinary(o)); }
      };
    } else if (v instanceof LargeVarBinaryVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getBinary(o)); }
      };
    } else if (v instanceof FixedSizeBinaryVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          byte[] b = r.getBinary(o);
          if (b.length != t.getByteWidth()) {
            throw new IllegalArgumentException("column '" + column + "' holds binaries of exactly "
                + t.getByteWidth() + " bytes, not " + b.length);
          }
          t.setSafe(i, b);
        }
      };
    } else if (v instanceof DateDayVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getInt(o)); }
      };
    } else if (v instanceof DateMilliVector t) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { t.setSafe(i, r.getInt(o) * 86_400_000L); }
      };
    } else if (v instanceof TimeStampVector t) {
      TimeUnit unit = ((ArrowType.Timestamp) type).getUnit();
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          long micros = r.getLong(o);
          long value = switch (unit) {
            case SECOND -> Math.floorDiv(micros, 1_000_000L);
            case MILLISECOND -> Math.floorDiv(micros, 1_000L);
            case MICROSECOND -> micros;
            case NANOSECOND -> Math.multiplyExact(micros, 1_000L);
          };
          t.setSafe(i, value);
        }
      };
    } else if (v instanceof NullVector) {
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) { }
      };
    } else if (v instanceof FixedSizeListVector l) {
      return fixedSizeList(l, column);
    } else if (v instanceof MapVector m) {
      StructVector entries = (StructVector) m.getDataVector();
      ValueWriter keys = writerFor(entries.getChildByOrdinal(0), column + ".key");
      ValueWriter values = writerFor(entries.getChildByOrdinal(1), column + ".value");
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          MapData d = r.getMap(o);
          int start = m.startNewValue(i);
          ArrayData ks = d.keyArray();
          ArrayData vs = d.valueArray();
          for (int j = 0; j < d.numElements(); j++) {
            entries.setIndexDefined(start + j);
            keys.write(ks, j, start + j);
            values.write(vs, j, start + j);
          }
          m.endValue(i, d.numElements());
        }
      };
    } else if (v instanceof ListVector l) {
      ValueWriter element = writerFor(l.getDataVector(), column + ".element");
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          ArrayData a = r.getArray(o);
          int start = l.startNewValue(i);
          for (int j = 0; j < a.numElements(); j++) {
            element.write(a, j, start + j);
          }
          l.endValue(i, a.numElements());
        }
      };
    } else if (v instanceof LargeListVector l) {
      ValueWriter element = writerFor(l.getDataVector(), column + ".element");
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          ArrayData a = r.getArray(o);
          long start = l.startNewValue(i);
          for (int j = 0; j < a.numElements(); j++) {
            element.write(a, j, Math.toIntExact(start + j));
          }
          l.endValue(i, a.numElements());
        }
      };
    } else if (v instanceof StructVector s) {
      List<FieldVector> children = s.getChildrenFromFields();
      ValueWriter[] cw = new ValueWriter[children.size()];
      for (int c = 0; c < cw.length; c++) {
        cw[c] = writerFor(children.get(c), column + "." + children.get(c).getName());
      }
      return new ValueWriter(v, column) {
        @Override void set(SpecializedGetters r, int o, int i) {
          var row = r.getStruct(o, cw.length);
          s.setIndexDefined(i);
          for (int c = 0; c < cw.length; c++) {
            cw[c].write(row, c, i);
          }
        }

        @Override void setNull(int index) {
          s.setNull(index);
          for (ValueWriter c : cw) {
            if (c.vector.getField().isNullable()) {
              c.setNull(index);
            }
          }
        }
      };
    }
    throw new UnsupportedOperationException("column '" + column + "': the connector cannot write "
        + "Lance type " + type);
  }

  /**
   * A fixed-size list: exactly n elements per row. Float and int elements of an unsafe array
   * with no null are copied as one block (embeddings are the common case and the bulk of the
   * bytes).
   */
  private static ValueWriter fixedSizeList(FixedSizeListVector l, String column) {
    int n = l.getListSize();
    FieldVector child = l.getDataVector();
    ValueWriter element = writerFor(child, column + ".element");
    int width = child instanceof Float4Vector || child instanceof IntVector ? 4
        : child instanceof Float8Vector || child instanceof BigIntVector ? 8 : 0;
    return new ValueWriter(l, column) {
      @Override void set(SpecializedGetters r, int o, int i) {
        ArrayData a = r.getArray(o);
        if (a.numElements() != n) {
          throw new IllegalArgumentException("column '" + column + "' is a fixed_size_list of "
              + n + " elements, but a row has " + a.numElements());
        }
        l.setNotNull(i);
        int start = i * n;
        if (width > 0 && a instanceof UnsafeArrayData u && !hasNull(u, n)) {
          org.apache.arrow.vector.BaseFixedWidthVector fw =
              (org.apache.arrow.vector.BaseFixedWidthVector) child;
          while (fw.getValueCapacity() < start + n) {
            fw.reAlloc();
          }
          long header = UnsafeArrayData.calculateHeaderPortionInBytes(n);
          Platform.copyMemory(u.getBaseObject(), u.getBaseOffset() + header, null,
              fw.getDataBuffer().memoryAddress() + (long) start * width, (long) n * width);
          for (int j = 0; j < n; j++) {
            org.apache.arrow.vector.BitVectorHelper.setValidityBit(fw.getValidityBuffer(), start + j, 1);
          }
        } else {
          for (int j = 0; j < n; j++) {
            element.write(a, j, start + j);
          }
        }
      }

      @Override void setNull(int index) {
        l.setNull(index);
      }
    };
  }

  private static boolean hasNull(UnsafeArrayData u, int n) {
    for (int j = 0; j < n; j++) {
      if (u.isNullAt(j)) {
        return true;
      }
    }
    return false;
  }
}
