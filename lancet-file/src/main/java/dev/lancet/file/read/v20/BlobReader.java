package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.vector.FieldVector;

/**
 * A blob column (column encoding {@code Blob}): each page a packed struct of two u64 per row,
 * the position and size of the row's bytes in the file; (1, 0) is a null, (0, 0) an empty
 * value. Read as lance-core's file reader does, as the bytes themselves (large binary).
 */
final class BlobReader implements FieldReader {
  private final Column20 column;
  private final PackedNode[] pages;
  private final Source src;

  BlobReader(Column20 column, PackedNode[] pages, Source src) {
    this.column = column;
    this.pages = pages;
    this.src = src;
  }

  /** The same column read as its descriptions (a struct of u64 position and size). */
  FieldReader descriptions() {
    return new LeafReader(column, pages.clone());
  }

  @Override
  public long numValues() {
    return column.numValues();
  }

  @Override
  public void read(long from, long to, FieldVector v, int at) throws IOException {
    long row = from;
    int out = at;
    while (row < to) {
      int p = column.pageOf(row);
      long base = column.pageStart[p];
      long end = Math.min(to, column.pageStart[p + 1]);
      int n = (int) (end - row);
      ByteBuffer d = ByteBuffer.wrap(pages[p].rowBytes(row - base, end - base))
          .order(ByteOrder.LITTLE_ENDIAN);
      long[] ends = new long[n];
      byte[] valid = new byte[(n + 7) >>> 3];
      long total = 0;
      for (int i = 0; i < n; i++) {
        long pos = d.getLong(16 * i);
        long size = d.getLong(16 * i + 8);
        if (!(pos == 1 && size == 0)) {
          valid[i >>> 3] |= (byte) (1 << (i & 7));
          Source.checkRegion(pos, size, 0, src.dataEnd(),
              column.pageWhere(p) + ": the blob of row " + (row - base + i));
          total += size;
          if (total > Integer.MAX_VALUE - 16) {
            throw new CorruptFileException(column.pageWhere(p) + ": blobs of rows "
                + (row - base) + ".." + (end - base) + " hold " + total + " bytes, more than "
                + "one read takes: read them with a smaller batch size");
          }
        }
        ends[i] = total;
      }
      byte[] data = new byte[(int) total];
      long prev = 0;
      for (int i = 0; i < n; i++) {
        if (ends[i] > prev) {
          src.read(d.getLong(16 * i), data, (int) prev, (int) (ends[i] - prev));
        }
        prev = ends[i];
      }
      Vectors.putVariable(v, out, n, ends, valid, data, 0);
      out += n;
      row = end;
    }
  }

  @Override
  public void describe(java.util.Set<String> into) {
    into.add("Blob(PackedStruct)");
  }
}
