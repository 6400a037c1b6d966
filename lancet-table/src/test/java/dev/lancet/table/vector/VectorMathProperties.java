package dev.lancet.table.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The search's arithmetic against plain references: float16, the kernels, the top-k heap. */
class VectorMathProperties {

  @Test
  void everyFloat16RoundTrips() {
    for (int h = 0; h < 0x10000; h++) {
      float f = Half.toFloat((short) h);
      if (Float.isNaN(f)) {
        assertThat(Float.isNaN(Half.toFloat(Half.fromFloat(f)))).isTrue();
        continue;
      }
      assertThat(Half.fromFloat(f) & 0xffff).as("half %04x", h).isEqualTo(h);
    }
    assertThat(Half.toFloat((short) 0x3c00)).isEqualTo(1f);
    assertThat(Half.toFloat((short) 0x7bff)).isEqualTo(65504f);
    assertThat(Half.toFloat((short) 0x0001)).isEqualTo(0x1p-24f);
  }

  @Property(tries = 2000)
  void aFloatRoundsToTheNearestFloat16TiesToEven(@ForAll float f) {
    if (Float.isNaN(f) || Math.abs(f) >= 65520f) {
      return;
    }
    short h = Half.fromFloat(f);
    double got = Half.toFloat(h);
    // the two neighbours of the result are no nearer (and a tie goes to the even one)
    for (int step : new int[] {-1, 1}) {
      short n = (short) (h + step);
      float other = Half.toFloat(n);
      if (Float.isNaN(other) || Float.isInfinite(other)
          || Math.signum(other) * Math.signum(got) < 0) {
        continue;
      }
      double dGot = Math.abs(got - f);
      double dOther = Math.abs(other - (double) f);
      assertThat(dGot).as("%s -> %s, neighbour %s", f, got, other).isLessThanOrEqualTo(dOther);
      if (dGot == dOther) {
        assertThat(h & 1).as("tie to even").isZero();
      }
    }
  }

  @Provide
  Arbitrary<List<Float>> vector() {
    return Arbitraries.floats().between(-4f, 4f).list().ofMinSize(1).ofMaxSize(70);
  }

  @Property(tries = 500)
  void kernelsAgreeWithDoublePrecisionDefinitions(@ForAll("vector") List<Float> a,
      @ForAll @IntRange(min = 0, max = 3) int shift) {
    int dim = a.size();
    float[] q = new float[dim];
    float[] v = new float[dim + shift];
    double l2 = 0;
    double dot = 0;
    double qq = 0;
    double vv = 0;
    for (int i = 0; i < dim; i++) {
      q[i] = a.get(i);
      v[shift + i] = a.get((i * 7 + 3) % dim) - 0.5f * i / dim;
      double d = (double) q[i] - v[shift + i];
      l2 += d * d;
      dot += (double) q[i] * v[shift + i];
      qq += (double) q[i] * q[i];
      vv += (double) v[shift + i] * v[shift + i];
    }
    double tol = 1e-5 * (1 + Math.abs(l2) + qq + vv);
    assertThat((double) Kernels.l2(q, v, shift, dim)).isCloseTo(l2,
        org.assertj.core.data.Offset.offset(tol));
    assertThat((double) Kernels.dot(q, v, shift, dim)).isCloseTo(dot,
        org.assertj.core.data.Offset.offset(tol));
    if (qq > 0 && vv > 0) {
      double cos = 1 - dot / Math.sqrt(qq) / Math.sqrt(vv);
      assertThat((double) Kernels.cosine(q, Kernels.norm(q), v, shift, dim)).isCloseTo(cos,
          org.assertj.core.data.Offset.offset(1e-4));
    }
    double[] qd = new double[dim];
    double[] vd = new double[dim + shift];
    for (int i = 0; i < dim; i++) {
      qd[i] = q[i];
      vd[shift + i] = v[shift + i];
    }
    assertThat((double) Kernels.l2(qd, vd, shift, dim)).isCloseTo(l2,
        org.assertj.core.data.Offset.offset(tol));
    assertThat((double) Kernels.dot(qd, vd, shift, dim)).isCloseTo(dot,
        org.assertj.core.data.Offset.offset(tol));
  }

  @Property(tries = 300)
  void hammingCountsDifferingBits(@ForAll @Size(min = 1, max = 40) List<Byte> a,
      @ForAll byte salt) {
    byte[] q = new byte[a.size()];
    byte[] v = new byte[a.size()];
    int bits = 0;
    for (int i = 0; i < q.length; i++) {
      q[i] = a.get(i);
      v[i] = (byte) (a.get(i) * 31 + salt + i);
      for (int b = 0; b < 8; b++) {
        bits += ((q[i] >> b) & 1) != ((v[i] >> b) & 1) ? 1 : 0;
      }
    }
    assertThat(Kernels.hamming(q, v, 0, q.length)).isEqualTo((float) bits);
  }

  @Property(tries = 300)
  void topKHoldsTheFirstKOfTheFullRanking(@ForAll @IntRange(min = 1, max = 50) int k,
      @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 20) Integer> distances,
      @ForAll @IntRange(min = 1, max = 4) int parts) {
    List<Hit> all = new ArrayList<>();
    List<TopK> heaps = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      heaps.add(new TopK(k));
    }
    for (int i = 0; i < distances.size(); i++) {
      // row ids above 2^63 rank after smaller ones (unsigned), and NaN rows are never kept
      long id = (i % 5 == 0 ? Long.MIN_VALUE : 0) + 1000 - i;
      float d = distances.get(i) == 13 ? Float.NaN : distances.get(i) / 4f;
      if (!Float.isNaN(d)) {
        all.add(new Hit(d, id, i));
      }
      heaps.get(i % parts).offer(d, id, i);
    }
    TopK merged = new TopK(k);
    heaps.forEach(merged::addAll);
    all.sort(TopK.ORDER);
    assertThat(merged.sorted()).isEqualTo(all.subList(0, Math.min(k, all.size())));
  }
}
