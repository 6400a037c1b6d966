package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.CompressiveEncoding;
import dev.lancet.format.pb.Encodings21Protos.ConstantLayout;
import dev.lancet.format.pb.Encodings21Protos.FullZipLayout;
import dev.lancet.format.pb.Encodings21Protos.MiniBlockLayout;
import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import dev.lancet.format.pb.Encodings21Protos.RepDefLayer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;

/**
 * One leaf column of a file being written: the page being filled and its encoding into
 * mini-block, full-zip or constant layout by the rules of decision 0033. Holds at most one page;
 * {@link #takePage} empties it.
 *
 * <p>A page is a run of entries, each with a definition code (see {@link Levels}) and, when the
 * leaf is inside a list, a repetition level. An entry that reaches the leaf is visible and has a
 * value (a placeholder when it is null); an empty or null list, or one under a null parent, is
 * an invisible entry without a value. Without lists every entry is visible, one per row.
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
  /** Layers above and including the leaf: 1 for a top-level leaf, + 1 per enclosing field. */
  final int depth;
  /** isList[d]: whether the field at depth d (1 = top level) on the leaf's path is a list. */
  final boolean[] isList;
  /** Lists on the path: the largest repetition level. */
  final int maxRep;
  private final boolean dictionaryAllowed;
  private final boolean fsstAllowed;

  private byte[] codes = new byte[1024];
  private byte[] reps;
  private int n;
  private int nv;
  private long rows;
  private long firstRow;
  /** Fixed-width and vector values back to back; booleans one bit each; variable: the bytes. */
  private final Bytes values = new Bytes(1 << 12);
  /** Variable-width values: each visible value's end in {@link #values}. */
  private long[] ends = new long[1024];
  /** Vectors: one validity bit per item of every value; whether any item is null. */
  private final Bytes itemValidity = new Bytes(64);
  private boolean nullItems;

  LeafColumn(String path, LeafKind kind, int depth, boolean[] isList, boolean dictionaryAllowed,
      boolean fsstAllowed) {
    this.path = path;
    this.kind = kind;
    this.depth = depth;
    this.isList = isList.clone();
    int lists = 0;
    for (boolean l : isList) {
      lists += l ? 1 : 0;
    }
    this.maxRep = lists;
    this.reps = lists > 0 ? new byte[1024] : null;
    this.dictionaryAllowed = dictionaryAllowed;
    this.fsstAllowed = fsstAllowed;
  }

  /** Visible values in the page. */
  int items() {
    return nv;
  }

  /** Bytes the page holds so far (values, offsets, levels). */
  long bufferedBytes() {
    long b = values.size() + 2L * n;
    if (kind instanceof LeafKind.Variable v) {
      b += (long) nv * v.offsetBytes();
    }
    return b;
  }

  /** Makes room for {@code more} entries and returns the index of the first. */
  private int grow(int more) {
    long need = (long) n + more;
    if (need > Integer.MAX_VALUE - 16) {
      throw new InvalidBatchException("column '" + path + "': more than 2^31 entries in one "
          + "page; lower the page size");
    }
    if (need > codes.length) {
      int cap = (int) Math.max(need, Math.min(Integer.MAX_VALUE - 16, 2L * codes.length));
      codes = Arrays.copyOf(codes, cap);
      if (reps != null) {
        reps = Arrays.copyOf(reps, cap);
      }
    }
    return n;
  }

  private void growEnds(int more) {
    if ((long) nv + more > ends.length) {
      ends = Arrays.copyOf(ends, (int) Math.max((long) nv + more,
          Math.min(Integer.MAX_VALUE - 16, 2L * ends.length)));
    }
  }

  /** Starts a page at file row {@code row} if none is open. */
  void startAt(long row) {
    if (n == 0) {
      firstRow = row;
    }
  }

  /** Counts {@code count} more rows in the page. */
  void addRows(int count) {
    rows += count;
  }

  // ---- rows without lists: one visible entry per row, appended in runs -----------------------

  /** Appends {@code count} entries with their codes and raw values from {@code src}. */
  void appendFixed(byte[] itemCodes, int count, ArrowBuf src, long srcOff) {
    int at = grow(count);
    System.arraycopy(itemCodes, 0, codes, at, count);
    int width = fixedWidth();
    int len = count * width;
    values.reserve(len);
    src.getBytes(srcOff, values.array(), values.size(), len);
    values.advance(len);
    n += count;
    nv += count;
    rows += count;
  }

  /**
   * Vectors: records the validity of the last {@code count} values' items, {@code dimension}
   * each, from Arrow validity bitmap {@code validity} (null: all valid) starting at item
   * {@code firstItem}. The page keeps no bitmap until its first null item (then the items
   * before it are marked valid), so vectors without null items cost nothing here.
   */
  void appendItemValidity(ArrowBuf validity, long firstItem, int count) {
    int dim = ((LeafKind.Vector) kind).dimension();
    long at = (long) (nv - count) * dim;
    long items = (long) count * dim;
    if (validity == null) {
      if (nullItems) {
        setValid(at, items);
      }
      return;
    }
    if (!nullItems) {
      boolean any = false;
      for (long k = 0; k < items && !any; k++) {
        long src = firstItem + k;
        any = (validity.getByte(src >>> 3) >>> (int) (src & 7) & 1) == 0;
      }
      if (!any) {
        return;
      }
      nullItems = true;
      itemValidity.clear();
      setValid(0, at);
    }
    for (long k = 0; k < items; k++) {
      long src = firstItem + k;
      boolean valid = (validity.getByte(src >>> 3) >>> (int) (src & 7) & 1) != 0;
      setItemBit(at + k, valid);
    }
  }

  /** Marks items {@code [from, from + len)} valid. */
  private void setValid(long from, long len) {
    long k = from;
    long end = from + len;
    while (k < end && (k & 7) != 0) {
      setItemBit(k++, true);
    }
    int need = (int) ((end + 7) / 8);
    if (need > itemValidity.size()) {
      itemValidity.zeros(need - itemValidity.size());
    }
    byte[] a = itemValidity.array();
    while (k + 8 <= end) {
      a[(int) (k >>> 3)] = (byte) 0xFF;
      k += 8;
    }
    while (k < end) {
      setItemBit(k++, true);
    }
  }

  private void setItemBit(long index, boolean valid) {
    int need = (int) ((index + 8) / 8);
    if (need > itemValidity.size()) {
      itemValidity.zeros(need - itemValidity.size());
    }
    byte[] a = itemValidity.array();
    if (valid) {
      a[(int) (index >>> 3)] |= (byte) (1 << (int) (index & 7));
    } else {
      a[(int) (index >>> 3)] &= (byte) ~(1 << (int) (index & 7));
    }
  }

  private int fixedWidth() {
    return kind instanceof LeafKind.Vector vec ? vec.bytes() : ((LeafKind.Fixed) kind).bytes();
  }

  /** Appends {@code count} booleans, entry i's bit being bit {@code i} of {@code bits}. */
  void appendBits(byte[] itemCodes, int count, byte[] bits) {
    int at = grow(count);
    System.arraycopy(itemCodes, 0, codes, at, count);
    for (int i = 0; i < count; i++) {
      putBit(nv + i, (bits[i >>> 3] >>> (i & 7) & 1) != 0);
    }
    n += count;
    nv += count;
    rows += count;
  }

  private void putBit(int index, boolean set) {
    int need = (index + 8) / 8;
    if (need > values.size()) {
      values.zeros(need - values.size());
    }
    if (set) {
      values.array()[index >>> 3] |= (byte) (1 << (index & 7));
    }
  }

  Bytes valuesSink() {
    return values;
  }

  /** Ends a visible variable-width entry whose bytes the caller put into {@link #valuesSink}. */
  void endVariable(byte code) {
    int at = grow(1);
    codes[at] = code;
    growEnds(1);
    ends[nv++] = values.size();
    n++;
    rows++;
  }

  // ---- entries with repetition levels ---------------------------------------------------------

  /** Records an invisible entry (an empty or null list, or one under a null parent). */
  void invisible(int rep, int code) {
    int at = grow(1);
    codes[at] = (byte) code;
    reps[at] = (byte) rep;
    n++;
  }

  /**
   * Records a visible entry; its value follows: a fixed-width value from {@code src} at
   * {@code off}, a boolean, or (variable width) the bytes the caller put into the sink.
   */
  void visible(int rep, int code, ArrowBuf src, long off, boolean bit) {
    int at = grow(1);
    codes[at] = (byte) code;
    reps[at] = (byte) rep;
    n++;
    if (kind instanceof LeafKind.Bool) {
      putBit(nv, bit);
    } else if (kind instanceof LeafKind.Variable) {
      growEnds(1);
      ends[nv] = values.size();
    } else {
      int w = fixedWidth();
      values.reserve(w);
      if (src != null) {
        src.getBytes(off, values.array(), values.size(), w);
        values.advance(w);
      } else {
        values.zeros(w);
      }
    }
    nv++;
  }

  /** Encodes the buffered entries as one page and empties the column; null when empty. */
  EncodedPage takePage() {
    if (n == 0) {
      return null;
    }
    EncodedPage page = encode();
    n = 0;
    nv = 0;
    rows = 0;
    values.clear();
    itemValidity.clear();
    nullItems = false;
    return page;
  }

  private boolean visibleAt(int i, Levels levels) {
    return levels.level(codes[i]) <= levels.maxVisibleLevel;
  }

  private EncodedPage encode() {
    Levels levels = Levels.of(codes, n, depth, isList);
    if (nv == 0) {
      return constantWithoutValues(levels);
    }
    if (reps == null && depth == 1 && levels.any()) {
      boolean allNull = true;
      for (int i = 0; i < n && allNull; i++) {
        allNull = codes[i] != 0;
      }
      if (allNull) {
        PageLayout layout = PageLayout.newBuilder().setConstantLayout(ConstantLayout.newBuilder()
            .addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM)).build();
        return new EncodedPage(List.of(), layout, rows, firstRow);
      }
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
      if (v.bytes() >= FULL_ZIP_VALUE_BYTES) {
        return fullZipFixed(levels, v);
      }
      return nullItems ? miniBlockVectorsWithNullItems(levels, v)
          : miniBlockFlat(levels, v.bytes() * 8, logValuesPerChunk(v.bytes()),
              Encodings.fixedSizeList(v.dimension(), v.itemBytes() * 8, false));
    }
    return variablePage(levels, ((LeafKind.Variable) kind).offsetBytes());
  }

  /**
   * A page of lists without one value (every list empty or null): constant layout with the raw
   * u16 repetition and definition levels as its two buffers, as lance-core 7.0.0 writes it.
   */
  private EncodedPage constantWithoutValues(Levels levels) {
    Bytes rep = new Bytes(2 * n);
    Bytes def = new Bytes(2 * n);
    for (int i = 0; i < n; i++) {
      rep.u16(reps[i]);
      def.u16(levels.level(codes[i]));
    }
    PageLayout layout = PageLayout.newBuilder().setConstantLayout(ConstantLayout.newBuilder()
        .addAllLayers(levels.layers)).build();
    return new EncodedPage(List.of(rep.view(), def.view()), layout, rows, firstRow);
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

  private MiniBlockLayout.Builder miniBlockLayout(Levels levels, CompressiveEncoding values) {
    MiniBlockLayout.Builder m = MiniBlockLayout.newBuilder()
        .setValueCompression(values)
        .addAllLayers(levels.layers)
        .setNumBuffers(1)
        .setNumItems(nv);
    if (levels.any()) {
      m.setDefCompression(Encodings.outOfLineBitpacking(16, levels.width()));
    }
    if (reps != null) {
      m.setRepCompression(Encodings.outOfLineBitpacking(16, repWidth()));
      m.setRepetitionIndexDepth(1);
    }
    return m;
  }

  private int repWidth() {
    return 32 - Integer.numberOfLeadingZeros(maxRep);
  }

  private EncodedPage miniBlockPage(MiniBlockLayout.Builder m, MiniBlocks blocks,
      Bytes dictionary) {
    List<ByteBuffer> buffers = new ArrayList<>(List.of(blocks.meta.view(), blocks.chunks.view()));
    if (dictionary != null) {
      buffers.add(dictionary.view());
    }
    if (reps != null) {
      buffers.add(blocks.repetitionIndex().view());
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setMiniBlockLayout(m).build(), rows,
        firstRow);
  }

  /** Values stored as they are, {@code bits} each, {@code 2^log} per chunk. */
  private EncodedPage miniBlockFlat(Levels levels, int bits, int log, CompressiveEncoding enc) {
    MiniBlocks blocks = new MiniBlocks(levels);
    int per = 1 << log;
    Bytes chunk = new Bytes(0);
    for (int start = 0; start < nv; start += per) {
      int count = Math.min(per, nv - start);
      boolean last = start + count == nv;
      if (bits == 1) {
        chunk.clear();
        copyBits(values.array(), start, count, chunk);
        blocks.add(last ? 0 : log, count, last, chunk.array(), 0, chunk.size());
      } else {
        blocks.add(last ? 0 : log, count, last, values.array(),
            (int) ((long) start * bits / 8), (int) ((long) count * bits / 8));
      }
    }
    return miniBlockPage(miniBlockLayout(levels, enc), blocks, null);
  }

  /**
   * Vectors with null items: each chunk has two value buffers, the items' validity bits of its
   * values, then the values (lance-core's fixed-size list with validity).
   */
  private EncodedPage miniBlockVectorsWithNullItems(Levels levels, LeafKind.Vector v) {
    int dim = v.dimension();
    // Chunks sized as lance-core sizes them: by the value's bytes plus its validity bytes.
    int log = logValuesPerChunk((dim + 7) / 8 + v.bytes());
    int per = 1 << log;
    MiniBlocks blocks = new MiniBlocks(levels);
    Bytes validity = new Bytes(0);
    for (int start = 0; start < nv; start += per) {
      int count = Math.min(per, nv - start);
      boolean last = start + count == nv;
      validity.clear();
      copyBits(itemValidity.array(), start * dim, count * dim, validity);
      blocks.add(last ? 0 : log, count, last, new byte[][] {validity.array(), values.array()},
          new int[] {0, start * v.bytes()}, new int[] {validity.size(), count * v.bytes()});
    }
    MiniBlockLayout.Builder m = miniBlockLayout(levels,
        Encodings.fixedSizeList(dim, v.itemBytes() * 8, true)).setNumBuffers(2);
    return miniBlockPage(m, blocks, null);
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
    for (int start = 0; start < nv && !pays; start += FastLanesPacker.BLOCK) {
      int count = Math.min(FastLanesPacker.BLOCK, nv - start);
      pays = bitWidth(values, start, count, bytes) < wordBits;
    }
    if (!pays) {
      return miniBlockFlat(levels, wordBits, logValuesPerChunk(bytes), Encodings.flat(wordBits));
    }
    return packedIntegers(levels, values, bytes, null);
  }

  /** Bit-packs {@code src}'s {@code bytes}-byte integers (value i at i * bytes) in chunks. */
  private EncodedPage packedIntegers(Levels levels, Bytes src, int bytes, Bytes dictionary) {
    int wordBits = bytes * 8;
    MiniBlocks blocks = new MiniBlocks(levels);
    long[] in = new long[FastLanesPacker.BLOCK];
    long[] packed = new long[FastLanesPacker.BLOCK];
    Bytes chunk = new Bytes(8 * 1024 + 8);
    for (int start = 0; start < nv; start += FastLanesPacker.BLOCK) {
      int count = Math.min(FastLanesPacker.BLOCK, nv - start);
      int width = bitWidth(src, start, count, bytes);
      Arrays.fill(in, 0L);
      for (int i = 0; i < count; i++) {
        in[i] = src.getWord((start + i) * bytes, bytes);
      }
      FastLanesPacker.pack(in, wordBits, width, packed);
      chunk.clear();
      chunk.word(width, bytes);
      FastLanesPacker.write(packed, FastLanesPacker.packedWords(wordBits, width), wordBits, chunk);
      boolean last = start + count == nv;
      blocks.add(last ? 0 : 10, count, last, chunk.array(), 0, chunk.size());
    }
    MiniBlockLayout.Builder m = miniBlockLayout(levels, Encodings.inlineBitpacking(wordBits));
    return miniBlockPage(m, blocks, dictionary);
  }

  /** The bit width of the largest of {@code count} integers from value {@code start}. */
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
    for (int i = 0; i < nv; i++) {
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
    if (fsstAllowed && offsetBytes == 4 && maxLen >= FSST_MIN_MAX_LENGTH
        && values.size() >= FSST_MIN_BYTES) {
      FsstEncoder fsst = FsstEncoder.train(values.array(), ends, nv);
      if (fsst.symbols() > 0) {
        Bytes packed = new Bytes(values.size());
        long[] packedEnds = new long[nv];
        long from = 0;
        for (int i = 0; i < nv; i++) {
          fsst.compress(values.array(), (int) from, (int) ends[i], packed);
          packedEnds[i] = packed.size();
          from = ends[i];
        }
        if (packed.size() + FsstEncoder.TABLE_BYTES < values.size()) {
          CompressiveEncoding enc = CompressiveEncoding.newBuilder().setFsst(
              dev.lancet.format.pb.Encodings21Protos.Fsst.newBuilder()
                  .setSymbolTable(com.google.protobuf.ByteString.copyFrom(fsst.export()))
                  .setValues(Encodings.variable(32))).build();
          return variableMiniBlock(levels, 4, packed, packedEnds, enc);
        }
      }
    }
    return variableMiniBlock(levels, offsetBytes, values, ends,
        Encodings.variable(offsetBytes * 8));
  }

  /** FSST is tried on pages whose longest value has this many bytes (lance-core: 5)... */
  static final int FSST_MIN_MAX_LENGTH = 5;
  /** ...and whose values take this many bytes (lance-core: 32 KiB). */
  static final int FSST_MIN_BYTES = 32 * 1024;

  /** Variable-width values {@code vals} (value i ending at {@code valEnds[i]}) in chunks. */
  private EncodedPage variableMiniBlock(Levels levels, int offsetBytes, Bytes vals,
      long[] valEnds, CompressiveEncoding enc) {
    MiniBlocks blocks = new MiniBlocks(levels);
    Bytes chunk = new Bytes(AIM_VARIABLE_CHUNK + 64);
    int start = 0;
    while (start < nv) {
      int count = variableChunk(start, offsetBytes, valEnds);
      boolean last = start + count == nv;
      chunk.clear();
      long base = start == 0 ? 0 : valEnds[start - 1];
      long head = (long) (count + 1) * offsetBytes;
      chunk.word(head, offsetBytes);
      for (int i = start; i < start + count; i++) {
        chunk.word(head + valEnds[i] - base, offsetBytes);
      }
      chunk.put(vals, (int) base, (int) (valEnds[start + count - 1] - base));
      chunk.pad(offsetBytes, (byte) 72);
      blocks.add(last ? 0 : Integer.numberOfTrailingZeros(count), count, last, chunk.array(), 0,
          chunk.size());
      start += count;
    }
    return miniBlockPage(miniBlockLayout(levels, enc), blocks, null);
  }

  /** Bytes of values {@code [from, to)} given their ends. */
  private static long span(long[] valEnds, int from, int to) {
    return (to == 0 ? 0 : valEnds[to - 1]) - (from == 0 ? 0 : valEnds[from - 1]);
  }

  /**
   * How many values from {@code start} go in the next chunk: the rest if it fits in
   * {@link #AIM_VARIABLE_CHUNK} bytes of offsets and values, else the largest power of two that
   * fits (at least one, at most {@link #MAX_CHUNK_VALUES}).
   */
  private int variableChunk(int start, int offsetBytes, long[] valEnds) {
    int rest = nv - start;
    if (rest <= MAX_CHUNK_VALUES
        && span(valEnds, start, nv) + (long) (rest + 1) * offsetBytes <= AIM_VARIABLE_CHUNK) {
      return rest;
    }
    int count = 1;
    while (2 * count < rest && 2 * count <= MAX_CHUNK_VALUES
        && span(valEnds, start, start + 2 * count) + (long) (2 * count + 1) * offsetBytes
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

  /** A dictionary page: the values' indices (u32) bit-packed, the dictionary its own buffer. */
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

  /** Bytes of an entry's control word: its repetition level above its definition level. */
  private int controlBytes(Levels levels) {
    int bits = levels.width() + (reps == null ? 0 : repWidth());
    return bits == 0 ? 0 : bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
  }

  private long controlWord(int i, Levels levels) {
    long def = levels.level(codes[i]);
    return reps == null ? def : ((long) reps[i] << levels.width()) | def;
  }

  private FullZipLayout.Builder fullZipLayout(Levels levels, CompressiveEncoding enc) {
    return FullZipLayout.newBuilder()
        .setBitsRep(reps == null ? 0 : repWidth())
        .setBitsDef(levels.width())
        .setNumItems(n)
        .setNumVisibleItems(nv)
        .setValueCompression(enc)
        .addAllLayers(levels.layers);
  }

  /**
   * Each entry: its control word (when there are levels), then, if visible, its value's bytes.
   * With repetition, a second buffer gives each row's start (see {@link #rowIndex}).
   */
  private EncodedPage fullZipFixed(Levels levels, LeafKind.Vector v) {
    int ctrl = controlBytes(levels);
    int validityBytes = nullItems ? (v.dimension() + 7) / 8 : 0;
    int width = v.bytes() + validityBytes;
    ByteBuffer buffer;
    long[] rowStarts = reps == null ? null : new long[(int) rows + 1];
    Bytes scratch = new Bytes(validityBytes);
    if (ctrl == 0 && validityBytes == 0) {
      buffer = values.view(); // the values are the page: no copy
    } else {
      Bytes zipped = new Bytes((int) Math.min(Integer.MAX_VALUE - 16, (long) n * ctrl
          + (long) nv * width));
      int value = 0;
      int row = 0;
      for (int i = 0; i < n; i++) {
        if (rowStarts != null && reps[i] == maxRep) {
          rowStarts[row++] = zipped.size();
        }
        zipped.word(controlWord(i, levels), ctrl);
        if (visibleAt(i, levels)) {
          if (validityBytes > 0) {
            scratch.clear();
            copyBits(itemValidity.array(), value * v.dimension(), v.dimension(), scratch);
            zipped.put(scratch, 0, validityBytes);
          }
          zipped.put(values, value * v.bytes(), v.bytes());
          value++;
        }
      }
      if (rowStarts != null) {
        rowStarts[row] = zipped.size();
      }
      buffer = zipped.view();
    }
    FullZipLayout.Builder z = fullZipLayout(levels,
        Encodings.fixedSizeList(v.dimension(), v.itemBytes() * 8, validityBytes > 0))
        .setBitsPerValue(width * 8);
    List<ByteBuffer> buffers = rowStarts == null ? List.of(buffer)
        : List.of(buffer, rowIndex(rowStarts).view());
    return new EncodedPage(buffers, PageLayout.newBuilder().setFullZipLayout(z).build(), rows,
        firstRow);
  }

  /**
   * Each entry: its control word (when there are levels), then, if it is a valid value, its
   * length ({@code offsetBytes} bytes) and bytes. A second buffer, the repetition index, gives
   * each row's start in the first and then the end.
   */
  private EncodedPage fullZipVariable(Levels levels, int offsetBytes) {
    int ctrl = controlBytes(levels);
    long total = values.size() + (long) n * ctrl + (long) nv * offsetBytes;
    if (total > Integer.MAX_VALUE - 16) {
      throw new InvalidBatchException("column '" + path + "': a page of " + total + " bytes; "
          + "lower the page size");
    }
    Bytes zipped = new Bytes((int) total);
    long[] rowStarts = new long[(int) rows + 1];
    int row = 0;
    int value = 0;
    long prev = 0;
    for (int i = 0; i < n; i++) {
      if (reps == null || reps[i] == maxRep) {
        rowStarts[row++] = zipped.size();
      }
      if (ctrl > 0) {
        zipped.word(controlWord(i, levels), ctrl);
      }
      if (visibleAt(i, levels)) {
        long end = ends[value++];
        if (codes[i] == 0) {
          zipped.word(end - prev, offsetBytes);
          zipped.put(values, (int) prev, (int) (end - prev));
        }
        prev = end;
      }
    }
    rowStarts[row] = zipped.size();
    FullZipLayout.Builder z = fullZipLayout(levels, Encodings.variable(offsetBytes * 8))
        .setBitsPerOffset(offsetBytes * 8);
    return new EncodedPage(List.of(zipped.view(), rowIndex(rowStarts).view()),
        PageLayout.newBuilder().setFullZipLayout(z).build(), rows, firstRow);
  }

  /** Row starts then the end, each in the narrowest of 1, 2, 4 or 8 bytes that holds the end. */
  private static Bytes rowIndex(long[] starts) {
    long max = starts[starts.length - 1];
    int w = max <= 0xFF ? 1 : max <= 0xFFFF ? 2 : max <= 0xFFFFFFFFL ? 4 : 8;
    Bytes index = new Bytes(starts.length * w);
    for (long s : starts) {
      index.word(s, w);
    }
    return index;
  }

  /**
   * Assembles mini-block chunks: page buffer 0 the u16 chunk words, buffer 1 the chunks, each
   * chunk a header (u16 level count, u16 repetition bytes and u16 definition bytes when there
   * are such levels, u16 value bytes), the levels (out-of-line bit-packed u16) and the value
   * buffer, each part padded to 8 bytes. A chunk takes the entries up to and including its last
   * value (invisible entries after it go to the next chunk; the last chunk takes the rest), and
   * with repetition the repetition index gets (rows finished in the chunk, entries of the row
   * left unfinished) per chunk as u64 pairs.
   */
  final class MiniBlocks {
    final Bytes meta = new Bytes(64);
    /** Sized for the page up front: growing it by doubling copied each page several times. */
    final Bytes chunks = new Bytes((int) Math.min(Integer.MAX_VALUE - 16,
        values.size() + 4L * n + 16L * (nv / 64 + 1) + itemValidity.size() + 1024));
    private final Levels levels;
    private final Bytes rep = new Bytes(2048);
    private final Bytes def = new Bytes(2048);
    private final long[] in = new long[FastLanesPacker.BLOCK];
    private final long[] packed = new long[FastLanesPacker.BLOCK];
    private final List<long[]> repIndex = new ArrayList<>();
    private int entry;

    MiniBlocks(Levels levels) {
      this.levels = levels;
    }

    /** Adds the next chunk: {@code count} values whose value buffer is given. */
    void add(int log, int count, boolean last, byte[] val, int valOff, int valLen) {
      add(log, count, last, new byte[][] {val}, new int[] {valOff}, new int[] {valLen});
    }

    /** Adds the next chunk: {@code count} values whose value buffers are given. */
    void add(int log, int count, boolean last, byte[][] vals, int[] valOffs, int[] valLens) {
      int first = entry;
      int end;
      if (last) {
        end = n;
      } else {
        int taken = 0;
        end = first;
        while (taken < count) {
          if (visibleAt(end, levels)) {
            taken++;
          }
          end++;
        }
      }
      entry = end;
      int entries = end - first;
      if (reps != null) {
        indexChunk(first, end, last);
      }
      int begin = chunks.size();
      chunks.u16(reps != null || levels.any() ? entries : 0);
      if (reps != null) {
        rep.clear();
        packLevels(first, entries, repWidth(), true, rep);
        chunks.u16(rep.size());
      }
      if (levels.any()) {
        def.clear();
        packLevels(first, entries, levels.width(), false, def);
        chunks.u16(def.size());
      }
      for (int valLen : valLens) {
        if (valLen > 0xFFFF) {
          throw new IllegalStateException("a chunk value buffer of " + valLen + " bytes");
        }
        chunks.u16(valLen);
      }
      chunks.pad(8, CHUNK_FILL);
      if (reps != null) {
        chunks.put(rep, 0, rep.size());
        chunks.pad(8, CHUNK_FILL);
      }
      if (levels.any()) {
        chunks.put(def, 0, def.size());
        chunks.pad(8, CHUNK_FILL);
      }
      for (int b = 0; b < vals.length; b++) {
        chunks.put(vals[b], valOffs[b], valLens[b]);
        chunks.pad(8, CHUNK_FILL);
      }
      int size = chunks.size() - begin;
      if (size > 32 * 1024) {
        throw new IllegalStateException("a mini-block chunk of " + size + " bytes");
      }
      meta.u16(((size / 8 - 1) << 4) | log);
    }

    /** Rows finished in entries {@code [from, to)} and entries left of an unfinished row. */
    private void indexChunk(int from, int to, boolean last) {
      long finished = 0;
      int lastStart = -1;
      for (int i = from; i < to; i++) {
        if (reps[i] == maxRep) {
          if (i > from) {
            finished++;
          }
          lastStart = i;
        }
      }
      if (!repIndex.isEmpty() && to > from && reps[from] == maxRep) {
        long[] prev = repIndex.get(repIndex.size() - 1);
        if (prev[1] != 0) { // the previous chunk's leftover row was whole after all
          prev[0]++;
          prev[1] = 0;
        }
      }
      long leftovers;
      if (last) {
        finished++;
        leftovers = 0;
      } else {
        leftovers = lastStart < 0 ? to - from : to - lastStart;
      }
      repIndex.add(new long[] {finished, leftovers});
    }

    Bytes repetitionIndex() {
      Bytes b = new Bytes(16 * repIndex.size());
      for (long[] e : repIndex) {
        b.u64(e[0]);
        b.u64(e[1]);
      }
      return b;
    }

    /**
     * Out-of-line bit-packing of u16 levels: whole blocks of 1024 packed at {@code width}; a
     * shorter tail packed as a zero-padded block only when that is smaller than raw u16 words.
     */
    private void packLevels(int start, int count, int width, boolean repetition, Bytes out) {
      int done = 0;
      while (done < count) {
        int take = Math.min(FastLanesPacker.BLOCK, count - done);
        if (take < FastLanesPacker.BLOCK && !(take > 64 * width)) {
          for (int i = 0; i < take; i++) {
            out.u16(levelAt(start + done + i, repetition));
          }
        } else {
          Arrays.fill(in, 0L);
          for (int i = 0; i < take; i++) {
            in[i] = levelAt(start + done + i, repetition);
          }
          FastLanesPacker.pack(in, 16, width, packed);
          FastLanesPacker.write(packed, FastLanesPacker.packedWords(16, width), 16, out);
        }
        done += take;
      }
    }

    private int levelAt(int i, boolean repetition) {
      return repetition ? reps[i] : levels.level(codes[i]);
    }
  }
}
