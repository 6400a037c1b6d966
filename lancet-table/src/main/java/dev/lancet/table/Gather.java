package dev.lancet.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Copies chosen rows of batches into a new batch (the caller closes it). */
final class Gather {
  private Gather() {}

  /**
   * Rows {@code rows[i]} of batch {@code batches[i]} of {@code from}, in that order, as a new
   * batch of {@code schema} (the batches' columns, in order).
   */
  static VectorSchemaRoot rows(Schema schema, List<VectorSchemaRoot> from, int[] batches,
      int[] rows, int count, BufferAllocator allocator) {
    VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
    try {
      List<FieldVector> to = out.getFieldVectors();
      for (FieldVector v : to) {
        v.setInitialCapacity(count);
        v.allocateNew();
      }
      for (int c = 0; c < to.size(); c++) {
        FieldVector target = to.get(c);
        FieldVector[] sources = new FieldVector[from.size()];
        for (int b = 0; b < sources.length; b++) {
          sources[b] = from.get(b).getVector(c);
        }
        int i = 0;
        while (i < count) {
          // A run of consecutive rows of one batch is copied at once.
          int end = i + 1;
          while (end < count && batches[end] == batches[i] && rows[end] == rows[i] + (end - i)) {
            end++;
          }
          copy(sources[batches[i]], rows[i], target, i, end - i);
          i = end;
        }
        target.setValueCount(count);
      }
      out.setRowCount(count);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /**
   * Rows {@code [from, from + n)} of {@code source} to rows {@code [to, to + n)} of
   * {@code target} (filled up to {@code to}, with room for the rows): fixed-width values and
   * variable-width bytes in one copy each (a copy per row was a seventh of a merge insert).
   */
  private static void copy(FieldVector source, int from, FieldVector target, int to, int n) {
    if (n > 1 && source.getClass() == target.getClass()) {
      if (source instanceof BaseFixedWidthVector s && s.getTypeWidth() > 0) {
        long width = s.getTypeWidth();
        target.getDataBuffer().setBytes(to * width, s.getDataBuffer(), from * width, n * width);
        copyValidity(source, from, target, to, n);
        return;
      }
      if (source instanceof BaseVariableWidthVector s
          && target instanceof BaseVariableWidthVector t && t.getLastSet() == to - 1) {
        int start = s.getStartOffset(from);
        int bytes = s.getStartOffset(from + n) - start;
        int at = t.getStartOffset(to);
        while (t.getDataBuffer().capacity() < (long) at + bytes) {
          t.reallocDataBuffer();
        }
        t.getDataBuffer().setBytes(at, s.getDataBuffer(), start, bytes);
        ArrowBuf offsets = t.getOffsetBuffer();
        for (int k = 1; k <= n; k++) {
          offsets.setInt((long) (to + k) * BaseVariableWidthVector.OFFSET_WIDTH,
              at + s.getStartOffset(from + k) - start);
        }
        t.setLastSet(to + n - 1);
        copyValidity(source, from, target, to, n);
        return;
      }
    }
    for (int k = 0; k < n; k++) {
      target.copyFromSafe(from + k, to + k, source);
    }
  }

  private static void copyValidity(FieldVector source, int from, FieldVector target, int to,
      int n) {
    ArrowBuf validity = target.getValidityBuffer();
    for (int k = 0; k < n; k++) {
      BitVectorHelper.setValidityBit(validity, to + k, source.isNull(from + k) ? 0 : 1);
    }
  }

  /** A struct column {@code name} of the given columns' rows {@code rows[0..count)}. */
  static StructVector struct(String name, List<FieldVector> columns, int[] rows, int count,
      BufferAllocator allocator) {
    List<Field> children = new ArrayList<>();
    for (FieldVector v : columns) {
      children.add(v.getField());
    }
    Field field = new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), children);
    StructVector out = (StructVector) field.createVector(allocator);
    try {
      out.setInitialCapacity(count);
      out.allocateNew();
      for (int c = 0; c < columns.size(); c++) {
        FieldVector target = (FieldVector) out.getChildrenFromFields().get(c);
        FieldVector source = columns.get(c);
        for (int i = 0; i < count; i++) {
          target.copyFromSafe(rows[i], i, source);
        }
        target.setValueCount(count);
      }
      for (int i = 0; i < count; i++) {
        out.setIndexDefined(i);
      }
      out.setValueCount(count);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }
}
