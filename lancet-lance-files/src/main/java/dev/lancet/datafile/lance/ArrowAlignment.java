package dev.lancet.datafile.lance;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.VectorBatchAppender;

/**
 * lance-core's native side requires every Arrow buffer it imports to be aligned for its value
 * type and aborts the whole JVM when one is not (arrow-rs "Memory pointer from external source
 * is not aligned"). Batches read from Arrow IPC files are slices of one message body, so a
 * decimal or 64-bit buffer can start at an address that is 8 but not 16 bytes aligned. Such a
 * batch is copied into freshly allocated (aligned) buffers before it crosses JNI.
 */
final class ArrowAlignment {
  /** 128- and 256-bit values (decimals, month-day-nano intervals) need 16; everything else 8. */
  private static long alignmentOf(FieldVector v) {
    return v instanceof org.apache.arrow.vector.DecimalVector
        || v instanceof org.apache.arrow.vector.Decimal256Vector
        || v instanceof org.apache.arrow.vector.IntervalMonthDayNanoVector ? 16 : 8;
  }

  private ArrowAlignment() {}

  /** Whether every buffer of {@code root} is aligned. */
  static boolean isAligned(VectorSchemaRoot root) {
    for (FieldVector v : root.getFieldVectors()) {
      if (!isAligned(v)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAligned(FieldVector v) {
    long alignment = alignmentOf(v);
    for (ArrowBuf b : v.getFieldBuffers()) {
      if (b != null && b.capacity() > 0 && b.memoryAddress() % alignment != 0) {
        return false;
      }
    }
    for (FieldVector c : v.getChildrenFromFields()) {
      if (!isAligned(c)) {
        return false;
      }
    }
    return true;
  }

  /** A copy of {@code root} in new buffers of {@code allocator}; the caller closes it. */
  static VectorSchemaRoot copy(VectorSchemaRoot root, BufferAllocator allocator) {
    List<FieldVector> out = new ArrayList<>();
    try {
      for (FieldVector v : root.getFieldVectors()) {
        FieldVector target = v.getField().createVector(allocator);
        out.add(target);
        target.allocateNew();
        VectorBatchAppender.batchAppend(target, v);
      }
      VectorSchemaRoot copy = new VectorSchemaRoot(root.getSchema(), out, root.getRowCount());
      return copy;
    } catch (RuntimeException e) {
      out.forEach(FieldVector::close);
      throw e;
    }
  }
}
