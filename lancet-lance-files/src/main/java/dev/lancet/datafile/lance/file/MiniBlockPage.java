package dev.lancet.datafile.lance.file;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A 2.1 mini-block page of one fixed-width, string or binary column without repetition (upstream
 * {@code rust/lance-encoding/src/encodings/logical/primitive.rs}, MiniBlockScheduler and
 * DecodeMiniBlockTask; protos/encodings_v2_1.proto, MiniBlockLayout).
 *
 * <p>Page buffer 0 holds one u16 per chunk: the low 4 bits are log2 of the chunk's values (the
 * last chunk says 0 and holds the rest of the page), the high 12 bits the chunk's size in
 * 8-byte words minus one. Page buffer 1 holds the chunks back to back. A chunk starts with a
 * u16 level count, a u16 size of its definition buffer (only when the page has definition
 * levels) and a u16 size of its value buffer, padded to 8 bytes; then the definition buffer
 * and the value buffer, each padded to 8 bytes.
 *
 * <p>Values are {@link ValueCoding.Flat} (raw little-endian values),
 * {@link ValueCoding.InlineBitpacked} (a chunk of up to 1024 values as one word holding the
 * bit width, then the FastLanes-packed block of 1024 values) or {@link ValueCoding.Variable}
 * (offsets then bytes, optionally FSST-compressed). Definition levels, when present,
 * are u16 levels (0 valid, 1 null), raw or out-of-line bit-packed.
 */
final class MiniBlockPage implements PageDecoder {
  private static final int ALIGN = 8;

  private final LanceFile file;
  private final String where;
  private final long numRows;
  private final long metaPos;
  private final long metaSize;
  private final long dataPos;
  private final long dataSize;
  private final ValueCoding values;
  private final LevelCoding levels;

  /** Chunk i covers page rows [rowStart[i], rowStart[i+1]) and bytes [byteStart[i], ...[i+1]). */
  private long[] rowStart;
  private long[] byteStart;

  MiniBlockPage(LanceFile file, String where, long numRows, long metaPos, long metaSize,
      long dataPos, long dataSize, ValueCoding values, LevelCoding levels) {
    this.file = file;
    this.where = where;
    this.numRows = numRows;
    this.metaPos = metaPos;
    this.metaSize = metaSize;
    this.dataPos = dataPos;
    this.dataSize = dataSize;
    this.values = values;
    this.levels = levels;
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
      if (n > values.maxValues(size)) {
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
  public void decode(long from, long to, VectorSink sink, int at) throws IOException {
    if (from >= to) {
      return;
    }
    // The file's scratch buffers are shared by every page and every read of the file.
    synchronized (file) {
      loadChunks();
      Scratch scratch = file.scratch();
      int first = RowStarts.pieceOf(rowStart, from);
      int last = RowStarts.pieceOf(rowStart, to - 1);
      long windowStart = byteStart[first];
      ByteBuffer window = scratch.window((int) (byteStart[last + 1] - windowStart));
      file.readFully(dataPos + windowStart, window);
      decodeChunks(from, to, first, last, windowStart, window, scratch, sink, at);
    }
  }

  private void decodeChunks(long from, long to, int first, int last, long windowStart,
      ByteBuffer window, Scratch scratch, VectorSink sink, int at) throws IOException {
    int out = at;
    for (int c = first; c <= last; c++) {
      long chunkFirstRow = rowStart[c];
      int n = (int) (rowStart[c + 1] - chunkFirstRow);
      int a = (int) (Math.max(from, chunkFirstRow) - chunkFirstRow);
      int b = (int) (Math.min(to, rowStart[c + 1]) - chunkFirstRow);
      decodeChunk(c, window, (int) (byteStart[c] - windowStart),
          (int) (byteStart[c + 1] - byteStart[c]), n, a, b, scratch, sink, out);
      out += b - a;
    }
  }

  /** Decodes values {@code [a, b)} of chunk {@code c} ({@code n} values, at {@code pos}). */
  private void decodeChunk(int c, ByteBuffer window, int pos, int size, int n, int a, int b,
      Scratch scratch, VectorSink sink, int at) throws CorruptFileException {
    String chunk = where + ", chunk " + c;
    boolean hasDefs = levels != LevelCoding.NONE;
    int header = 2 + (hasDefs ? 2 : 0) + 2;
    if (size < header) {
      throw new CorruptFileException(chunk + ": " + size + " bytes cannot hold its header");
    }
    int numLevels = Short.toUnsignedInt(window.getShort(pos));
    int defSize = hasDefs ? Short.toUnsignedInt(window.getShort(pos + 2)) : 0;
    int valueSize = Short.toUnsignedInt(window.getShort(pos + header - 2));
    int defPos = align(header);
    int valuePos = hasDefs ? align(defPos + defSize) : defPos;
    if ((long) valuePos + valueSize > size) {
      throw new CorruptFileException(chunk + ": its buffers (" + defSize + " definition and "
          + valueSize + " value bytes after a " + header + "-byte header) overrun the chunk's "
          + size + " bytes");
    }
    int[] defs = null;
    if (hasDefs) {
      if (numLevels != (n & 0xFFFF)) {
        throw new CorruptFileException(chunk + ": " + numLevels + " definition levels for "
            + n + " values");
      }
      defs = decodeLevels(chunk, window, pos + defPos, defSize, n, scratch);
    }
    values.decode(window, pos + valuePos, valueSize, n, a, b, sink, at, scratch.packed,
        scratch.unpacked, chunk);
    if (hasDefs) {
      for (int i = a; i < b; i++) {
        sink.setValidity(at + i - a, defs[i] == 0);
      }
    } else {
      sink.setValid(at, b - a);
    }
  }

  private int[] decodeLevels(String chunk, ByteBuffer window, int pos, int size, int n,
      Scratch scratch) throws CorruptFileException {
    int[] defs = scratch.levels(n);
    levels.decode(window, pos, size, n, defs, scratch.packed, scratch.unpacked, chunk);
    for (int i = 0; i < n; i++) {
      if (defs[i] > 1) {
        throw new CorruptFileException(chunk + ": definition level " + defs[i] + " at value "
            + i + " (a nullable item has levels 0 and 1)");
      }
    }
    return defs;
  }

  private static int align(int offset) {
    return (offset + ALIGN - 1) & -ALIGN;
  }
}
