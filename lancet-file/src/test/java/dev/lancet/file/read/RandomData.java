package dev.lancet.file.read;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Fills a vector of any Arrow type Lance stores with random values of a chosen shape: random,
 * few distinct values (dictionary), long runs (RLE), one constant, large values (full-zip), with
 * or without nulls. Strings are ASCII.
 */
final class RandomData {
  /** How a leaf's values are drawn. */
  enum Shape { RANDOM, FEW_DISTINCT, RUNS, CONSTANT, LARGE }

  /** What to draw: the shape, the share of nulls, the longest list, the longest value. */
  record Profile(Shape shape, double nullRate, int maxListLength, int maxValueBytes) {}

  private final Random rnd;
  private final Profile profile;
  private final long[] pool;
  private long runValue;
  private int runLeft;

  RandomData(Random rnd, Profile profile) {
    this.rnd = rnd;
    this.profile = profile;
    this.pool = new long[1 + rnd.nextInt(6)];
    for (int i = 0; i < pool.length; i++) {
      pool[i] = rnd.nextLong();
    }
  }

  /** Fills {@code v} with {@code rows} values (allocating it). */
  void fill(FieldVector v, int rows) {
    v.setInitialCapacity(Math.max(rows, 1));
    v.allocateNew();
    fillAllocated(v, rows);
  }

  private boolean isNull(FieldVector v) {
    return v.getField().isNullable() && profile.nullRate() > 0 && rnd.nextDouble() < profile.nullRate();
  }

  /** The seed of the next leaf value, per the shape. */
  private long nextSeed() {
    return switch (profile.shape()) {
      case FEW_DISTINCT -> pool[rnd.nextInt(pool.length)];
      case CONSTANT -> pool[0];
      case RUNS -> {
        if (runLeft == 0) {
          runValue = pool[rnd.nextInt(pool.length)];
          runLeft = 1 + rnd.nextInt(300);
        }
        runLeft--;
        yield runValue;
      }
      default -> rnd.nextLong();
    };
  }

  private void fillAllocated(FieldVector v, int rows) {
    if (v instanceof NullVector n) {
      n.setValueCount(rows);
      return;
    }
    if (v instanceof StructVector s) {
      for (FieldVector c : s.getChildrenFromFields()) {
        c.setInitialCapacity(Math.max(rows, 1));
        c.allocateNew();
        fillAllocated(c, rows);
      }
      for (int i = 0; i < rows; i++) {
        if (isNull(s)) {
          s.setNull(i);
        } else {
          s.setIndexDefined(i);
        }
      }
      s.setValueCount(rows);
      return;
    }
    if (v instanceof FixedSizeListVector l) {
      int d = l.getListSize();
      FieldVector c = l.getDataVector();
      c.setInitialCapacity(Math.max(rows * d, 1));
      c.allocateNew();
      fillAllocated(c, rows * d);
      for (int i = 0; i < rows; i++) {
        if (isNull(l)) {
          l.setNull(i);
        } else {
          l.setNotNull(i);
        }
      }
      l.setValueCount(rows);
      return;
    }
    if (v instanceof ListVector l) {
      int[] lengths = new int[rows];
      int total = 0;
      for (int i = 0; i < rows; i++) {
        lengths[i] = rnd.nextInt(profile.maxListLength() + 1);
        total += lengths[i];
      }
      FieldVector c = l.getDataVector();
      c.setInitialCapacity(Math.max(total, 1));
      c.allocateNew();
      fillAllocated(c, total);
      int at = 0;
      for (int i = 0; i < rows; i++) {
        boolean nul = isNull(l);
        l.startNewValue(i);
        at += lengths[i];
        l.endValue(i, lengths[i]);
        if (nul) {
          l.setNull(i);
          // a null list keeps its slot length: lance-core drops it; keep it empty instead
        }
      }
      l.setValueCount(rows);
      fixNullListLengths(l, lengths);
      return;
    }
    if (v instanceof LargeListVector l) {
      int total = 0;
      int[] lengths = new int[rows];
      for (int i = 0; i < rows; i++) {
        lengths[i] = rnd.nextInt(profile.maxListLength() + 1);
        total += lengths[i];
      }
      FieldVector c = l.getDataVector();
      c.setInitialCapacity(Math.max(total, 1));
      c.allocateNew();
      fillAllocated(c, total);
      for (int i = 0; i < rows; i++) {
        boolean nul = isNull(l);
        l.startNewValue(i);
        l.endValue(i, lengths[i]);
        if (nul) {
          l.setNull(i);
        }
      }
      l.setValueCount(rows);
      return;
    }
    if (v instanceof BaseVariableWidthVector || v instanceof BaseLargeVariableWidthVector) {
      boolean text = v.getField().getType().getTypeID() == ArrowType.ArrowTypeID.Utf8
          || v.getField().getType().getTypeID() == ArrowType.ArrowTypeID.LargeUtf8;
      for (int i = 0; i < rows; i++) {
        long seed = nextSeed();
        if (isNull(v)) {
          continue;
        }
        byte[] bytes = bytesOf(seed, text);
        if (v instanceof BaseVariableWidthVector b) {
          b.setSafe(i, bytes);
        } else {
          ((BaseLargeVariableWidthVector) v).setSafe(i, bytes);
        }
      }
      v.setValueCount(rows);
      return;
    }
    BaseFixedWidthVector f = (BaseFixedWidthVector) v;
    int width = f instanceof BitVector ? 0 : f.getTypeWidth();
    for (int i = 0; i < rows; i++) {
      long seed = nextSeed();
      if (isNull(v)) {
        continue;
      }
      Random r = new Random(seed);
      if (width == 0) {
        BitVectorHelper.setValidityBit(f.getDataBuffer(), i, r.nextInt(2));
      } else if (f instanceof DecimalVector || f instanceof Decimal256Vector) {
        // a value within the precision: small and sign-extended
        long x = r.nextInt(1_000_000) - 500_000;
        for (int b = 0; b < width; b++) {
          f.getDataBuffer().setByte((long) i * width + b, (byte) (b < 8 ? x >> (8 * b) : x >> 63));
        }
      } else {
        byte[] b = new byte[width];
        r.nextBytes(b);
        f.getDataBuffer().setBytes((long) i * width, b);
      }
      BitVectorHelper.setBit(f.getValidityBuffer(), i);
    }
    f.setValueCount(rows);
  }

  private static void fixNullListLengths(ListVector l, int[] lengths) {
    // nothing: Arrow lets a null list span items; lance-core and the Java reader must agree
  }

  private byte[] bytesOf(long seed, boolean text) {
    Random r = new Random(seed);
    int max = profile.maxValueBytes();
    int len = profile.shape() == Shape.LARGE ? max / 2 + r.nextInt(max / 2 + 1) : r.nextInt(max + 1);
    byte[] b = new byte[len];
    if (text) {
      for (int i = 0; i < len; i++) {
        b[i] = (byte) ('a' + r.nextInt(r.nextBoolean() ? 4 : 26));
      }
    } else {
      r.nextBytes(b);
    }
    return b;
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
