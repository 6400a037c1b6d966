package dev.lancet.table.vector;

import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * One batch of a vector column copied out of Arrow into a primitive array (float for float16 and
 * float32, double for float64, byte for uint8) that the kernels loop over; row {@code r}'s
 * vector starts at {@code r * dim}. The arrays are reused from batch to batch: one per thread.
 */
public final class VectorBatch {
  private final ElementType type;
  private final int dim;
  private float[] floats = new float[0];
  private double[] doubles = new double[0];
  private byte[] bytes = new byte[0];
  private short[] halves = new short[0];
  private FixedSizeListVector vector;

  public VectorBatch(ElementType type, int dim) {
    this.type = type;
    this.dim = dim;
  }

  /** Copies the vectors of {@code v} (a fixed-size list of {@code dim} elements). */
  public void load(FixedSizeListVector v, String column) {
    if (v.getListSize() != dim) {
      throw new IllegalStateException("column '" + column + "' holds vectors of "
          + v.getListSize() + " values in a data file, not " + dim + " as its schema says");
    }
    this.vector = v;
    int rows = v.getValueCount();
    long n = (long) rows * dim;
    FieldVector child = v.getDataVector();
    int width = switch (type) {
      case FLOAT16 -> 2;
      case FLOAT32 -> 4;
      case FLOAT64 -> 8;
      case UINT8 -> 1;
    };
    if (child.getValueCount() < n || n * width > Integer.MAX_VALUE) {
      throw new IllegalStateException("column '" + column + "': a batch of " + rows
          + " vectors of " + dim + " values came with " + child.getValueCount() + " values");
    }
    int count = (int) n;
    ArrowBuf buf = child.getDataBuffer();
    java.nio.ByteBuffer nio = buf.nioBuffer(0, count * width).order(ByteOrder.LITTLE_ENDIAN);
    switch (type) {
      case FLOAT32 -> {
        floats = capacity(floats, count);
        nio.asFloatBuffer().get(floats, 0, count);
      }
      case FLOAT64 -> {
        if (doubles.length < count) {
          doubles = new double[count];
        }
        nio.asDoubleBuffer().get(doubles, 0, count);
      }
      case FLOAT16 -> {
        if (halves.length < count) {
          halves = new short[count];
        }
        nio.asShortBuffer().get(halves, 0, count);
        floats = capacity(floats, count);
        for (int i = 0; i < count; i++) {
          floats[i] = Half.toFloat(halves[i]);
        }
      }
      case UINT8 -> {
        if (bytes.length < count) {
          bytes = new byte[count];
        }
        nio.get(bytes, 0, count);
      }
    }
  }

  private static float[] capacity(float[] a, int n) {
    return a.length >= n ? a : new float[n];
  }

  /** Rows in the batch. */
  public int rows() {
    return vector.getValueCount();
  }

  /** Whether row {@code r} has no vector (its distance is null: Lance leaves it out). */
  public boolean isNull(int r) {
    return vector.isNull(r);
  }

  public int dim() {
    return dim;
  }

  float[] floats() {
    return floats;
  }

  double[] doubles() {
    return doubles;
  }

  byte[] bytes() {
    return bytes;
  }
}
