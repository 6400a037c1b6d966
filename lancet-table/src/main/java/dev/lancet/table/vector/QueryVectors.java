package dev.lancet.table.vector;

import dev.lancet.table.DistanceMetric;
import dev.lancet.table.InvalidInputException;
import java.util.List;

/**
 * The query vectors of a search, checked against the column and converted to its element type
 * the way Lance converts them (docs/decisions/0028): rounded to float16 for a float16 column,
 * widened to double for a float64 one, taken as bytes 0-255 for a uint8 one. Their norms are
 * computed once for cosine.
 */
public final class QueryVectors {
  private final ElementType type;
  private final DistanceMetric metric;
  private final int dim;
  private final float[][] floats;
  private final double[][] doubles;
  private final byte[][] bytes;
  private final float[] norms;

  private QueryVectors(ElementType type, DistanceMetric metric, int dim, float[][] floats,
      double[][] doubles, byte[][] bytes, float[] norms) {
    this.type = type;
    this.metric = metric;
    this.dim = dim;
    this.floats = floats;
    this.doubles = doubles;
    this.bytes = bytes;
    this.norms = norms;
  }

  /**
   * The queries {@code raw} for column {@code column} of {@code dim}-value vectors of
   * {@code type}, searched with {@code metric}.
   *
   * @throws InvalidInputException when one is not a valid query: wrong length, a NaN or
   *     infinite value, a value a uint8 column cannot hold, all zeros under cosine
   */
  public static QueryVectors prepare(List<float[]> raw, String column, ElementType type,
      int dim, DistanceMetric metric) {
    int n = raw.size();
    float[][] f = type == ElementType.FLOAT16 || type == ElementType.FLOAT32 ? new float[n][]
        : null;
    double[][] d = type == ElementType.FLOAT64 ? new double[n][] : null;
    byte[][] b = type == ElementType.UINT8 ? new byte[n][] : null;
    float[] norms = new float[n];
    for (int q = 0; q < n; q++) {
      float[] v = raw.get(q);
      String which = n == 1 ? "the query vector" : "query vector " + q;
      if (v.length != dim) {
        throw new InvalidInputException(which + " has " + v.length + " values, but column '"
            + column + "' holds vectors of " + dim);
      }
      for (int i = 0; i < dim; i++) {
        if (!Float.isFinite(v[i])) {
          throw new InvalidInputException(which + " has " + v[i] + " at position " + i
              + "; every value of a query vector must be a finite number");
        }
        if (type == ElementType.UINT8 && (v[i] < 0 || v[i] > 255 || v[i] != Math.rint(v[i]))) {
          throw new InvalidInputException(which + " has " + v[i] + " at position " + i
              + ", but column '" + column + "' holds uint8 vectors: every value must be an "
              + "integer from 0 to 255");
        }
      }
      switch (type) {
        case FLOAT32 -> {
          f[q] = v.clone();
          norms[q] = Kernels.norm(f[q]);
        }
        case FLOAT16 -> {
          f[q] = new float[dim];
          for (int i = 0; i < dim; i++) {
            f[q][i] = Half.round(v[i]);
          }
          norms[q] = Kernels.norm(f[q]);
        }
        case FLOAT64 -> {
          d[q] = new double[dim];
          for (int i = 0; i < dim; i++) {
            d[q][i] = v[i];
          }
          norms[q] = Kernels.norm(d[q]);
        }
        case UINT8 -> {
          b[q] = new byte[dim];
          for (int i = 0; i < dim; i++) {
            b[q][i] = (byte) (int) v[i];
          }
        }
      }
      if (metric == DistanceMetric.COSINE && norms[q] == 0f) {
        throw new InvalidInputException(which + " is all zeros"
            + (type == ElementType.FLOAT16 ? " as float16" : "")
            + ", and no vector has a cosine distance to it; use another query or metric");
      }
    }
    return new QueryVectors(type, metric, dim, f, d, b, norms);
  }

  public int count() {
    return norms.length;
  }

  public int dim() {
    return dim;
  }

  /** The distance from query {@code q} to row {@code r} of {@code batch} (NaN: left out). */
  public float distance(int q, VectorBatch batch, int r) {
    int off = r * dim;
    return switch (type) {
      case FLOAT16, FLOAT32 -> switch (metric) {
        case L2 -> Kernels.l2(floats[q], batch.floats(), off, dim);
        case DOT -> 1f - Kernels.dot(floats[q], batch.floats(), off, dim);
        case COSINE -> Kernels.cosine(floats[q], norms[q], batch.floats(), off, dim);
        case HAMMING -> throw new IllegalStateException("hamming on float vectors");
      };
      case FLOAT64 -> switch (metric) {
        case L2 -> Kernels.l2(doubles[q], batch.doubles(), off, dim);
        case DOT -> 1f - Kernels.dot(doubles[q], batch.doubles(), off, dim);
        case COSINE -> Kernels.cosine(doubles[q], norms[q], batch.doubles(), off, dim);
        case HAMMING -> throw new IllegalStateException("hamming on float vectors");
      };
      case UINT8 -> Kernels.hamming(bytes[q], batch.bytes(), off, dim);
    };
  }
}
