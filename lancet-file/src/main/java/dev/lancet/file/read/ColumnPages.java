package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.pb.Encodings21Protos.CompressiveEncoding;
import dev.lancet.format.pb.Encodings21Protos.ConstantLayout;
import dev.lancet.format.pb.Encodings21Protos.MiniBlockLayout;
import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import dev.lancet.format.pb.Encodings21Protos.RepDefLayer;
import dev.lancet.format.pb.File2Protos.ColumnMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

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

  static ColumnPages of(LanceFile file, ColumnMetadata meta, Field field, long numRows,
      String where) throws CorruptFileException {
    long dataEnd = file.footer().columnMetadataStart();
    checkBuffers(meta.getBufferOffsetsList(), meta.getBufferSizesList(), dataEnd, where);
    String reason = null;
    int bits = valueBits(field.getType());
    if (bits < 0 && !variableWidth(field.getType())) {
      reason = where + ": type " + field.getType() + " is not a type the Java reader decodes";
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
        pages.add(decoderOf(file, page, rows, bits, pageWhere));
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
      int bits, String where) throws CorruptFileException, UnsupportedFileException {
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
      case MINI_BLOCK_LAYOUT -> miniBlock(file, page, rows, bits, layout.getMiniBlockLayout(),
          where);
      case CONSTANT_LAYOUT -> constant(page, rows, layout.getConstantLayout(), where);
      default -> throw new UnsupportedFileException(where + ": layout "
          + layout.getLayoutCase());
    };
  }

  private static PageDecoder constant(ColumnMetadata.Page page, long rows, ConstantLayout c,
      String where) throws UnsupportedFileException {
    if (c.getLayersList().equals(List.of(RepDefLayer.REPDEF_NULLABLE_ITEM))
        && !c.hasInlineValue() && !c.hasRepCompression() && !c.hasDefCompression()
        && page.getBufferOffsetsCount() == 0) {
      return new AllNullPage(rows);
    }
    throw new UnsupportedFileException(where + ": a constant layout other than all-null");
  }

  private static PageDecoder miniBlock(LanceFile file, ColumnMetadata.Page page, long rows,
      int bits, MiniBlockLayout m, String where)
      throws CorruptFileException, UnsupportedFileException {
    if (m.hasRepCompression() || m.hasDictionary() || m.getRepetitionIndexDepth() != 0
        || m.getHasLargeChunk() || m.getNumBuffers() != 1) {
      throw new UnsupportedFileException(where + ": a mini-block page with repetition, a "
          + "dictionary, large chunks or " + m.getNumBuffers() + " value buffers");
    }
    ValueCoding values = valueCoding(m.getValueCompression(), bits, where);
    LevelCoding levels;
    if (m.getLayersList().equals(List.of(RepDefLayer.REPDEF_ALL_VALID_ITEM))
        && !m.hasDefCompression()) {
      levels = LevelCoding.NONE;
    } else if (m.getLayersList().equals(List.of(RepDefLayer.REPDEF_NULLABLE_ITEM))
        && m.hasDefCompression()) {
      levels = levelCoding(m.getDefCompression(), where);
    } else {
      throw new UnsupportedFileException(where + ": layers " + m.getLayersList());
    }
    if (m.getNumItems() != rows) {
      throw new CorruptFileException(where + ": " + m.getNumItems() + " items in a page of "
          + rows + " rows without repetition");
    }
    if (page.getBufferOffsetsCount() != 2) {
      throw new CorruptFileException(where + ": a mini-block page has 2 buffers (chunk "
          + "metadata, chunks), not " + page.getBufferOffsetsCount());
    }
    return new MiniBlockPage(file, where, rows, page.getBufferOffsets(0), page.getBufferSizes(0),
        page.getBufferOffsets(1), page.getBufferSizes(1), values, levels);
  }

  private static ValueCoding valueCoding(CompressiveEncoding e, int bits, String where)
      throws UnsupportedFileException, CorruptFileException {
    if (bits < 0) {
      return variableCoding(e, where);
    }
    switch (e.getCompressionCase()) {
      case FLAT -> {
        if (e.getFlat().getBitsPerValue() == bits && !e.getFlat().hasData()) {
          return new ValueCoding.Flat(bits);
        }
      }
      case INLINE_BITPACKING -> {
        if (e.getInlineBitpacking().getUncompressedBitsPerValue() == bits && bits >= 8
            && !e.getInlineBitpacking().hasValues()) {
          return new ValueCoding.InlineBitpacked(bits);
        }
      }
      default -> {
        // not supported
      }
    }
    throw new UnsupportedFileException(where + ": value compression "
        + e.getCompressionCase() + " for " + bits + "-bit values");
  }

  /**
   * Strings and binaries: Variable with flat 32-bit offsets and no buffer compression, alone or
   * under Fsst (what lance-core 7.0.0 writes for a 2.1 mini-block page of them).
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
        && v.getVariable().getOffsets().getFlat().getBitsPerValue() == 32
        && !v.getVariable().getOffsets().getFlat().hasData()) {
      return new ValueCoding.Variable(fsst);
    }
    throw new UnsupportedFileException(where + ": value compression " + e.getCompressionCase()
        + (e.hasFsst() ? " over " + v.getCompressionCase() : "") + " for variable-width values "
        + "(the Java reader decodes Variable with flat 32-bit offsets, optionally under Fsst)");
  }

  /** Whether {@code t} is a variable-width type with 32-bit offsets the Java reader decodes. */
  static boolean variableWidth(ArrowType t) {
    return t.getTypeID() == ArrowType.ArrowTypeID.Utf8
        || t.getTypeID() == ArrowType.ArrowTypeID.Binary;
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

  /** Bits per value of a fixed-width Arrow type the Java reader decodes, or -1. */
  static int valueBits(ArrowType t) {
    return switch (t.getTypeID()) {
      case Bool -> 1;
      case Int -> ((ArrowType.Int) t).getBitWidth();
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) t).getPrecision()) {
        case SINGLE -> 32;
        case DOUBLE -> 64;
        default -> -1;
      };
      case Date -> ((ArrowType.Date) t).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
          ? 32 : 64;
      case Time -> ((ArrowType.Time) t).getBitWidth();
      case Timestamp, Duration -> 64;
      default -> -1;
    };
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
