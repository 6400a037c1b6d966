package dev.lancet.table.vector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@code k} nearest rows seen so far, in the order Lance ranks them: by distance, then by
 * row id (unsigned), smaller first (docs/decisions/0028). A max-heap over primitive arrays,
 * so a row farther than the k-th costs one comparison. Not thread-safe: one per searching
 * thread, merged with {@link #addAll} at the end.
 */
public final class TopK {
  /** The ranking of hits: distance, then row id. */
  public static final Comparator<Hit> ORDER = (a, b) -> {
    int c = Float.compare(a.distance(), b.distance());
    return c != 0 ? c : Long.compareUnsigned(a.rowId(), b.rowId());
  };

  private final int k;
  private float[] dist;
  private long[] ids;
  private long[] addrs;
  private int size;

  public TopK(int k) {
    if (k <= 0) {
      throw new IllegalArgumentException("k must be positive, not " + k);
    }
    this.k = k;
    int cap = Math.min(k, 64); // grows with the rows seen, never to more than k
    this.dist = new float[cap];
    this.ids = new long[cap];
    this.addrs = new long[cap];
  }

  /**
   * The distance a row must not exceed to enter: the k-th's once k rows are in, else infinity
   * (a row at exactly this distance still enters when its row id is smaller).
   */
  public float bound() {
    return size == k ? dist[0] : Float.POSITIVE_INFINITY;
  }

  /** Offers a row; a NaN distance is never kept (Lance leaves such rows out). */
  public void offer(float d, long rowId, long rowAddress) {
    if (Float.isNaN(d)) {
      return;
    }
    if (size < k) {
      if (size == dist.length) {
        int cap = (int) Math.min(k, 2L * size);
        dist = java.util.Arrays.copyOf(dist, cap);
        ids = java.util.Arrays.copyOf(ids, cap);
        addrs = java.util.Arrays.copyOf(addrs, cap);
      }
      int i = size++;
      dist[i] = d;
      ids[i] = rowId;
      addrs[i] = rowAddress;
      siftUp(i);
    } else if (worse(dist[0], ids[0], d, rowId)) {
      dist[0] = d;
      ids[0] = rowId;
      addrs[0] = rowAddress;
      siftDown(0);
    }
  }

  /** Offers every row {@code other} holds. */
  public void addAll(TopK other) {
    for (int i = 0; i < other.size; i++) {
      offer(other.dist[i], other.ids[i], other.addrs[i]);
    }
  }

  public int size() {
    return size;
  }

  /** The rows held, nearest first. */
  public List<Hit> sorted() {
    List<Hit> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(new Hit(dist[i], ids[i], addrs[i]));
    }
    out.sort(ORDER);
    return out;
  }

  /** Whether (d1, id1) ranks after (d2, id2). */
  private static boolean worse(float d1, long id1, float d2, long id2) {
    int c = Float.compare(d1, d2);
    return c > 0 || (c == 0 && Long.compareUnsigned(id1, id2) > 0);
  }

  private void siftUp(int i) {
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (!worse(dist[i], ids[i], dist[p], ids[p])) {
        return;
      }
      swap(i, p);
      i = p;
    }
  }

  private void siftDown(int i) {
    while (true) {
      int l = 2 * i + 1;
      if (l >= size) {
        return;
      }
      int r = l + 1;
      int w = r < size && worse(dist[r], ids[r], dist[l], ids[l]) ? r : l;
      if (!worse(dist[w], ids[w], dist[i], ids[i])) {
        return;
      }
      swap(i, w);
      i = w;
    }
  }

  private void swap(int a, int b) {
    float d = dist[a];
    dist[a] = dist[b];
    dist[b] = d;
    long t = ids[a];
    ids[a] = ids[b];
    ids[b] = t;
    t = addrs[a];
    addrs[a] = addrs[b];
    addrs[b] = t;
  }
}
