package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.CompressiveEncoding;
import dev.lancet.format.pb.Encodings21Protos.ConstantLayout;
import dev.lancet.format.pb.Encodings21Protos.FullZipLayout;
import dev.lancet.format.pb.Encodings21Protos.MiniBlockLayout;
import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import dev.lancet.format.pb.Encodings21Protos.RepDefLayer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One leaf column of a file being written: the items of the page being filled (their null codes
 * and values) and the encoding of a full page into mini-block, full-zip or constant layout by
 * the rules of decision 0030. Holds at most one page; {@link #takePage} empties it.
 */
final class LeafColumn {
  /** A mini-block chunk's values take at most this many bytes (lance-core: 8 KiB - 6). */
  static final int MAX_CHUNK_BYTES = 8 * 1024 - 6;
  static final int MAX_CHUNK_VALUES = 4096;
  /** Variable-width chunks aim at this many bytes of offsets and values. */
  static final int AIM_VARIABLE_CHUNK = 4 * 1024;
  /** A value of this many bytes or more goes to a full-zip page (lance-core: 256). */
  static final int FULL_ZIP_VALUE_BYTES = 256;
  private static final byte CHUNK_FILL = (byte) 0xFE;

  final String path;
  final LeafKind kind;
  /** Layers above and including the leaf: 1 for a top-level leaf, + 1 per enclosing struct. */
  final int depth;
  private final boolean dictionaryAllowed;

  private byte[] codes = new byte[1024];
  private int n;
  private long firstRow;
  /** Fixed-width and vector values back to back; booleans one bit each; variable: the bytes. */
  private final Bytes values = new Bytes(1 << 12);
  /** Variable-width values: each item's end in {@link #values}. */
  private long[] ends = new long[1024];

  LeafColumn(String path, LeafKind kind, int depth, boolean dictionaryAllowed) {
    this.path = path;
    this.kind = kind;
    this.depth = depth;
    this.dictionaryAllowed = dictionaryAllowed;
  }

  int items() {
    return n;
  }

  /** Bytes the page holds so far (values, offsets, levels). */
  long bufferedBytes() {
    long b = values.size() + n;
    if (kind instanceof LeafKind.Variable v) {
      b += (long) n * v.offsetBytes();
    }
    return b;
  }

  /** Makes room for {@code more} items and returns the index of the first. */
  private int grow(int more) {
    long need = (long) n + more;
    if (need > Integer.MAX_VALUE - 16) {
      throw new InvalidBatchException("column '" + path + "': more than 2^31 items in one "
          + "page; lower the page size");
    }
    if (need > codes.length) {
      int cap = (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16, 2L * codes.length));
      codes = Arrays.copyOf(codes, cap);
      if (kind instanceof LeafKind.Variable) {
        ends = Arrays.copyOf(ends, cap);
      }
    }
    return n;
  }

  /** Starts a page at file row {@code row} if none is open. */
  void startAt(long row) {
    if (n == 0) {
      firstRow = row;
    }
  }

  /** Appends {@code count} items: their null codes, and raw values from {@code src}. */
  void appendFixed(byte[] itemCodes, int count, org.apache.arrow.memory.ArrowBuf src,
      long srcOff) {
    int at = grow(count);
    System.arraycopy(itemCodes, 0, codes, at, count);
    int width = kind instanceof LeafKind.Vector vec ? vec.bytes() : ((LeafKind.Fixed) kind).bytes();
    int len = count * width;
    values.reserve(len);
    src.getBytes(srcOff, values.array(), values.size(), len);
    values.advance(len);
    n += count;
  }

  /** Appends {@code count} booleans, item i's bit being bit {@code i} of {@code bits}. */
  void appendBits(byte[] itemCodes, int count, byte[] bits) {
    int at = grow(count);
    System.arraycopy(itemCodes, 0, codes, at, count);
    int bitStart = at;
    int need = (at + count + 7) / 8;
    if (need > values.size()) {
      values.zeros(need - values.size());
    }
    byte[] a = values.array();
    for (int i = 0; i < count; i++) {
      if ((bits[i >>> 3] >>> (i & 7) & 1) != 0) {
        int b = bitStart + i;
        a[b >>> 3] |= (byte) (1 << (b & 7));
      }
    }
    n += count;
  }

  /** Appends one variable-width item of {@code len} bytes (a null item: pass 0 bytes). */
  void appendVariable(byte code, byte[] src, int off, int len) {
    int at = grow(1);
    codes[at] = code;
    values.put(src, off, len);
    ends[at] = values.size();
    n++;
  }

  /** Appends one variable-width item whose bytes the caller put into {@link #valuesSink}. */
  void endVariable(byte code) {
    int at = grow(1);
    codes[at] = code;
    ends[at] = values.size();
    n++;
  }

  Bytes valuesSink() {
    return values;
  }

  /** Encodes the buffered items as one page and empties the column; null when it is empty. */
  EncodedPage takePage() {
    if (n == 0) {
      return null;
    }
    EncodedPage page = encode();
    n = 0;
    values.clear();
    return page;
  }

  private EncodedPage encode() {
    Levels levels = Levels.of(codes, n, depth);
    boolean allNull = true;
    for (int i = 0; i < n && allNull; i++) {
      allNull = codes[i] != 0;
    }
    if (allNull && depth == 1) {
      PageLayout layout = PageLayout.newBuilder().setConstantLayout(ConstantLayout.newBuilder()
          .addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)).build();
      return new EncodedPage(List.of(), layout, n, firstRow);
    }
    if (kind instanceof LeafKind.Fixed f) {
      return f.integer() && (f.bytes() == 1 || f.bytes() == 2 || f.bytes() == 4 || f.bytes() == 8)
          ? miniBlockIntegers(levels, f.bytes())
          : miniBlockFlat(levels, f.bytes() * 8, logValuesPerChunk(f.bytes()),
              Encodings.flat(f.bytes() * 8));
    }
    if (kind instanceof LeafKind.Bool) {
      return miniBlockFlat(levels, 1, 12, Encodings.flat(1));
    }
    if (kind instanceof LeafKind.Vector v) {
      return v.bytes() < FULL_ZIP_VALUE_BYTES
          ? miniBlockFlat(levels, v.bytes() * 8, logValuesPerChunk(v.bytes()),
              Encodings.fixedSizeList(v.dimension(), v.itemBytes() * 8))
          : fullZipFixed(levels, v);
    }
    return variablePage(levels, ((LeafKind.Variable) kind).offsetBytes());
  }

  /** The largest power-of-two count of {@code bytes}-byte values in one chunk (lance-core's). */
  static int logValuesPerChunk(int bytes) {
    int log = 1;
    long size = 2L * bytes;
    int num = 2;
    while (2 * size < MAX_CHUNK_BYTES && 2 * num <= MAX_CHUNK_VALUES) {
      log++;
      size *= 2;
      num *= 2;
    }
    return log;
  }

  // ---- mini-block pages ------------------------------------------------------------------

  private MiniBlockLayout.Builder miniBlockLayout(Levels levels, CompressiveEncoding values,
      int defWidth) {
    MiniBlockLayout.Builder m = MiniBlockLayout.newBuilder()
        .setValueCompression(values)
        .addAllLayers(levels.layers)
        .setNumBuffers(1)
        .setNumItems(n);
    if (levels.any()) {
      m.setDefCompression(Encodings.outOfLineBitpacking(16, defWidth));
    }
    return m;
  }

  private EncodedPage miniBlockPage(MiniBlockLayout.Builder m, MiniBlocks blocks,
      Bytes... extra) {
    List<java.nio.ByteBuffer> buffers = new ArrayList<>(
        List.of(blocks.meta.view(), blocks.chunks.view()));
    for (Bytes b : extra) {
      buffers.add(b.view());
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setMiniBlockLayout(m).build(), n,
        firstRow);
  }

  /** Values stored as they are, {@code bits} each, {@code 2^log} per chunk. */
  private EncodedPage miniBlockFlat(Levels levels, int bits, int log, CompressiveEncoding enc) {
    MiniBlocks blocks = new MiniBlocks(levels, codes);
    int per = 1 << log;
    Bytes chunk = new Bytes(0);
    for (int start = 0; start < n; start += per) {
      int count = Math.min(per, n - start);
      boolean last = start + count == n;
      long fromBit = (long) start * bits;
      long bitLen = (long) count * bits;
      if (bits == 1) {
        chunk.clear();
        copyBits(values.array(), start, count, chunk);
        blocks.add(last ? 0 : log, start, count, chunk.array(), 0, chunk.size());
      } else {
        blocks.add(last ? 0 : log, start, count, values.array(), (int) (fromBit / 8),
            (int) (bitLen / 8));
      }
    }
    return miniBlockPage(miniBlockLayout(levels, enc, levels.width()), blocks);
  }

  private static void copyBits(byte[] src, int from, int count, Bytes out) {
    int bytes = (count + 7) / 8;
    out.zeros(bytes);
    byte[] a = out.array();
    int base = out.size() - bytes;
    for (int i = 0; i < count; i++) {
      int b = from + i;
      if ((src[b >>> 3] >>> (b & 7) & 1) != 0) {
        a[base + (i >>> 3)] |= (byte) (1 << (i & 7));
      }
    }
  }

  /**
   * Integers of {@code bytes} bytes, 1024 per chunk, each chunk bit-packed at the width of its
   * largest value (inline bit-packing) unless no chunk gets narrower than the type, when they
   * are stored flat.
   */
  private EncodedPage miniBlockIntegers(Levels levels, int bytes) {
    int wordBits = bytes * 8;
    boolean pays = false;
    for (int start = 0; start < n && !pays; start += FastLanesPacker.BLOCK) {
      int count = Math.min(FastLanesPacker.BLOCK, n - start);
      pays = bitWidth(values, start, count, bytes) < wordBits;
    }
    if (!pays) {
      return miniBlockFlat(levels, wordBits, logValuesPerChunk(bytes), Encodings.flat(wordBits));
    }
    return packedIntegers(levels, values, bytes, null);
  }

  /** Bit-packs {@code src}'s {@code bytes}-byte integers (item i at i * bytes) in chunks. */
  private EncodedPage packedIntegers(Levels levels, Bytes src, int bytes, Bytes dictionary) {
    int wordBits = bytes * 8;
    MiniBlocks blocks = new MiniBlocks(levels, codes);
    long[] in = new long[FastLanesPacker.BLOCK];
    long[] packed = new long[FastLanesPacker.BLOCK];
    Bytes chunk = new Bytes(8 * 1024 + 8);
    for (int start = 0; start < n; start += FastLanesPacker.BLOCK) {
      int count = Math.min(FastLanesPacker.BLOCK, n - start);
      int width = bitWidth(src, start, count, bytes);
      Arrays.fill(in, 0L);
      for (int i = 0; i < count; i++) {
        in[i] = src.getWord((start + i) * bytes, bytes);
      }
      FastLanesPacker.pack(in, wordBits, width, packed);
      chunk.clear();
      chunk.word(width, bytes);
      FastLanesPacker.write(packed, FastLanesPacker.packedWords(wordBits, width), wordBits, chunk);
      boolean last = start + count == n;
      blocks.add(last ? 0 : 10, start, count, chunk.array(), 0, chunk.size());
    }
    MiniBlockLayout.Builder m = miniBlockLayout(levels, Encodings.inlineBitpacking(wordBits),
        levels.width());
    if (dictionary == null) {
      return miniBlockPage(m, blocks);
    }
    return miniBlockPage(m, blocks, dictionary);
  }

  /** The bit width of the largest of {@code count} integers from item {@code start}. */
  private static int bitWidth(Bytes src, int start, int count, int bytes) {
    long or = 0;
    for (int i = 0; i < count; i++) {
      or |= src.getWord((start + i) * bytes, bytes);
    }
    return 64 - Long.numberOfLeadingZeros(or);
  }

  // ---- variable-width pages --------------------------------------------------------------

  private EncodedPage variablePage(Levels levels, int offsetBytes) {
    long maxLen = 0;
    long prev = 0;
    for (int i = 0; i < n; i++) {
      maxLen = Math.max(maxLen, ends[i] - prev);
      prev = ends[i];
    }
    if (maxLen >= FULL_ZIP_VALUE_BYTES) {
      return fullZipVariable(levels, offsetBytes);
    }
    if (dictionaryAllowed && offsetBytes == 4) {
      EncodedPage dict = Dictionaries.tryEncode(this, levels);
      if (dict != null) {
        return dict;
      }
    }
    MiniBlocks blocks = new MiniBlocks(levels, codes);
    Bytes chunk = new Bytes(AIM_VARIABLE_CHUNK + 64);
    int start = 0;
    while (start < n) {
      int count = variableChunk(start, offsetBytes);
      boolean last = start + count == n;
      chunk.clear();
      long base = start == 0 ? 0 : ends[start - 1];
      long head = (long) (count + 1) * offsetBytes;
      chunk.word(head, offsetBytes);
      for (int i = start; i < start + count; i++) {
        chunk.word(head + ends[i] - base, offsetBytes);
      }
      chunk.put(values, (int) base, (int) (ends[start + count - 1] - base));
      chunk.pad(offsetBytes, (byte) 72);
      blocks.add(last ? 0 : Integer.numberOfTrailingZeros(count), start, count, chunk.array(), 0,
          chunk.size());
      start += count;
    }
    return miniBlockPage(miniBlockLayout(levels, Encodings.variable(offsetBytes * 8),
        levels.width()), blocks);
  }

  /** Bytes of items {@code [from, to)} of a variable-width page. */
  long span(int from, int to) {
    return (to == 0 ? 0 : ends[to - 1]) - (from == 0 ? 0 : ends[from - 1]);
  }

  /**
   * How many items from {@code start} go in the next chunk: the rest if it fits in
   * {@link #AIM_VARIABLE_CHUNK} bytes of offsets and values, else the largest power of two that
   * fits (at least one, at most {@link #MAX_CHUNK_VALUES}).
   */
  private int variableChunk(int start, int offsetBytes) {
    int rest = n - start;
    if (rest <= MAX_CHUNK_VALUES
        && span(start, n) + (long) (rest + 1) * offsetBytes <= AIM_VARIABLE_CHUNK) {
      return rest;
    }
    int count = 1;
    while (2 * count < rest && 2 * count <= MAX_CHUNK_VALUES
        && span(start, start + 2 * count) + (long) (2 * count + 1) * offsetBytes
            <= AIM_VARIABLE_CHUNK) {
      count *= 2;
    }
    return count;
  }

  // accessors for the dictionary encoder
  long end(int i) {
    return ends[i];
  }

  Bytes values() {
    return values;
  }

  byte[] codes() {
    return codes;
  }

  long firstRow() {
    return firstRow;
  }

  /** A dictionary page: the items' indices (u32) bit-packed, the dictionary its own buffer. */
  EncodedPage dictionaryPage(Levels levels, Bytes indices, Bytes dictionary, int items) {
    EncodedPage p = packedIntegers(levels, indices, 4, dictionary);
    MiniBlockLayout m = p.layout().getMiniBlockLayout().toBuilder()
        .setDictionary(Encodings.variable(32))
        .setNumDictionaryItems(items)
        .build();
    return new EncodedPage(p.buffers(), PageLayout.newBuilder().setMiniBlockLayout(m).build(),
        p.rows(), p.firstRow());
  }

  // ---- full-zip pages --------------------------------------------------------------------

  private FullZipLayout.Builder fullZipLayout(Levels levels, CompressiveEncoding enc) {
    return FullZipLayout.newBuilder()
        .setBitsRep(0)
        .setBitsDef(levels.width())
        .setNumItems(n)
        .setNumVisibleItems(n)
        .setValueCompression(enc)
        .addAllLayers(levels.layers);
  }

  /** Each item: its control word (when there are levels), then its value bytes. */
  private EncodedPage fullZipFixed(Levels levels, LeafKind.Vector v) {
    int ctrl = (levels.width() + 7) / 8;
    int width = v.bytes();
    java.nio.ByteBuffer buffer;
    if (ctrl == 0) {
      buffer = values.view(); // the values are the page: no copy
    } else {
      Bytes zipped = new Bytes((int) Math.min(Integer.MAX_VALUE - 16, (long) n * (ctrl + width)));
      for (int i = 0; i < n; i++) {
        zipped.word(levels.level(codes[i]), ctrl);
        zipped.put(values, i * width, width);
      }
      buffer = zipped.view();
    }
    FullZipLayout.Builder z = fullZipLayout(levels,
        Encodings.fixedSizeList(v.dimension(), v.itemBytes() * 8)).setBitsPerValue(width * 8);
    return new EncodedPage(List.of(buffer), PageLayout.newBuilder().setFullZipLayout(z).build(),
        n, firstRow);
  }

  /**
   * Each item: its control word (when there are levels), then, if valid, its length
   * ({@code offsetBytes} bytes) and bytes. A second buffer, the repetition index, gives each
   * item's start in the first and then its end, in the narrowest of 1, 2, 4 or 8 bytes that
   * holds the buffer's length.
   */
  private EncodedPage fullZipVariable(Levels levels, int offsetBytes) {
    int ctrl = (levels.width() + 7) / 8;
    long total = values.size() + (long) n * (ctrl + offsetBytes);
    if (total > Integer.MAX_VALUE - 16) {
      throw new InvalidBatchException("column '" + path + "': a page of " + total + " bytes; "
          + "lower the page size");
    }
    Bytes zipped = new Bytes((int) total);
    long[] starts = new long[n + 1];
    long prev = 0;
    for (int i = 0; i < n; i++) {
      starts[i] = zipped.size();
      if (ctrl > 0) {
        zipped.word(levels.level(codes[i]), ctrl);
      }
      if (codes[i] == 0) {
        long len = ends[i] - prev;
        zipped.word(len, offsetBytes);
        zipped.put(values, (int) prev, (int) len);
      }
      prev = ends[i];
    }
    starts[n] = zipped.size();
    int w = starts[n] <= 0xFF ? 1 : starts[n] <= 0xFFFF ? 2 : starts[n] <= 0xFFFFFFFFL ? 4 : 8;
    Bytes index = new Bytes((n + 1) * w);
    for (long s : starts) {
      index.word(s, w);
    }
    FullZipLayout.Builder z = fullZipLayout(levels, Encodings.variable(offsetBytes * 8))
        .setBitsPerOffset(offsetBytes * 8);
    return new EncodedPage(List.of(zipped.view(), index.view()),
        PageLayout.newBuilder().setFullZipLayout(z).build(), n, firstRow);
  }

  /**
   * Assembles mini-block chunks: page buffer 0 the u16 chunk words, buffer 1 the chunks, each
   * chunk a header (u16 level count, u16 definition bytes when there are levels, u16 value
   * bytes), the definition levels (out-of-line bit-packed u16) and the value buffer, each part
   * padded to 8 bytes.
   */
  static final class MiniBlocks {
    final Bytes meta = new Bytes(64);
    final Bytes chunks = new Bytes(1 << 12);
    private final Levels levels;
    private final byte[] codes;
    private final Bytes def = new Bytes(2048);
    private final long[] in = new long[FastLanesPacker.BLOCK];
    private final long[] packed = new long[FastLanesPacker.BLOCK];

    MiniBlocks(Levels levels, byte[] codes) {
      this.levels = levels;
      this.codes = codes;
    }

    /** Adds a chunk of items {@code [start, start + count)} whose value buffer is given. */
    void add(int log, int start, int count, byte[] val, int valOff, int valLen) {
      int begin = chunks.size();
      if (levels.any()) {
        def.clear();
        packLevels(start, count, levels.width());
        chunks.u16(count);
        chunks.u16(def.size());
        chunks.u16(valLen);
        chunks.pad(8, CHUNK_FILL);
        chunks.put(def, 0, def.size());
        chunks.pad(8, CHUNK_FILL);
      } else {
        chunks.u16(0);
        chunks.u16(valLen);
        chunks.pad(8, CHUNK_FILL);
      }
      if (valLen > 0xFFFF) {
        throw new IllegalStateException("a chunk value buffer of " + valLen + " bytes");
      }
      chunks.put(val, valOff, valLen);
      chunks.pad(8, CHUNK_FILL);
      int size = chunks.size() - begin;
      if (size > 32 * 1024) {
        throw new IllegalStateException("a mini-block chunk of " + size + " bytes");
      }
      meta.u16(((size / 8 - 1) << 4) | log);
    }

    /**
     * Out-of-line bit-packing of u16 levels: whole blocks of 1024 packed at {@code width}; a
     * shorter tail packed as a zero-padded block only when that is smaller than raw u16 words.
     */
    private void packLevels(int start, int count, int width) {
      int done = 0;
      while (done < count) {
        int take = Math.min(FastLanesPacker.BLOCK, count - done);
        if (take < FastLanesPacker.BLOCK && !(take > 64 * width)) {
          for (int i = 0; i < take; i++) {
            def.u16(levels.level(codes[start + done + i]));
          }
        } else {
          Arrays.fill(in, 0L);
          for (int i = 0; i < take; i++) {
            in[i] = levels.level(codes[start + done + i]);
          }
          FastLanesPacker.pack(in, 16, width, packed);
          FastLanesPacker.write(packed, FastLanesPacker.packedWords(16, width), 16, def);
        }
        done += take;
      }
    }
  }
}
