package dev.lancet.file.write;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Dictionary encoding of a variable-width page (decision 0033): used when the page has at least
 * 100 items and lance-core 7.0.0's size estimate for the dictionary form (the distinct values'
 * bytes at the average length, a 4-byte offset per distinct value and a 4-byte index per item)
 * is below 0.8 of the plain form's bytes (values and 4-byte offsets). The dictionary keeps the
 * values in order of first appearance; null items carry the empty value's index.
 */
final class Dictionaries {
  static final int MIN_ITEMS = 100;
  static final double MAX_RATIO = 0.8;
  /** Items looked at before counting a page's distinct values in full. */
  static final int SAMPLE = 4096;

  private Dictionaries() {}

  /** The dictionary page of {@code column}'s buffered items, or null when it does not pay. */
  static EncodedPage tryEncode(LeafColumn column, Levels levels) {
    int n = column.items();
    if (n < MIN_ITEMS) {
      return null;
    }
    long data = column.values().size();
    long plain = data + 4L * n;
    double avg = (double) data / n;
    double cap = (MAX_RATIO * plain - 4.0 * n) / (avg + 4);
    if (cap < 1) {
      return null;
    }
    byte[] bytes = column.values().array();
    if (!fewDistinctIn(column, bytes, Math.min(n, SAMPLE))) {
      return null;
    }
    Map<Key, Integer> ids = new HashMap<>();
    Bytes indices = new Bytes(4 * n);
    Bytes dictValues = new Bytes(1024);
    Bytes dictEnds = new Bytes(1024);
    long prev = 0;
    for (int i = 0; i < n; i++) {
      long end = column.end(i);
      Key k = new Key(bytes, (int) prev, (int) (end - prev));
      Integer id = ids.get(k);
      if (id == null) {
        id = ids.size();
        if (id + 1 > cap) {
          return null;
        }
        ids.put(k, id);
        dictValues.put(bytes, (int) prev, (int) (end - prev));
        dictEnds.u32(dictValues.size());
      }
      indices.u32(id);
      prev = end;
    }
    int items = ids.size();
    // The dictionary buffer: u32 32 (bits per offset), u32 where the bytes start, the items + 1
    // offsets from 0, then the bytes.
    Bytes dict = new Bytes(16 + 4 * (items + 1) + dictValues.size());
    dict.u32(32);
    dict.u32(8 + 4L * (items + 1));
    dict.u32(0);
    dict.put(dictEnds, 0, dictEnds.size());
    dict.put(dictValues, 0, dictValues.size());
    return column.dictionaryPage(levels, indices, dict, items);
  }

  /**
   * Whether the first {@code sample} items have at most a quarter as many distinct values: a
   * cheap test that spares counting a high-cardinality page (unique names) into a map.
   */
  private static boolean fewDistinctIn(LeafColumn column, byte[] bytes, int sample) {
    java.util.Set<Key> seen = new java.util.HashSet<>();
    long prev = 0;
    for (int i = 0; i < sample; i++) {
      long end = column.end(i);
      seen.add(new Key(bytes, (int) prev, (int) (end - prev)));
      if (seen.size() > sample / 4) {
        return false;
      }
      prev = end;
    }
    return true;
  }

  /** A value's bytes, compared by content (it points into the page buffer, never copied). */
  private record Key(byte[] a, int off, int len) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(a, off, off + len, k.a, k.off, k.off + k.len);
    }

    @Override
    public int hashCode() {
      int h = 1;
      for (int i = off; i < off + len; i++) {
        h = 31 * h + a[i];
      }
      return h;
    }
  }
}
