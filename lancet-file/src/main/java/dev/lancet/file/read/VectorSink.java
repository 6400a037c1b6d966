package dev.lancet.file.read;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Where decoded values of one column go: the leaf vector of a batch, already allocated, and the
 * struct vectors above it whose validity this column sets. Values are rows of {@code width}
 * bytes (a fixed-width type; a fixed-size list's items, into its child vector; a packed
 * struct's children, split row by row), bits (bool), or variable-width values with 32- or
 * 64-bit offsets appended a chunk's worth at a time. Positions are the batch's row indices.
 */
final class VectorSink {
  private enum Kind { BITS, FIXED, LIST_ITEMS, PACKED, VARIABLE, LARGE_VARIABLE }

  private final Kind kind;
  private final FieldVector vector;
  private final ArrowBuf data;
  private final ArrowBuf validity;
  /** Bytes per row (a fixed-size list's whole row; a packed struct's row). */
  private final int width;
  /** Bytes per value for {@link #putValues}: the item's width for lists. */
  private final int valueBytes;
  /** The data buffer's memory as a little-endian buffer (views share its bounds). */
  private final ByteBuffer out;
  /** A fixed-size list: items per row and the item vector's validity. */
  private final int dimension;
  private final ArrowBuf itemValidity;
  /** A packed struct: each child's data buffer, validity and width. */
  private final ArrowBuf[] childData;
  private final ArrowBuf[] childValidity;
  private final int[] childWidth;
  private final BaseVariableWidthVector variable;
  private final BaseLargeVariableWidthVector large;
  /** Struct vectors above the leaf by layer (index 1 the parent), null where another sets it. */
  private final StructVector[] ancestors;
  private byte[] narrowBytes;
  private short[] narrowShorts;
  private int[] narrowInts;
  private int[] ends;

  private VectorSink(Kind kind, FieldVector vector, ArrowBuf data, ArrowBuf validity, int width,
      int valueBytes, int dimension, ArrowBuf itemValidity, FieldVector[] children,
      StructVector[] ancestors) {
    this.kind = kind;
    this.vector = vector;
    this.data = data;
    this.validity = validity;
    this.width = width;
    this.valueBytes = valueBytes;
    this.out = data == null ? null
        : data.nioBuffer(0, (int) data.capacity()).order(ByteOrder.LITTLE_ENDIAN);
    this.dimension = dimension;
    this.itemValidity = itemValidity;
    this.variable = vector instanceof BaseVariableWidthVector v ? v : null;
    this.large = vector instanceof BaseLargeVariableWidthVector v ? v : null;
    this.ancestors = ancestors;
    if (children != null) {
      childData = new ArrowBuf[children.length];
      childValidity = new ArrowBuf[children.length];
      childWidth = new int[children.length];
      for (int i = 0; i < children.length; i++) {
        BaseFixedWidthVector c = (BaseFixedWidthVector) children[i];
        childData[i] = c.getDataBuffer();
        childValidity[i] = c.getValidityBuffer();
        childWidth[i] = c.getTypeWidth();
      }
    } else {
      childData = null;
      childValidity = null;
      childWidth = null;
    }
  }

  /** The sink for a top-level vector of a column the Java reader decodes. */
  static VectorSink of(FieldVector vector) {
    return of(vector, new StructVector[1]);
  }

  /**
   * The sink for {@code vector} with struct {@code ancestors} by layer ({@code ancestors[j]} the
   * struct {@code j} layers up, null where this column does not set it; index 0 unused).
   */
  static VectorSink of(FieldVector vector, StructVector[] ancestors) {
    if (vector instanceof BaseVariableWidthVector) {
      return new VectorSink(Kind.VARIABLE, vector, null, null, 0, 0, 0, null, null, ancestors);
    }
    if (vector instanceof BaseLargeVariableWidthVector) {
      return new VectorSink(Kind.LARGE_VARIABLE, vector, null, null, 0, 0, 0, null, null,
          ancestors);
    }
    if (vector instanceof BitVector b) {
      return new VectorSink(Kind.BITS, vector, b.getDataBuffer(), b.getValidityBuffer(), 0, 0, 0,
          null, null, ancestors);
    }
    if (vector instanceof FixedSizeListVector l) {
      BaseFixedWidthVector items = (BaseFixedWidthVector) l.getDataVector();
      int item = items.getTypeWidth();
      return new VectorSink(Kind.LIST_ITEMS, vector, items.getDataBuffer(),
          l.getValidityBuffer(), item * l.getListSize(), item, l.getListSize(),
          items.getValidityBuffer(), null, ancestors);
    }
    if (vector instanceof StructVector s) {
      FieldVector[] children = s.getChildrenFromFields().toArray(new FieldVector[0]);
      int w = 0;
      for (FieldVector c : children) {
        w += ((BaseFixedWidthVector) c).getTypeWidth();
      }
      return new VectorSink(Kind.PACKED, vector, null, s.getValidityBuffer(), w, 0, 0, null,
          children, ancestors);
    }
    BaseFixedWidthVector f = (BaseFixedWidthVector) vector;
    return new VectorSink(Kind.FIXED, vector, f.getDataBuffer(), f.getValidityBuffer(),
        f.getTypeWidth(), f.getTypeWidth(), 0, null, null, ancestors);
  }

  /** Items per row of a fixed-size list (1 otherwise). */
  int dimension() {
    return kind == Kind.LIST_ITEMS ? dimension : 1;
  }

  /** A scratch array of at least {@code n} bytes, for values decoded before they are put. */
  byte[] scratch(int n) {
    return bytes(n);
  }

  /** A scratch array of at least {@code n} ints, for the ends of values before they are put. */
  int[] ends(int n) {
    if (ends == null || ends.length < n) {
      ends = new int[Math.max(n, FastLanes.BLOCK)];
    }
    return ends;
  }

  /**
   * Puts the variable-width values of rows {@code [at, at + count)}, the rows before them
   * already put or left null: value k is {@code src[pos + ends[k-1], pos + ends[k])} (from
   * {@code pos} for k = 0). One copy of the bytes, the offsets written directly; validity is
   * set by the caller.
   */
  void putVariable(byte[] src, int pos, int[] ends, int count, int at) {
    if (count == 0) {
      return;
    }
    if (large != null) {
      putLarge(src, pos, ends, count, at);
      return;
    }
    while (variable.getValueCapacity() < at + count) {
      variable.reallocValidityAndOffsetBuffers();
    }
    ArrowBuf offsets = variable.getOffsetBuffer();
    // Rows after the last one put and before this one (nulls of an all-null page) are empty.
    int last = variable.getLastSet();
    int start = offsets.getInt((long) (last + 1) * 4);
    for (int r = last + 2; r <= at; r++) {
      offsets.setInt((long) r * 4, start);
    }
    long total = ends[count - 1];
    if (start + total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a batch of column '" + variable.getName() + "' would "
          + "hold more than 2 GiB of values, past what 32-bit offsets address: read it with a "
          + "smaller batch size");
    }
    if (variable.getDataBuffer().capacity() < start + total) {
      variable.reallocDataBuffer(start + total);
    }
    variable.getDataBuffer().setBytes(start, src, pos, total);
    for (int k = 0; k < count; k++) {
      offsets.setInt((long) (at + k + 1) * 4, start + ends[k]);
    }
    variable.setLastSet(at + count - 1);
  }

  private void putLarge(byte[] src, int pos, int[] ends, int count, int at) {
    while (large.getValueCapacity() < at + count) {
      large.reallocValidityAndOffsetBuffers();
    }
    ArrowBuf offsets = large.getOffsetBuffer();
    int last = large.getLastSet();
    long start = offsets.getLong((long) (last + 1) * 8);
    for (int r = last + 2; r <= at; r++) {
      offsets.setLong((long) r * 8, start);
    }
    long total = ends[count - 1];
    while (large.getDataBuffer().capacity() < start + total) {
      large.reallocDataBuffer();
    }
    large.getDataBuffer().setBytes(start, src, pos, total);
    for (int k = 0; k < count; k++) {
      offsets.setLong((long) (at + k + 1) * 8, start + ends[k]);
    }
    large.setLastSet(at + count - 1);
  }

  private ArrowBuf validity() {
    if (variable != null) {
      return variable.getValidityBuffer();
    }
    return large != null ? large.getValidityBuffer() : validity;
  }

  /**
   * Writes {@code count} values {@code values[from..]} (unsigned, low bits) to rows from
   * {@code at}; for a fixed-size list, to items from {@code at} (the caller counts items).
   */
  void putValues(long[] values, int from, int count, int at) {
    // Narrowed into a typed array, then one bulk copy into the vector's memory.
    switch (valueBytes) {
      case 1 -> {
        byte[] n = bytes(count);
        for (int i = 0; i < count; i++) {
          n[i] = (byte) values[from + i];
        }
        out.put(at, n, 0, count);
      }
      case 2 -> {
        short[] n = shorts(count);
        for (int i = 0; i < count; i++) {
          n[i] = (short) values[from + i];
        }
        out.asShortBuffer().put(at, n, 0, count);
      }
      case 4 -> {
        int[] n = ints(count);
        for (int i = 0; i < count; i++) {
          n[i] = (int) values[from + i];
        }
        out.asIntBuffer().put(at, n, 0, count);
      }
      case 8 -> out.asLongBuffer().put(at, values, from, count);
      default -> {
        if (kind == Kind.BITS) {
          for (int i = 0; i < count; i++) {
            BitVectorHelper.setValidityBit(data, at + i, (int) (values[from + i] & 1));
          }
          return;
        }
        throw new IllegalStateException("values of " + valueBytes + " bytes");
      }
    }
  }

  /** Bytes per value {@link #putValues} takes (0 for bits). */
  int valueBytes() {
    return valueBytes;
  }

  /** Bytes per row {@link #putRaw} takes. */
  int width() {
    return width;
  }

  private byte[] bytes(int n) {
    if (narrowBytes == null || narrowBytes.length < n) {
      narrowBytes = new byte[Math.max(n, FastLanes.BLOCK)];
    }
    return narrowBytes;
  }

  private short[] shorts(int n) {
    if (narrowShorts == null || narrowShorts.length < n) {
      narrowShorts = new short[Math.max(n, FastLanes.BLOCK)];
    }
    return narrowShorts;
  }

  private int[] ints(int n) {
    if (narrowInts == null || narrowInts.length < n) {
      narrowInts = new int[Math.max(n, FastLanes.BLOCK)];
    }
    return narrowInts;
  }

  /**
   * Copies {@code count} rows of {@link #width} bytes from {@code src} (array-backed) at byte
   * {@code pos}.
   */
  void putRaw(ByteBuffer src, int pos, int count, int at) {
    switch (kind) {
      case PACKED -> {
        for (int r = 0; r < count; r++) {
          int p = pos + r * width;
          for (int c = 0; c < childData.length; c++) {
            childData[c].setBytes((long) (at + r) * childWidth[c], src.array(),
                src.arrayOffset() + p, childWidth[c]);
            p += childWidth[c];
          }
        }
      }
      default -> data.setBytes((long) at * width, src.array(), src.arrayOffset() + pos,
          (long) count * width);
    }
  }

  /** Copies {@code count} rows of {@link #width} bytes from {@code src} at {@code pos}. */
  void putRaw(byte[] src, int pos, int count, int at) {
    putRaw(ByteBuffer.wrap(src).order(ByteOrder.LITTLE_ENDIAN), pos, count, at);
  }

  /** Copies bools {@code from..from+count} of the bit-packed (LSB first) bytes at {@code pos}. */
  void putBits(ByteBuffer src, int pos, int from, int count, int at) {
    for (int i = 0; i < count; i++) {
      int bit = from + i;
      int b = src.get(pos + (bit >>> 3)) >>> (bit & 7) & 1;
      BitVectorHelper.setValidityBit(data, at + i, b);
    }
  }

  /**
   * Sets the validity of the items of rows {@code [at, at + count)} of a fixed-size list from
   * the bits (LSB first) at {@code pos}, starting at bit {@code fromBit}; without bits (a
   * negative {@code pos}), marks them valid. Other kinds have no items: nothing is done.
   */
  void setItemValidity(ByteBuffer src, int pos, long fromBit, int count, int at) {
    if (kind == Kind.PACKED) {
      for (ArrowBuf v : childValidity) {
        setOnes(v, at, count);
      }
      return;
    }
    if (kind != Kind.LIST_ITEMS) {
      return;
    }
    long items = (long) count * dimension;
    long first = (long) at * dimension;
    if (pos < 0) {
      setOnes(itemValidity, first, items);
      return;
    }
    for (long i = 0; i < items; i++) {
      long bit = fromBit + i;
      int b = src.get(pos + (int) (bit >>> 3)) >>> (int) (bit & 7) & 1;
      BitVectorHelper.setValidityBit(itemValidity, (int) (first + i), b);
    }
  }

  /** Marks rows {@code at..at+count} valid (and every struct this column sets). */
  void setValid(int at, int count) {
    setOnes(validity(), at, count);
    for (int j = 1; j < ancestors.length; j++) {
      if (ancestors[j] != null) {
        setOnes(ancestors[j].getValidityBuffer(), at, count);
      }
    }
  }

  private static void setOnes(ArrowBuf validity, long at, long count) {
    long i = at;
    long end = at + count;
    while (i < end && (i & 7) != 0) {
      BitVectorHelper.setBit(validity, i++);
    }
    long fullBytes = (end - i) >>> 3;
    if (fullBytes > 0) {
      validity.setOne(i >>> 3, fullBytes);
      i += fullBytes << 3;
    }
    while (i < end) {
      BitVectorHelper.setBit(validity, i++);
    }
  }

  /** Marks row {@code at} valid or null (a leaf without struct layers above it). */
  void setValidity(int at, boolean valid) {
    BitVectorHelper.setValidityBit(validity(), at, valid ? 1 : 0);
  }

  /**
   * Sets the validity of row {@code at} at every layer from its definition level {@code def}:
   * layer {@code j} (0 the leaf) is valid when it cannot be null ({@code cmp[j] < 0}) or when
   * {@code def <= cmp[j]}.
   */
  void setLevels(int at, int def, int[] cmp) {
    BitVectorHelper.setValidityBit(validity(), at, cmp[0] < 0 || def <= cmp[0] ? 1 : 0);
    for (int j = 1; j < ancestors.length; j++) {
      if (ancestors[j] != null) {
        boolean valid = j >= cmp.length || cmp[j] < 0 || def <= cmp[j];
        BitVectorHelper.setValidityBit(ancestors[j].getValidityBuffer(), at, valid ? 1 : 0);
      }
    }
  }

  /** Struct layers above the leaf that this sink may set. */
  int layers() {
    return ancestors.length;
  }
}
