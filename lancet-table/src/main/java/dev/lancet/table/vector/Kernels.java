package dev.lancet.table.vector;

/**
 * The distance arithmetic of an exact search, one query vector against one stored vector at
 * {@code off} in a flat array. Plain loops over primitive arrays (no Vector API: it needs a JVM
 * flag on Java 17-21): sixteen independent accumulators, element {@code i} into lane
 * {@code i % 16} and the tail summed apart, which is the order Lance's own kernels add in
 * (docs/decisions/0028), so float32 L2 and dot distances come out bit for bit as lance-core's,
 * and the accumulators keep the CPU's adders busy (measured 3x faster than one accumulator).
 */
public final class Kernels {
  private Kernels() {}

  /** Squared Euclidean distance. */
  public static float l2(float[] q, float[] v, int off, int dim) {
    int n = dim & ~15;
    float tail = 0f;
    for (int i = n; i < dim; i++) {
      float d = q[i] - v[off + i];
      tail += d * d;
    }
    float a0 = 0f, a1 = 0f, a2 = 0f, a3 = 0f, a4 = 0f, a5 = 0f, a6 = 0f, a7 = 0f;
    float a8 = 0f, a9 = 0f, a10 = 0f, a11 = 0f, a12 = 0f, a13 = 0f, a14 = 0f, a15 = 0f;
    for (int i = 0; i < n; i += 16) {
      int o = off + i;
      float d;
      d = q[i] - v[o];
      a0 += d * d;
      d = q[i + 1] - v[o + 1];
      a1 += d * d;
      d = q[i + 2] - v[o + 2];
      a2 += d * d;
      d = q[i + 3] - v[o + 3];
      a3 += d * d;
      d = q[i + 4] - v[o + 4];
      a4 += d * d;
      d = q[i + 5] - v[o + 5];
      a5 += d * d;
      d = q[i + 6] - v[o + 6];
      a6 += d * d;
      d = q[i + 7] - v[o + 7];
      a7 += d * d;
      d = q[i + 8] - v[o + 8];
      a8 += d * d;
      d = q[i + 9] - v[o + 9];
      a9 += d * d;
      d = q[i + 10] - v[o + 10];
      a10 += d * d;
      d = q[i + 11] - v[o + 11];
      a11 += d * d;
      d = q[i + 12] - v[o + 12];
      a12 += d * d;
      d = q[i + 13] - v[o + 13];
      a13 += d * d;
      d = q[i + 14] - v[o + 14];
      a14 += d * d;
      d = q[i + 15] - v[o + 15];
      a15 += d * d;
    }
    return tail + (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14
        + a15);
  }

  /** The dot product {@code q·v}. */
  public static float dot(float[] q, float[] v, int off, int dim) {
    int n = dim & ~15;
    float tail = 0f;
    for (int i = n; i < dim; i++) {
      tail += v[off + i] * q[i];
    }
    float a0 = 0f, a1 = 0f, a2 = 0f, a3 = 0f, a4 = 0f, a5 = 0f, a6 = 0f, a7 = 0f;
    float a8 = 0f, a9 = 0f, a10 = 0f, a11 = 0f, a12 = 0f, a13 = 0f, a14 = 0f, a15 = 0f;
    for (int i = 0; i < n; i += 16) {
      int o = off + i;
      a0 += v[o] * q[i];
      a1 += v[o + 1] * q[i + 1];
      a2 += v[o + 2] * q[i + 2];
      a3 += v[o + 3] * q[i + 3];
      a4 += v[o + 4] * q[i + 4];
      a5 += v[o + 5] * q[i + 5];
      a6 += v[o + 6] * q[i + 6];
      a7 += v[o + 7] * q[i + 7];
      a8 += v[o + 8] * q[i + 8];
      a9 += v[o + 9] * q[i + 9];
      a10 += v[o + 10] * q[i + 10];
      a11 += v[o + 11] * q[i + 11];
      a12 += v[o + 12] * q[i + 12];
      a13 += v[o + 13] * q[i + 13];
      a14 += v[o + 14] * q[i + 14];
      a15 += v[o + 15] * q[i + 15];
    }
    return tail + (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14
        + a15);
  }

  /** Cosine distance {@code 1 - q·v / (|q| |v|)}, {@code qNorm = |q|}; NaN when {@code v = 0}. */
  public static float cosine(float[] q, float qNorm, float[] v, int off, int dim) {
    float vv = squaredNorm(v, off, dim);
    float qv = dot(q, v, off, dim);
    return 1f - qv / qNorm / (float) Math.sqrt(vv);
  }

  /** {@code v·v} of the vector at {@code off} (both operands in one array). */
  private static float squaredNorm(float[] v, int off, int dim) {
    float s0 = 0f, s1 = 0f, s2 = 0f, s3 = 0f, s4 = 0f, s5 = 0f, s6 = 0f, s7 = 0f;
    int n = dim & ~7;
    float tail = 0f;
    for (int i = n; i < dim; i++) {
      float x = v[off + i];
      tail += x * x;
    }
    for (int i = 0; i < n; i += 8) {
      int o = off + i;
      s0 += v[o] * v[o];
      s1 += v[o + 1] * v[o + 1];
      s2 += v[o + 2] * v[o + 2];
      s3 += v[o + 3] * v[o + 3];
      s4 += v[o + 4] * v[o + 4];
      s5 += v[o + 5] * v[o + 5];
      s6 += v[o + 6] * v[o + 6];
      s7 += v[o + 7] * v[o + 7];
    }
    return tail + (s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7);
  }

  /** The Euclidean norm {@code |q|}. */
  public static float norm(float[] q) {
    return (float) Math.sqrt(squaredNorm(q, 0, q.length));
  }

  /** Squared Euclidean distance of float64 vectors, summed in double, returned as float. */
  public static float l2(double[] q, double[] v, int off, int dim) {
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    int n = dim & ~7;
    double tail = 0;
    for (int i = n; i < dim; i++) {
      double d = q[i] - v[off + i];
      tail += d * d;
    }
    for (int i = 0; i < n; i += 8) {
      int o = off + i;
      double d;
      d = q[i] - v[o];
      a0 += d * d;
      d = q[i + 1] - v[o + 1];
      a1 += d * d;
      d = q[i + 2] - v[o + 2];
      a2 += d * d;
      d = q[i + 3] - v[o + 3];
      a3 += d * d;
      d = q[i + 4] - v[o + 4];
      a4 += d * d;
      d = q[i + 5] - v[o + 5];
      a5 += d * d;
      d = q[i + 6] - v[o + 6];
      a6 += d * d;
      d = q[i + 7] - v[o + 7];
      a7 += d * d;
    }
    return (float) (tail + (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7));
  }

  /** The dot product of float64 vectors, in double, as float. */
  public static float dot(double[] q, double[] v, int off, int dim) {
    return (float) dotD(q, 0, v, off, dim);
  }

  /** Cosine distance of float64 vectors; {@code qNorm = |q|}. */
  public static float cosine(double[] q, float qNorm, double[] v, int off, int dim) {
    float vv = (float) dotD(v, off, v, off, dim);
    float qv = (float) dotD(q, 0, v, off, dim);
    return 1f - qv / (qNorm * (float) Math.sqrt(vv));
  }

  /** The Euclidean norm of a float64 vector, as float. */
  public static float norm(double[] q) {
    return (float) Math.sqrt(dotD(q, 0, q, 0, q.length));
  }

  private static double dotD(double[] a, int offA, double[] b, int offB, int dim) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    int n = dim & ~7;
    double tail = 0;
    for (int i = n; i < dim; i++) {
      tail += a[offA + i] * b[offB + i];
    }
    for (int i = 0; i < n; i += 8) {
      int x = offA + i;
      int y = offB + i;
      s0 += a[x] * b[y];
      s1 += a[x + 1] * b[y + 1];
      s2 += a[x + 2] * b[y + 2];
      s3 += a[x + 3] * b[y + 3];
      s4 += a[x + 4] * b[y + 4];
      s5 += a[x + 5] * b[y + 5];
      s6 += a[x + 6] * b[y + 6];
      s7 += a[x + 7] * b[y + 7];
    }
    return tail + (s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7);
  }

  /** The number of differing bits between the uint8 vectors {@code q} and {@code v[off..]}. */
  public static float hamming(byte[] q, byte[] v, int off, int dim) {
    int bits = 0;
    for (int i = 0; i < dim; i++) {
      bits += Integer.bitCount((q[i] ^ v[off + i]) & 0xff);
    }
    return bits;
  }
}
