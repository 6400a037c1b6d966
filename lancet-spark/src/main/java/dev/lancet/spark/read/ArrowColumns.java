package dev.lancet.spark.read;

import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.vector.BaseVariableWidthVector;
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
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Spark {@link ColumnVector}s over the Arrow vectors a Lance scan returns, without copying:
 * Spark's own {@link ArrowColumnVector} where it reads the whole type, and small views here for
 * what it does not (unsigned integers, fixed-size lists and binaries, large lists, date64,
 * timestamps in other units than microseconds, and containers holding any of them). The views
 * read the vector the reader reloads batch after batch.
 */
public final class ArrowColumns {
  private ArrowColumns() {}

  /** A column over {@code v} typed {@code type} ({@code SparkSchemas.toSpark} of its field). */
  public static ColumnVector wrap(ValueVector v, DataType type) {
    if (nativelyRead(v)) {
      return new ArrowColumnVector(v);
    }
    if (v instanceof UInt8Vector u && type instanceof org.apache.spark.sql.types.LongType) {
      return new RowIdColumn(u, type);
    }
    if (v instanceof StructVector s) {
      org.apache.spark.sql.types.StructType st = (org.apache.spark.sql.types.StructType) type;
      ColumnVector[] children = new ColumnVector[st.fields().length];
      for (int i = 0; i < children.length; i++) {
        children[i] = wrap(s.getChildByOrdinal(i), st.fields()[i].dataType());
      }
      return new StructColumn(s, type, children);
    }
    if (v instanceof MapVector m) {
      org.apache.spark.sql.types.MapType mt = (org.apache.spark.sql.types.MapType) type;
      StructVector entries = (StructVector) m.getDataVector();
      return new MapColumn(m, type, wrap(entries.getChildByOrdinal(0), mt.keyType()),
          wrap(entries.getChildByOrdinal(1), mt.valueType()));
    }
    if (v instanceof ListVector || v instanceof LargeListVector || v instanceof FixedSizeListVector) {
      ValueVector child = v instanceof ListVector l ? l.getDataVector()
          : v instanceof LargeListVector ll ? ll.getDataVector()
          : ((FixedSizeListVector) v).getDataVector();
      DataType element = ((org.apache.spark.sql.types.ArrayType) type).elementType();
      return new ListColumn(v, type, wrap(child, element));
    }
    return new LeafColumn(v, type);
  }

  /** Whether Spark's ArrowColumnVector reads {@code v} and everything in it. */
  static boolean nativelyRead(ValueVector v) {
    if (v instanceof BitVector || v instanceof TinyIntVector || v instanceof SmallIntVector
        || v instanceof IntVector || v instanceof BigIntVector || v instanceof Float4Vector
        || v instanceof Float8Vector || v instanceof DecimalVector || v instanceof VarCharVector
        || v instanceof LargeVarCharVector || v instanceof VarBinaryVector
        || v instanceof LargeVarBinaryVector || v instanceof DateDayVector
        || v instanceof TimeStampMicroTZVector || v instanceof TimeStampMicroVector
        || v instanceof NullVector) {
      return true;
    }
    if (v instanceof MapVector m) {
      return nativelyRead(m.getDataVector());
    }
    if (v instanceof ListVector l) {
      return nativelyRead(l.getDataVector());
    }
    if (v instanceof StructVector s) {
      for (FieldVector c : s.getChildrenFromFields()) {
        if (!nativelyRead(c)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** The common part of the views: nulls from the Arrow validity buffer. */
  private abstract static class View extends ColumnVector {
    final ValueVector vector;

    View(ValueVector vector, DataType type) {
      super(type);
      this.vector = vector;
    }

    @Override
    public void close() {
      // the scan's reader owns the vectors
    }

    @Override
    public boolean hasNull() {
      return vector.getNullCount() > 0;
    }

    @Override
    public int numNulls() {
      return vector.getNullCount();
    }

    @Override
    public boolean isNullAt(int rowId) {
      return vector.isNull(rowId);
    }

    UnsupportedOperationException wrongType(String what) {
      return new UnsupportedOperationException("a Lance " + vector.getField().getType()
          + " column cannot be read as " + what);
    }

    @Override public boolean getBoolean(int rowId) { throw wrongType("boolean"); }
    @Override public byte getByte(int rowId) { throw wrongType("byte"); }
    @Override public short getShort(int rowId) { throw wrongType("short"); }
    @Override public int getInt(int rowId) { throw wrongType("int"); }
    @Override public long getLong(int rowId) { throw wrongType("long"); }
    @Override public float getFloat(int rowId) { throw wrongType("float"); }
    @Override public double getDouble(int rowId) { throw wrongType("double"); }
    @Override public ColumnarArray getArray(int rowId) { throw wrongType("array"); }
    @Override public ColumnarMap getMap(int rowId) { throw wrongType("map"); }
    @Override public Decimal getDecimal(int rowId, int precision, int scale) { throw wrongType("decimal"); }
    @Override public UTF8String getUTF8String(int rowId) { throw wrongType("string"); }
    @Override public byte[] getBinary(int rowId) { throw wrongType("binary"); }
    @Override public ColumnVector getChild(int ordinal) { throw wrongType("struct"); }
  }

  /** {@code _rowid} / {@code _rowaddr}: uint64 read as Spark longs (the same 64 bits). */
  private static final class RowIdColumn extends View {
    private final UInt8Vector v;

    RowIdColumn(UInt8Vector v, DataType type) {
      super(v, type);
      this.v = v;
    }

    @Override
    public long getLong(int rowId) {
      return v.get(rowId);
    }
  }

  /** Leaves Spark's vector does not read: unsigned, fixed-size binary, date64, timestamps. */
  private static final class LeafColumn extends View {
    LeafColumn(ValueVector v, DataType type) {
      super(v, type);
      if (!(v instanceof UInt1Vector || v instanceof UInt2Vector || v instanceof UInt4Vector
          || v instanceof UInt8Vector || v instanceof FixedSizeBinaryVector
          || v instanceof DateMilliVector || v instanceof TimeStampVector
          || v instanceof BaseVariableWidthVector)) {
        throw wrongType(type.simpleString());
      }
    }

    @Override
    public short getShort(int rowId) {
      return (short) (((UInt1Vector) vector).get(rowId) & 0xFF);
    }

    @Override
    public int getInt(int rowId) {
      if (vector instanceof DateMilliVector d) {
        return (int) Math.floorDiv(d.get(rowId), 86_400_000L);
      }
      return ((UInt2Vector) vector).get(rowId);
    }

    @Override
    public long getLong(int rowId) {
      if (vector instanceof TimeStampVector t) {
        long raw = t.get(rowId);
        TimeUnit unit = ((ArrowType.Timestamp) t.getField().getType()).getUnit();
        return switch (unit) {
          case SECOND -> Math.multiplyExact(raw, 1_000_000L);
          case MILLISECOND -> Math.multiplyExact(raw, 1_000L);
          case MICROSECOND -> raw;
          case NANOSECOND -> Math.floorDiv(raw, 1_000L);
        };
      }
      return ((UInt4Vector) vector).get(rowId) & 0xFFFFFFFFL;
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
      long bits = ((UInt8Vector) vector).get(rowId);
      if (bits >= 0) {
        return Decimal.apply(bits, precision, scale);
      }
      return Decimal.apply(new BigDecimal(Long.toUnsignedString(bits)), precision, scale);
    }

    @Override
    public byte[] getBinary(int rowId) {
      if (vector instanceof FixedSizeBinaryVector f) {
        return f.get(rowId);
      }
      return ((BaseVariableWidthVector) vector).get(rowId);
    }
  }

  /** A struct whose children need views. */
  private static final class StructColumn extends View {
    private final ColumnVector[] children;

    StructColumn(StructVector v, DataType type, ColumnVector[] children) {
      super(v, type);
      this.children = children;
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      return children[ordinal];
    }
  }

  /** List, large list and fixed-size list over one child column. */
  private static final class ListColumn extends View {
    private final ColumnVector child;

    ListColumn(ValueVector v, DataType type, ColumnVector child) {
      super(v, type);
      this.child = child;
    }

    @Override
    public ColumnarArray getArray(int rowId) {
      if (vector instanceof FixedSizeListVector f) {
        int n = f.getListSize();
        return new ColumnarArray(child, rowId * n, n);
      }
      if (vector instanceof ListVector l) {
        int start = l.getOffsetBuffer().getInt((long) rowId * ListVector.OFFSET_WIDTH);
        int end = l.getOffsetBuffer().getInt((long) (rowId + 1) * ListVector.OFFSET_WIDTH);
        return new ColumnarArray(child, start, end - start);
      }
      LargeListVector ll = (LargeListVector) vector;
      long start = ll.getOffsetBuffer().getLong((long) rowId * LargeListVector.OFFSET_WIDTH);
      long end = ll.getOffsetBuffer().getLong((long) (rowId + 1) * LargeListVector.OFFSET_WIDTH);
      return new ColumnarArray(child, Math.toIntExact(start), Math.toIntExact(end - start));
    }
  }

  /** A map whose keys or values need views. */
  private static final class MapColumn extends View {
    private final ColumnVector keys;
    private final ColumnVector values;

    MapColumn(MapVector v, DataType type, ColumnVector keys, ColumnVector values) {
      super(v, type);
      this.keys = keys;
      this.values = values;
    }

    @Override
    public ColumnarMap getMap(int rowId) {
      MapVector m = (MapVector) vector;
      int start = m.getOffsetBuffer().getInt((long) rowId * MapVector.OFFSET_WIDTH);
      int end = m.getOffsetBuffer().getInt((long) (rowId + 1) * MapVector.OFFSET_WIDTH);
      return new ColumnarMap(keys, values, start, end - start);
    }
  }

  /** The columns of a batch, in order. */
  public static ColumnVector[] wrapAll(List<FieldVector> vectors, List<DataType> types) {
    ColumnVector[] out = new ColumnVector[vectors.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = wrap(vectors.get(i), types.get(i));
    }
    return out;
  }
}
