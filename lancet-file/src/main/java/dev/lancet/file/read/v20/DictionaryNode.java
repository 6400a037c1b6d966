package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code Dictionary} as lance-core 7.0.0 writes it for a string column of few distinct values:
 * one index per row, 0 for null and k for item k - 1; the items a {@code Binary} of
 * {@code numItems} values in the same page. Decoded back to plain strings, as lance-core does.
 */
final class DictionaryNode implements Node {
  private final String where;
  private final FlatNode indices;
  private final BinaryNode items;
  private final int numItems;
  private BinaryNode.Values dictionary;

  DictionaryNode(String where, FlatNode indices, BinaryNode items, int numItems) {
    this.where = where;
    this.indices = indices;
    this.items = items;
    this.numItems = numItems;
  }

  @Override
  public void decode(long from, long to, FieldVector v, int at) throws IOException {
    if (dictionary == null) {
      dictionary = items.values(0, numItems);
    }
    long[] idx = indices.longs(from, to);
    int n = idx.length;
    long[] ends = new long[n];
    byte[] valid = new byte[(n + 7) >>> 3];
    long total = 0;
    for (int i = 0; i < n; i++) {
      long k = idx[i];
      if (k > numItems) {
        throw new CorruptFileException(where + ": row " + (from + i) + " names dictionary item "
            + (k - 1) + " of " + numItems);
      }
      if (k > 0 && bit(dictionary.valid(), (int) k - 1)) {
        valid[i >>> 3] |= (byte) (1 << (i & 7));
        total += length((int) k - 1);
      }
      ends[i] = total;
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new CorruptFileException(where + ": rows " + from + ".." + to + " hold " + total
          + " bytes of dictionary values");
    }
    byte[] data = new byte[(int) total];
    long prev = 0;
    for (int i = 0; i < n; i++) {
      if (ends[i] > prev) {
        int item = (int) idx[i] - 1;
        long start = item == 0 ? 0 : dictionary.ends()[item - 1];
        System.arraycopy(dictionary.data(), (int) start, data, (int) prev, (int) (ends[i] - prev));
      }
      prev = ends[i];
    }
    Vectors.putVariable(v, at, n, ends, valid, data, 0);
  }

  private long length(int item) {
    long start = item == 0 ? 0 : dictionary.ends()[item - 1];
    return dictionary.ends()[item] - start;
  }

  private static boolean bit(byte[] bits, int i) {
    return (bits[i >>> 3] >>> (i & 7) & 1) != 0;
  }

  @Override
  public String describe() {
    return "Dictionary(" + items.describe() + ")";
  }
}
