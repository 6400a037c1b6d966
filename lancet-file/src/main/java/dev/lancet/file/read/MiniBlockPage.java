package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A 2.1 mini-block page of one column without repetition (upstream
 * {@code rust/lance-encoding/src/encodings/logical/primitive.rs}, MiniBlockScheduler and
 * DecodeMiniBlockTask; protos/encodings_v2_1.proto, MiniBlockLayout).
 *
 * <p>Page buffer 0 holds one u16 per chunk: the low 4 bits are log2 of the chunk's values (the
 * last chunk says 0 and holds the rest of the page), the high 12 bits the chunk's size in
 * 8-byte words minus one. Page buffer 1 holds the chunks back to back; page buffer 2, when the
 * page is dictionary-encoded, the dictionary. A chunk starts with a u16 level count, a u16 size
 * of its definition buffer (only when the page has definition levels) and a u16 size of each of
 * its value buffers, padded to 8 bytes; then the definition buffer and the value buffers, each
 * padded to 8 bytes.
 *
 * <p>Values are decoded by a {@link ValueCoding}. Definition levels, when present, are u16
 * levels: 0 valid, else the level of the outermost null layer ({@code cmp} gives, per layer
 * from the leaf out, the highest level at which it is still valid, or -1 for a layer that cannot
 * be null).
 */
final class MiniBlockPage implements PageDecoder {
  private static final int ALIGN = 8;
  /** A read of chunks stops growing at this many bytes (pieces touching every chunk of a page). */
  private static final long WINDOW_BYTES = 256 << 10;

  private final LanceFile file;
  private final String where;
  private final long numRows;
  private final long metaPos;
  private final long metaSize;
  private final long dataPos;
  private final long dataSize;
  private final ValueCoding values;
  private final LevelCoding levels;
  private final int[] cmp;
  private final int maxLevel;
  /** At most this many values in a chunk, whatever the chunk metadata says. */
  static final int MAX_CHUNK_VALUES = 1 << 16;

  /** Chunk i covers page rows [rowStart[i], rowStart[i+1]) and bytes [byteStart[i], ...[i+1]). */
  private long[] rowStart;
  private long[] byteStart;

  MiniBlockPage(LanceFile file, String where, long numRows, long metaPos, long metaSize,
      long dataPos, long dataSize, ValueCoding values, LevelCoding levels, int[] cmp) {
    this.file = file;
    this.where = where;
    this.numRows = numRows;
    this.metaPos = metaPos;
    this.metaSize = metaSize;
    this.dataPos = dataPos;
    this.dataSize = dataSize;
    this.values = values;
    this.levels = levels;
    this.cmp = cmp;
    int max = 0;
    for (int c : cmp) {
      max = Math.max(max, c + 1);
    }
    this.maxLevel = max;
  }

  /** Where the chunk metadata and the chunks lie; for tests. */
  long metaPos() {
    return metaPos;
  }

  long dataPos() {
    return dataPos;
  }

  /** Words in the chunk metadata buffer (one per chunk); for tests. */
  int numChunkWords() {
    return (int) (metaSize / 2);
  }

  ValueCoding values() {
    return values;
  }

  LevelCoding levels() {
    return levels;
  }

  @Override
  public long numRows() {
    return numRows;
  }

  /** Reads and checks the chunk metadata (once). */
  private void loadChunks() throws IOException {
    if (rowStart != null) {
      return;
    }
    if (metaSize % 2 != 0) {
      throw new CorruptFileException(where + ": the chunk metadata buffer is " + metaSize
          + " bytes, not a whole number of u16 words");
    }
    int chunks = (int) (metaSize / 2);
    if (chunks == 0 && numRows > 0) {
      throw new CorruptFileException(where + ": " + numRows + " rows but no chunks");
    }
    if (values instanceof ValueCoding.Dictionary d) {
      d.dictionary().load(file, file.scratch(), where);
    }
    ByteBuffer meta = file.read(metaPos, (int) metaSize);
    long[] rows = new long[chunks + 1];
    long[] bytes = new long[chunks + 1];
    for (int i = 0; i < chunks; i++) {
      int word = Short.toUnsignedInt(meta.getShort());
      int log = word & 0x0F;
      long size = ((long) (word >>> 4) + 1) * ALIGN;
      long n;
      if (i < chunks - 1) {
        if (log == 0) {
          throw new CorruptFileException(where + ", chunk " + i + ": a chunk before the last "
              + "declares no values");
        }
        n = 1L << log;
      } else {
        n = numRows - rows[i];
        if (n <= 0 || (log != 0 && 1L << log != n)) {
          throw new CorruptFileException(where + ": the chunks before the last hold " + rows[i]
              + " of the page's " + numRows + " rows, leaving " + n + " for the last chunk");
        }
      }
      if (n > values.maxValues(size) || n > MAX_CHUNK_VALUES) {
        throw new CorruptFileException(where + ", chunk " + i + ": " + n + " values cannot fit "
            + "in its " + size + " bytes");
      }
      rows[i + 1] = rows[i] + n;
      bytes[i + 1] = bytes[i] + size;
      if (bytes[i + 1] > dataSize) {
        throw new CorruptFileException(where + ", chunk " + i + ": the chunks overrun the "
            + "page's chunk buffer (" + dataSize + " bytes)");
      }
    }
    rowStart = rows;
    byteStart = bytes;
  }

  @Override
  public void decode(long[] from, long[] to, int count, VectorSink sink, int at)
      throws IOException {
    // The file's scratch buffers are shared by every page and every read of the file.
    synchronized (file) {
      loadChunks();
      Scratch scratch = file.scratch();
      int out = at;
      int k = 0;
      int chunk = 0; // the pieces ascend, so the chunk holding the next one only moves forward
      while (k < count) {
        if (from[k] >= to[k]) {
          k++;
          continue;
        }
        // One read for the run of chunks the next pieces touch without skipping a chunk.
        chunk = chunkAtOrAfter(chunk, from[k]);
        int first = chunk;
        int last = chunkAtOrAfter(first, to[k] - 1);
        int end = k + 1;
        while (end < count && byteStart[last + 1] - byteStart[first] < WINDOW_BYTES) {
          if (from[end] >= to[end]) {
            end++;
            continue;
          }
          if (from[end] >= rowStart[Math.min(last + 2, rowStart.length - 1)]) {
            break; // a chunk would be skipped
          }
          last = chunkAtOrAfter(last, to[end] - 1);
          end++;
        }
        long windowStart = byteStart[first];
        ByteBuffer window = scratch.window((int) (byteStart[last + 1] - windowStart));
        file.readFully(dataPos + windowStart, window);
        out = decodeChunks(from, to, k, end, first, last, windowStart, window, scratch, sink,
            out);
        chunk = last;
        k = end;
      }
    }
  }

  /** The chunk holding page row {@code row}, searching forward from chunk {@code from}. */
  private int chunkAtOrAfter(int from, long row) {
    int c = from;
    while (rowStart[c + 1] <= row) {
      c++;
    }
    return c;
  }

  /**
   * Decodes pieces {@code [k, end)} from chunks {@code first..last}, read into {@code window}:
   * each chunk once, with the parts of the pieces it holds. Returns the next batch row.
   */
  private int decodeChunks(long[] from, long[] to, int k, int end, int first, int last,
      long windowStart, ByteBuffer window, Scratch scratch, VectorSink sink, int at)
      throws IOException {
    int out = at;
    long row = from[k];
    for (int c = first; c <= last && k < end; c++) {
      long chunkFirstRow = rowStart[c];
      long chunkEnd = rowStart[c + 1];
      int m = 0;
      int rows = 0;
      int[] as = scratch.partStarts(end - k);
      int[] bs = scratch.partEnds(end - k);
      while (k < end && row < chunkEnd) {
        long stop = Math.min(to[k], chunkEnd);
        if (stop > row) {
          as[m] = (int) (row - chunkFirstRow);
          bs[m] = (int) (stop - chunkFirstRow);
          rows += bs[m] - as[m];
          m++;
        }
        if (stop == to[k]) {
          k++;
          row = k < end ? from[k] : row;
        } else {
          row = stop;
        }
      }
      if (m > 0) {
        decodeChunk(c, window, (int) (byteStart[c] - windowStart),
            (int) (byteStart[c + 1] - byteStart[c]), (int) (chunkEnd - chunkFirstRow), as, bs, m,
            rows, scratch, sink, out);
        out += rows;
      }
    }
    return out;
  }

  /**
   * Decodes parts {@code [as[j], bs[j])}, {@code j < m}, of chunk {@code c} ({@code n} values,
   * at {@code pos}; {@code rows} in all) one after another from batch row {@code at}.
   */
  private void decodeChunk(int c, ByteBuffer window, int pos, int size, int n, int[] as,
      int[] bs, int m, int rows, Scratch scratch, VectorSink sink, int at) throws IOException {
    String chunk = where + ", chunk " + c;
    boolean hasDefs = levels != LevelCoding.NONE;
    int nb = values.buffers();
    int header = 2 + (hasDefs ? 2 : 0) + 2 * nb;
    if (size < header) {
      throw new CorruptFileException(chunk + ": " + size + " bytes cannot hold its header");
    }
    int numLevels = Short.toUnsignedInt(window.getShort(pos));
    int defSize = hasDefs ? Short.toUnsignedInt(window.getShort(pos + 2)) : 0;
    int defPos = align(header);
    int p = hasDefs ? align(defPos + defSize) : defPos;
    ChunkBuffers b = scratch.chunk;
    b.count = nb;
    for (int i = 0; i < nb; i++) {
      int len = Short.toUnsignedInt(window.getShort(pos + header - 2 * (nb - i)));
      if ((long) p + len > size) {
        throw new CorruptFileException(chunk + ": its buffers (" + defSize + " definition "
            + "bytes, value buffer " + i + " of " + len + " bytes at " + p + " after a "
            + header + "-byte header) overrun the chunk's " + size + " bytes");
      }
      b.set(i, window, pos + p, len);
      p = align(p + len);
    }
    int[] defs = null;
    if (hasDefs) {
      if (numLevels != (n & 0xFFFF)) {
        throw new CorruptFileException(chunk + ": " + numLevels + " definition levels for "
            + n + " values");
      }
      defs = decodeLevels(chunk, window, pos + defPos, defSize, n, scratch);
    }
    values.decode(b, n, as, bs, m, defs, sink, at, scratch, chunk);
    if (!hasDefs) {
      sink.setValid(at, rows); // the parts' rows are consecutive in the batch
      return;
    }
    int out = at;
    boolean leafOnly = cmp.length == 1 && sink.layers() == 1;
    for (int j = 0; j < m; j++) {
      if (leafOnly) {
        for (int i = as[j]; i < bs[j]; i++) {
          sink.setValidity(out + i - as[j], defs[i] == 0);
        }
      } else {
        for (int i = as[j]; i < bs[j]; i++) {
          sink.setLevels(out + i - as[j], defs[i], cmp);
        }
      }
      out += bs[j] - as[j];
    }
  }

  private int[] decodeLevels(String chunk, ByteBuffer window, int pos, int size, int n,
      Scratch scratch) throws CorruptFileException {
    int[] defs = scratch.levels(n);
    levels.decode(window, pos, size, n, defs, scratch.packed, scratch.unpacked, chunk);
    for (int i = 0; i < n; i++) {
      if (defs[i] > maxLevel) {
        throw new CorruptFileException(chunk + ": definition level " + defs[i] + " at value "
            + i + " (the page's layers have levels 0 to " + maxLevel + ")");
      }
    }
    return defs;
  }

  private static int align(int offset) {
    return (offset + ALIGN - 1) & -ALIGN;
  }
}
