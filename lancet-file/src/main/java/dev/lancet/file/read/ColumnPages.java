package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.pb.Encodings21Protos.BufferCompression;
import dev.lancet.format.pb.Encodings21Protos.CompressiveEncoding;
import dev.lancet.format.pb.Encodings21Protos.ConstantLayout;
import dev.lancet.format.pb.Encodings21Protos.FullZipLayout;
import dev.lancet.format.pb.Encodings21Protos.MiniBlockLayout;
import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import dev.lancet.format.pb.Encodings21Protos.RepDefLayer;
import dev.lancet.format.pb.File2Protos.ColumnMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pages of one column, each checked against the file and either given a decoder or marked
 * not supported by the Java reader (with the reason).
 */
final class ColumnPages {
  static final String PAGE_LAYOUT = "/lance.encodings21.PageLayout";
  static final String COLUMN_ENCODING = "/lance.encodings.ColumnEncoding";

  private final List<PageDecoder> pages;
  private final long[] pageStart;
  private final Optional<String> unsupported;

  private ColumnPages(List<PageDecoder> pages, long[] pageStart, Optional<String> unsupported) {
    this.pages = pages;
    this.pageStart = pageStart;
    this.unsupported = unsupported;
  }

  /** The decoders of the pages (empty when the column is not supported); for tests. */
  List<PageDecoder> decoders() {
    return pages;
  }

  /** Pages in the column. */
  int numPages() {
    return pageStart.length - 1;
  }

  /** Why the Java reader cannot decode this column, if it cannot. */
  Optional<String> unsupported() {
    return unsupported;
  }

  static ColumnPages of(LanceFile file, ColumnMetadata meta, FieldColumns.Leaf leaf,
      long numRows, String where) throws CorruptFileException {
    long dataEnd = file.footer().columnMetadataStart();
    checkBuffers(meta.getBufferOffsetsList(), meta.getBufferSizesList(), dataEnd, where);
    String reason = null;
    Optional<ValueKind> kind = ValueKind.of(leaf.field());
    if (kind.isEmpty()) {
      reason = where + ": type " + leaf.field().getType() + " is not a type the Java reader "
          + "decodes";
    } else if (meta.getBufferOffsetsCount() > 0) {
      reason = where + ": the column has column-level buffers";
    } else if (meta.hasEncoding()
        && !(meta.getEncoding().hasDirect()
            && meta.getEncoding().getDirect().getEncoding().getTypeUrl().equals(COLUMN_ENCODING))) {
      reason = where + ": column encoding " + meta.getEncoding() + " is not the plain 2.1 one";
    }
    List<PageDecoder> pages = new ArrayList<>(meta.getPagesCount());
    long[] starts = new long[meta.getPagesCount() + 1];
    for (int p = 0; p < meta.getPagesCount(); p++) {
      ColumnMetadata.Page page = meta.getPages(p);
      String pageWhere = where + ", page " + p;
      checkBuffers(page.getBufferOffsetsList(), page.getBufferSizesList(), dataEnd, pageWhere);
      long rows = page.getLength();
      if (rows < 0 || rows > numRows) {
        throw new CorruptFileException(pageWhere + ": " + Long.toUnsignedString(rows)
            + " rows in a file of " + numRows);
      }
      starts[p + 1] = starts[p] + rows;
      if (reason != null) {
        continue;
      }
      try {
        pages.add(decoderOf(file, page, rows, kind.get(), leaf.depth(), pageWhere));
      } catch (UnsupportedFileException e) {
        reason = e.getMessage();
      }
    }
    if (starts[meta.getPagesCount()] != numRows) {
      throw new CorruptFileException(where + ": the pages hold " + starts[meta.getPagesCount()]
          + " rows, the file " + numRows);
    }
    return new ColumnPages(reason == null ? pages : List.of(), starts,
        Optional.ofNullable(reason));
  }

  private static void checkBuffers(List<Long> offsets, List<Long> sizes, long end, String where)
      throws CorruptFileException {
    if (offsets.size() != sizes.size()) {
      throw new CorruptFileException(where + ": " + offsets.size() + " buffer offsets but "
          + sizes.size() + " buffer sizes");
    }
    for (int i = 0; i < offsets.size(); i++) {
      LanceFile.checkRegion(offsets.get(i), sizes.get(i), 0, end, where + ": buffer " + i);
    }
  }

  private static PageDecoder decoderOf(LanceFile file, ColumnMetadata.Page page, long rows,
      ValueKind kind, int depth, String where)
      throws CorruptFileException, UnsupportedFileException {
    if (!page.hasEncoding() || !page.getEncoding().hasDirect()) {
      throw new UnsupportedFileException(where + ": the page encoding is not inline");
    }
    Any any = page.getEncoding().getDirect().getEncoding();
    if (!any.getTypeUrl().equals(PAGE_LAYOUT)) {
      throw new UnsupportedFileException(where + ": page encoding " + any.getTypeUrl());
    }
    PageLayout layout;
    try {
      layout = PageLayout.parseFrom(any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptFileException(where + ": the page layout does not parse: "
          + e.getMessage(), e);
    }
    return switch (layout.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT -> miniBlock(file, page, rows, kind, depth,
          layout.getMiniBlockLayout(), where);
      case FULL_ZIP_LAYOUT -> fullZip(file, page, rows, kind, depth, layout.getFullZipLayout(),
          where);
      case CONSTANT_LAYOUT -> constant(file, page, rows, depth, layout.getConstantLayout(),
          where);
      default -> throw new UnsupportedFileException(where + ": layout "
          + layout.getLayoutCase());
    };
  }

  /**
   * Per layer (0 the leaf, then each struct out), the highest definition level at which it is
   * valid, or -1 for a layer that cannot be null: nullable layers take levels 1, 2, ... from
   * the leaf out (upstream repdef.rs, RepDefUnraveler). Lists are not decoded here.
   */
  static int[] levelsOf(List<RepDefLayer> layers, int depth, String where)
      throws UnsupportedFileException {
    if (layers.size() != depth + 1) {
      throw new UnsupportedFileException(where + ": layers " + layers + " for a leaf "
          + depth + " structs deep");
    }
    int[] cmp = new int[layers.size()];
    int nullable = 0;
    for (int j = 0; j < layers.size(); j++) {
      switch (layers.get(j)) {
        case REPDEF_ALL_VALID_ITEM -> cmp[j] = -1;
        case REPDEF_NULLABLE_ITEM -> cmp[j] = nullable++;
        default -> throw new UnsupportedFileException(where + ": layers " + layers
            + " (list layers are left to lance-core)");
      }
    }
    return cmp;
  }

  private static boolean anyNullable(int[] cmp) {
    for (int c : cmp) {
      if (c >= 0) {
        return true;
      }
    }
    return false;
  }

  private static PageDecoder constant(LanceFile file, ColumnMetadata.Page page, long rows,
      int depth, ConstantLayout c, String where)
      throws UnsupportedFileException, CorruptFileException {
    if (!c.hasInlineValue() && !c.hasRepCompression() && !c.hasDefCompression()
        && c.getNumRepValues() == 0) {
      int[] cmp = levelsOf(c.getLayersList(), depth, where);
      if (anyNullable(cmp) && page.getBufferOffsetsCount() == 0) {
        return new AllNullPage(rows, cmp, file, 0, false, where);
      }
      // Raw u16 levels: no repetition (buffer 0 empty), one definition level per row.
      if (anyNullable(cmp) && page.getBufferOffsetsCount() == 2 && page.getBufferSizes(0) == 0) {
        long defs = c.getNumDefValues() != 0 ? c.getNumDefValues() : rows;
        if (defs != rows || page.getBufferSizes(1) != 2 * rows) {
          throw new CorruptFileException(where + ": an all-null page of " + rows + " rows with "
              + page.getBufferSizes(1) + " bytes of definition levels (" + defs + " declared)");
        }
        return new AllNullPage(rows, cmp, file, page.getBufferOffsets(1), true, where);
      }
    }
    throw new UnsupportedFileException(where + ": a constant layout other than all-null ("
        + com.google.protobuf.TextFormat.shortDebugString(c) + ", "
        + page.getBufferOffsetsCount() + " buffers)");
  }

  private static PageDecoder miniBlock(LanceFile file, ColumnMetadata.Page page, long rows,
      ValueKind kind, int depth, MiniBlockLayout m, String where)
      throws CorruptFileException, UnsupportedFileException {
    if (m.hasRepCompression() || m.getRepetitionIndexDepth() != 0 || m.getHasLargeChunk()) {
      throw new UnsupportedFileException(where + ": a mini-block page with repetition or large "
          + "chunks");
    }
    int[] cmp = levelsOf(m.getLayersList(), depth, where);
    boolean nullable = anyNullable(cmp);
    if (nullable != m.hasDefCompression()) {
      throw new CorruptFileException(where + ": layers " + m.getLayersList() + (nullable
          ? " without" : " with") + " definition levels");
    }
    LevelCoding levels = nullable ? levelCoding(m.getDefCompression(), where) : LevelCoding.NONE;
    if (m.getNumItems() != rows) {
      throw new CorruptFileException(where + ": " + m.getNumItems() + " items in a page of "
          + rows + " rows without repetition");
    }
    int buffers = 2;
    ValueCoding values;
    if (m.hasDictionary()) {
      buffers = 3;
      if (page.getBufferOffsetsCount() != 3) {
        throw new CorruptFileException(where + ": a dictionary-encoded mini-block page has 3 "
            + "buffers (chunk metadata, chunks, dictionary), not " + page.getBufferOffsetsCount());
      }
      ValueCoding indices = valueCoding(m.getValueCompression(), ValueKind.INDICES, where);
      if (!indices.integers()) {
        throw new UnsupportedFileException(where + ": dictionary indices coded as "
            + indices.describe());
      }
      values = new ValueCoding.Dictionary(indices, dictionarySource(m.getDictionary(),
          m.getNumDictionaryItems(), kind, page.getBufferOffsets(2), page.getBufferSizes(2),
          where));
    } else {
      values = valueCoding(m.getValueCompression(), kind, where);
    }
    if (m.getNumBuffers() != values.buffers()) {
      throw new CorruptFileException(where + ": " + m.getNumBuffers() + " value buffers per "
          + "chunk, but " + values.describe() + " has " + values.buffers());
    }
    if (page.getBufferOffsetsCount() != buffers) {
      throw new CorruptFileException(where + ": a mini-block page has " + buffers + " buffers, "
          + "not " + page.getBufferOffsetsCount());
    }
    return new MiniBlockPage(file, where, rows, page.getBufferOffsets(0), page.getBufferSizes(0),
        page.getBufferOffsets(1), page.getBufferSizes(1), values, levels, cmp);
  }

  private static DictionaryValues.Source dictionarySource(CompressiveEncoding e, long count,
      ValueKind kind, long pos, long size, String where)
      throws UnsupportedFileException, CorruptFileException {
    Optional<GeneralCodec> codec = Optional.empty();
    CompressiveEncoding d = e;
    if (d.hasGeneral()) {
      codec = Optional.of(codec(d.getGeneral().getCompression(), where));
      d = d.getGeneral().getValues();
    }
    if (count < 0 || count > MiniBlockPage.MAX_CHUNK_VALUES * 64L) {
      throw new CorruptFileException(where + ": a dictionary of "
          + Long.toUnsignedString(count) + " items");
    }
    if (kind.variable() && d.hasVariable() && d.getVariable().getOffsets().hasFlat()
        && !d.getVariable().hasValues()) {
      return new DictionaryValues.Source(pos, size, count, 0, codec);
    }
    if (kind.fixedBytes() > 0 && d.hasFlat() && !d.getFlat().hasData()
        && d.getFlat().getBitsPerValue() == kind.fixedBytes() * 8L) {
      return new DictionaryValues.Source(pos, size, count, kind.fixedBytes(), codec);
    }
    throw new UnsupportedFileException(where + ": a dictionary coded as " + d.getCompressionCase()
        + " for " + kind);
  }

  static GeneralCodec codec(BufferCompression c, String where) throws UnsupportedFileException {
    return switch (c.getScheme()) {
      case COMPRESSION_ALGORITHM_LZ4, COMPRESSION_ALGORITHM_ZSTD -> new GeneralCodec(c.getScheme());
      default -> throw new UnsupportedFileException(where + ": general compression "
          + c.getScheme());
    };
  }

  private static PageDecoder fullZip(LanceFile file, ColumnMetadata.Page page, long rows,
      ValueKind kind, int depth, FullZipLayout z, String where)
      throws CorruptFileException, UnsupportedFileException {
    if (z.getBitsRep() != 0) {
      throw new UnsupportedFileException(where + ": a full-zip page with repetition");
    }
    int[] cmp = levelsOf(z.getLayersList(), depth, where);
    if (anyNullable(cmp) != (z.getBitsDef() > 0) || z.getBitsDef() > 16) {
      throw new CorruptFileException(where + ": layers " + z.getLayersList() + " with "
          + z.getBitsDef() + " bits of definition levels");
    }
    if (Integer.toUnsignedLong(z.getNumItems()) != rows) {
      throw new CorruptFileException(where + ": " + Integer.toUnsignedString(z.getNumItems())
          + " items in a full-zip page of " + rows + " rows without repetition");
    }
    CompressiveEncoding e = z.getValueCompression();
    switch (z.getDetailsCase()) {
      case BITS_PER_VALUE -> {
        long bits = Integer.toUnsignedLong(z.getBitsPerValue());
        // A fixed-size list with item validity prepends each row's validity bytes.
        boolean itemValidity = e.hasFixedSizeList() && e.getFixedSizeList().getHasValidity();
        int validityBytes = itemValidity ? (kind.dimension() + 7) / 8 : 0;
        boolean fits = kind.rowBytes() > 0
            && bits == (kind.rowBytes() + (long) validityBytes) * 8L
            && (e.hasFlat() && !e.getFlat().hasData() && kind.dimension() == 1
                && e.getFlat().getBitsPerValue() == bits
                || e.hasFixedSizeList() && kind.dimension() > 1
                    && e.getFixedSizeList().getItemsPerValue() == kind.dimension()
                    && e.getFixedSizeList().getValues().hasFlat()
                    && !e.getFixedSizeList().getValues().getFlat().hasData()
                    && e.getFixedSizeList().getValues().getFlat().getBitsPerValue()
                        == kind.fixedBytes() * 8L);
        if (bits == 0 && kind.dimension() > 1 && e.hasConstant() && !e.getConstant().hasValue()
            && page.getBufferOffsetsCount() == 1) {
          // A fixed-size list whose items are all null: the items leave no bytes.
          return new FullZipPage(file, where, rows, page.getBufferOffsets(0),
              page.getBufferSizes(0), z.getBitsDef(), cmp, kind.rowBytes(), -1, 0,
              Optional.empty(), Optional.empty(), 0, 0);
        }
        if (!fits || page.getBufferOffsetsCount() != 1) {
          throw new UnsupportedFileException(where + ": a full-zip page of " + bits + "-bit "
              + "values coded as " + e.getCompressionCase() + " for " + kind);
        }
        return new FullZipPage(file, where, rows, page.getBufferOffsets(0),
            page.getBufferSizes(0), z.getBitsDef(), cmp, kind.rowBytes(), validityBytes, 0,
            Optional.empty(), Optional.empty(), 0, 0);
      }
      case BITS_PER_OFFSET -> {
        int bits = z.getBitsPerOffset();
        Optional<GeneralCodec> codec = Optional.empty();
        CompressiveEncoding v = e;
        if (v.hasGeneral()) {
          codec = Optional.of(codec(v.getGeneral().getCompression(), where));
          v = v.getGeneral().getValues();
        }
        Optional<FsstSymbols> fsst = Optional.empty();
        if (v.hasFsst()) {
          fsst = Optional.of(FsstSymbols.parse(v.getFsst().getSymbolTable().toByteArray(),
              where));
          v = v.getFsst().getValues();
        }
        if (!kind.variable() || bits != 32 && bits != 64 || !v.hasVariable()
            || v.getVariable().hasValues()) {
          throw new UnsupportedFileException(where + ": a full-zip page of variable-width "
              + "values coded as " + e.getCompressionCase() + " for " + kind);
        }
        if (page.getBufferOffsetsCount() != 2) {
          throw new CorruptFileException(where + ": a variable-width full-zip page has 2 "
              + "buffers (values, repetition index), not " + page.getBufferOffsetsCount());
        }
        return new FullZipPage(file, where, rows, page.getBufferOffsets(0),
            page.getBufferSizes(0), z.getBitsDef(), cmp, 0, 0, bits / 8, codec, fsst,
            page.getBufferOffsets(1), page.getBufferSizes(1));
      }
      default -> throw new CorruptFileException(where + ": a full-zip layout without its value "
          + "width");
    }
  }

  /** The coding of a mini-block page's values of {@code kind}. */
  private static ValueCoding valueCoding(CompressiveEncoding e, ValueKind kind, String where)
      throws UnsupportedFileException, CorruptFileException {
    switch (e.getCompressionCase()) {
      case GENERAL -> {
        ValueCoding inner = valueCoding(e.getGeneral().getValues(), kind, where);
        return new ValueCoding.General(codec(e.getGeneral().getCompression(), where), inner);
      }
      case FLAT -> {
        long bits = e.getFlat().getBitsPerValue();
        if (!e.getFlat().hasData() && (bits == 1 && kind.bool() || kind.takesBits(bits))) {
          return new ValueCoding.Flat((int) bits);
        }
      }
      case INLINE_BITPACKING -> {
        long bits = e.getInlineBitpacking().getUncompressedBitsPerValue();
        if (!e.getInlineBitpacking().hasValues() && kind.takesBits(bits)
            && (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
          return new ValueCoding.InlineBitpacked((int) bits);
        }
      }
      case RLE -> {
        CompressiveEncoding v = e.getRle().getValues();
        CompressiveEncoding l = e.getRle().getRunLengths();
        long bits = v.hasFlat() ? v.getFlat().getBitsPerValue() : -1;
        if (v.hasFlat() && !v.getFlat().hasData() && l.hasFlat() && !l.getFlat().hasData()
            && l.getFlat().getBitsPerValue() == 8 && kind.takesBits(bits)
            && (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
          return new ValueCoding.Rle(new ValueCoding.Flat((int) bits), 8);
        }
      }
      case FIXED_SIZE_LIST -> {
        var f = e.getFixedSizeList();
        if (kind.dimension() > 1 && f.getItemsPerValue() == kind.dimension()
            && f.getValues().hasFlat() && !f.getValues().getFlat().hasData()
            && f.getValues().getFlat().getBitsPerValue() == kind.fixedBytes() * 8L) {
          return new ValueCoding.FixedSizeList(kind.dimension(), kind.fixedBytes() * 8,
              f.getHasValidity());
        }
      }
      case PACKED_STRUCT -> {
        var ps = e.getPackedStruct();
        if (kind.packed() && ps.getBitsPerValueList().equals(kind.childBits())
            && ps.getValues().hasFlat() && !ps.getValues().getFlat().hasData()
            && ps.getValues().getFlat().getBitsPerValue() == kind.rowBytes() * 8L) {
          return new ValueCoding.PackedStruct(kind.rowBytes() * 8);
        }
      }
      case FSST, VARIABLE -> {
        if (kind.variable()) {
          return variableCoding(e, where);
        }
      }
      default -> {
        // not supported
      }
    }
    throw new UnsupportedFileException(where + ": value compression "
        + e.getCompressionCase() + " for " + kind);
  }

  /**
   * Strings and binaries: Variable with flat 32- or 64-bit offsets and no buffer compression,
   * alone or under Fsst.
   */
  private static ValueCoding variableCoding(CompressiveEncoding e, String where)
      throws UnsupportedFileException, CorruptFileException {
    Optional<FsstSymbols> fsst = Optional.empty();
    CompressiveEncoding v = e;
    if (e.hasFsst()) {
      fsst = Optional.of(FsstSymbols.parse(e.getFsst().getSymbolTable().toByteArray(), where));
      v = e.getFsst().getValues();
    }
    if (v.hasVariable() && !v.getVariable().hasValues() && v.getVariable().getOffsets().hasFlat()
        && !v.getVariable().getOffsets().getFlat().hasData()) {
      long bits = v.getVariable().getOffsets().getFlat().getBitsPerValue();
      if (bits == 32 || bits == 64) {
        return new ValueCoding.Variable((int) bits, fsst);
      }
    }
    throw new UnsupportedFileException(where + ": value compression " + e.getCompressionCase()
        + (e.hasFsst() ? " over " + v.getCompressionCase() : "") + " for variable-width values "
        + "(the Java reader decodes Variable with flat 32- or 64-bit offsets, optionally under "
        + "Fsst)");
  }

  private static LevelCoding levelCoding(CompressiveEncoding e, String where)
      throws UnsupportedFileException {
    switch (e.getCompressionCase()) {
      case FLAT -> {
        if (e.getFlat().getBitsPerValue() == 16 && !e.getFlat().hasData()) {
          return new LevelCoding.Raw();
        }
      }
      case INLINE_BITPACKING -> {
        if (e.getInlineBitpacking().getUncompressedBitsPerValue() == 16
            && !e.getInlineBitpacking().hasValues()) {
          return new LevelCoding.InlineBitpacked();
        }
      }
      case OUT_OF_LINE_BITPACKING -> {
        var b = e.getOutOfLineBitpacking();
        if (b.getUncompressedBitsPerValue() == 16 && b.getValues().hasFlat()
            && !b.getValues().getFlat().hasData() && b.getValues().getFlat().getBitsPerValue() <= 16) {
          return new LevelCoding.Bitpacked((int) b.getValues().getFlat().getBitsPerValue());
        }
      }
      default -> {
        // not supported
      }
    }
    throw new UnsupportedFileException(where + ": definition level compression "
        + e.getCompressionCase());
  }

  /**
   * Decodes the column rows of pieces {@code [from[k], to[k])}, {@code k < count}, ascending
   * and apart, one after another into {@code sink} from batch row {@code at}, each page handed
   * all of its pieces at once (so a chunk several pieces fall in is decoded once).
   */
  void decode(long[] from, long[] to, int count, VectorSink sink, int at)
      throws java.io.IOException {
    long[] pageFrom = new long[count];
    long[] pageTo = new long[count];
    int out = at;
    int k = 0;
    long row = count > 0 ? from[0] : 0; // where piece k resumes (it may straddle pages)
    while (k < count) {
      int p = RowStarts.pieceOf(pageStart, row);
      long base = pageStart[p];
      long pageEnd = pageStart[p + 1];
      int m = 0;
      int rows = 0;
      while (k < count && row < pageEnd) {
        long end = Math.min(to[k], pageEnd);
        pageFrom[m] = row - base;
        pageTo[m] = end - base;
        m++;
        rows += (int) (end - row);
        if (end == to[k]) {
          k++;
          row = k < count ? from[k] : row;
        } else {
          row = end;
        }
      }
      pages.get(p).decode(pageFrom, pageTo, m, sink, out);
      out += rows;
    }
  }
}
