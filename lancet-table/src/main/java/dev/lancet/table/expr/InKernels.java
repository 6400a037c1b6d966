package dev.lancet.table.expr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * {@code x [NOT] IN (v1, v2, ...)} with SQL's three-valued logic: a match is true; no match is
 * false, or null when the list holds a NULL; a null {@code x} is null. Integer lists are searched
 * in a sorted array, string lists by length then bytes, dictionary columns once per entry.
 */
final class InKernels {

  private InKernels() {}

  static Values in(Bound.InList in, Values x) {
    int n = x.length;
    if (x instanceof Values.Dict d) {
      Values.Bools perEntry = (Values.Bools) in(in, d.dictionary);
      long[] bits = new long[Values.words(n)];
      long[] valid = d.valid == null ? Values.allValid(n) : d.valid.clone();
      for (int i = 0; i < n; i++) {
        if (d.isValid(i)) {
          int e = d.indices[i];
          if (!perEntry.isValid(e)) {
            valid[i >>> 6] &= ~(1L << i);
          } else if (perEntry.get(e)) {
            bits[i >>> 6] |= 1L << i;
          }
        }
      }
      return new Values.Bools(bits, n, valid);
    }
    long[] found = new long[Values.words(n)];
    List<Scalar> values = in.values();
    if (x instanceof Values.Longs l) {
      long[] sorted = new long[values.size()];
      for (int k = 0; k < sorted.length; k++) {
        sorted[k] = values.get(k).asLong();
      }
      Arrays.sort(sorted);
      long[] v = l.v;
      if (sorted.length <= 8) {
        for (int i = 0; i < n; i++) {
          long e = v[i];
          boolean hit = false;
          for (long s : sorted) {
            hit |= s == e;
          }
          found[i >>> 6] |= (hit ? 1L : 0L) << i;
        }
      } else {
        for (int i = 0; i < n; i++) {
          if (Arrays.binarySearch(sorted, v[i]) >= 0) {
            found[i >>> 6] |= 1L << i;
          }
        }
      }
    } else if (x instanceof Values.Bytes b) {
      byte[][] lits = new byte[values.size()][];
      for (int k = 0; k < lits.length; k++) {
        Object o = values.get(k).value();
        lits[k] = o instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) o;
      }
      byte[] data = b.data;
      int[] off = b.offsets;
      for (int i = 0; i < n; i++) {
        int s = off[i];
        int len = off[i + 1] - s;
        for (byte[] lit : lits) {
          if (lit.length == len && Arrays.equals(data, s, s + len, lit, 0, len)) {
            found[i >>> 6] |= 1L << i;
            break;
          }
        }
      }
    } else {
      for (int i = 0; i < n; i++) {
        if (!x.isValid(i)) {
          continue;
        }
        Scalar e = Evaluator.scalarAt(x, i);
        for (Scalar s : values) {
          if (Evaluator.compareScalar(e, s) == 0) {
            found[i >>> 6] |= 1L << i;
            break;
          }
        }
      }
    }
    // found -> !negated; not found -> negated, or null when NULL was listed
    long[] bits = new long[found.length];
    long[] valid = new long[found.length];
    for (int w = 0; w < found.length; w++) {
      long v = x.valid == null ? -1L : x.valid[w];
      long f = found[w] & v;
      long nf = v & ~found[w];
      bits[w] = in.negated() ? nf : f;
      valid[w] = in.hasNull() ? f : v;
      if (in.hasNull()) {
        bits[w] &= valid[w];
      }
    }
    Values.clearTail(bits, n);
    Values.clearTail(valid, n);
    return new Values.Bools(bits, n, valid);
  }
}
