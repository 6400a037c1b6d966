package dev.lancet.file.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Random fixed-width columns of every type the Java reader decodes, in varied value shapes. */
final class RandomColumns {
  /** How a column's values are drawn. */
  enum Shape { FULL, NARROW, NARROW_SIGNED, CONSTANT, ALL_NULL, SOME_NULLS, EXTREMES }

  static final List<ArrowType> TYPES = List.of(
      new ArrowType.Int(8, true), new ArrowType.Int(8, false),
      new ArrowType.Int(16, true), new ArrowType.Int(16, false),
      new ArrowType.Int(32, true), new ArrowType.Int(32, false),
      new ArrowType.Int(64, true), new ArrowType.Int(64, false),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
      new ArrowType.Date(DateUnit.DAY), new ArrowType.Date(DateUnit.MILLISECOND),
      new ArrowType.Timestamp(TimeUnit.SECOND, null),
      new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
      new ArrowType.Timestamp(TimeUnit.NANOSECOND, "America/New_York"),
      new ArrowType.Time(TimeUnit.SECOND, 32), new ArrowType.Time(TimeUnit.MILLISECOND, 32),
      new ArrowType.Time(TimeUnit.MICROSECOND, 64), new ArrowType.Time(TimeUnit.NANOSECOND, 64),
      new ArrowType.Duration(TimeUnit.SECOND), new ArrowType.Duration(TimeUnit.MILLISECOND),
      new ArrowType.Duration(TimeUnit.MICROSECOND), new ArrowType.Duration(TimeUnit.NANOSECOND),
      ArrowType.Bool.INSTANCE);

  private RandomColumns() {}

  /** Bits per value of a fixed-width type (1 for bool). */
  static int bits(ArrowType t) {
    return t.getTypeID() == ArrowType.ArrowTypeID.Bool ? 1 : ValueKind.bytes(t) * 8;
  }

  /** A root of {@code types.size()} columns of {@code rows} rows; the caller closes it. */
  static VectorSchemaRoot root(BufferAllocator alloc, List<ArrowType> types, int rows,
      Random rnd) {
    List<FieldVector> vectors = new ArrayList<>();
    for (int c = 0; c < types.size(); c++) {
      Shape shape = Shape.values()[rnd.nextInt(Shape.values().length)];
      boolean nullable = shape == Shape.ALL_NULL || shape == Shape.SOME_NULLS || rnd.nextBoolean();
      Field f = new Field("c" + c + "_" + shape.name().toLowerCase(),
          new FieldType(nullable, types.get(c), null), null);
      BaseFixedWidthVector v = (BaseFixedWidthVector) f.createVector(alloc);
      fill(v, bits(types.get(c)), shape, rows, rnd);
      vectors.add(v);
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(rows);
    return root;
  }

  static void fill(BaseFixedWidthVector v, int bits, Shape shape, int rows, Random rnd) {
    v.allocateNew(Math.max(rows, 1));
    int width = rnd.nextInt(bits + 1);
    long constant = rnd.nextLong();
    double nullRate = rnd.nextDouble();
    for (int i = 0; i < rows; i++) {
      if (shape == Shape.ALL_NULL || shape == Shape.SOME_NULLS && rnd.nextDouble() < nullRate) {
        continue;
      }
      long value = switch (shape) {
        case NARROW -> width == 0 ? 0 : rnd.nextLong() >>> (64 - width);
        case NARROW_SIGNED -> width == 0 ? 0 : rnd.nextLong() >> (64 - width);
        case CONSTANT -> constant;
        case EXTREMES -> switch (rnd.nextInt(4)) {
          case 0 -> 0L;
          case 1 -> -1L;
          case 2 -> 1L << (bits - 1);
          default -> ~(1L << (bits - 1));
        };
        default -> rnd.nextLong();
      };
      if (bits == 1) {
        BitVectorHelper.setValidityBit(v.getDataBuffer(), i, (int) (value & 1));
      } else {
        switch (bits) {
          case 8 -> v.getDataBuffer().setByte(i, (byte) value);
          case 16 -> v.getDataBuffer().setShort(2L * i, (short) value);
          case 32 -> v.getDataBuffer().setInt(4L * i, (int) value);
          default -> v.getDataBuffer().setLong(8L * i, value);
        }
      }
      BitVectorHelper.setBit(v.getValidityBuffer(), i);
    }
    v.setValueCount(rows);
  }
}
