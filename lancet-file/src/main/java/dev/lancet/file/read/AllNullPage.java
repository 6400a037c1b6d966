package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A page of only null values: in a 2.1 file, a {@code ConstantLayout} without an inline value
 * (upstream primitive.rs, encode_simple_all_null and encode_complex_all_null). Without buffers,
 * every item is null at the outermost nullable layer. With buffers (a leaf beneath structs),
 * buffer 0 holds repetition levels (none here: lists are not decoded) and buffer 1 one raw u16
 * definition level per row, which says at which layer each row is null; the leaf is null in
 * every row.
 */
final class AllNullPage implements PageDecoder {
  private final long numRows;
  private final int[] cmp;
  private final LanceFile file;
  private final long defPos;
  private final boolean hasDefs;
  private final String where;

  AllNullPage(long numRows, int[] cmp, LanceFile file, long defPos, boolean hasDefs,
      String where) {
    this.numRows = numRows;
    this.cmp = cmp;
    this.file = file;
    this.defPos = defPos;
    this.hasDefs = hasDefs;
    this.where = where;
  }

  @Override
  public long numRows() {
    return numRows;
  }

  @Override
  public void decode(long[] from, long[] to, int count, VectorSink sink, int at)
      throws IOException {
    if (sink.layers() == 1 && !hasDefs) {
      return; // vectors are allocated with every validity bit clear
    }
    int level = 0;
    for (int c : cmp) {
      level = Math.max(level, c + 1);
    }
    int out = at;
    for (int k = 0; k < count; k++) {
      if (!hasDefs) {
        for (long r = from[k]; r < to[k]; r++) {
          sink.setLevels(out++, level, cmp);
        }
        continue;
      }
      ByteBuffer defs;
      synchronized (file) {
        defs = file.read(defPos + 2 * from[k], (int) (2 * (to[k] - from[k])));
      }
      for (long r = from[k]; r < to[k]; r++) {
        int def = Short.toUnsignedInt(defs.getShort((int) (2 * (r - from[k]))));
        if (def == 0 || def > level) {
          throw new CorruptFileException(where + ", row " + r + ": definition level " + def
              + " in an all-null page (levels 1 to " + level + ")");
        }
        sink.setLevels(out++, def, cmp);
      }
    }
  }
}
