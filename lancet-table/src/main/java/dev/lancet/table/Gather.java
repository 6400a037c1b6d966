package dev.lancet.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
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
        for (int i = 0; i < count; i++) {
          target.copyFromSafe(rows[i], i, sources[batches[i]]);
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
