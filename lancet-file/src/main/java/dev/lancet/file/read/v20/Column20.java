package dev.lancet.file.read.v20;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;
import dev.lancet.format.pb.Encodings20Protos.ArrayEncoding;
import dev.lancet.format.pb.Encodings20Protos.ColumnEncoding;
import dev.lancet.format.pb.File2Protos.ColumnMetadata;
import java.util.List;

/**
 * One column of a 2.0 file: its column encoding, and its pages (row counts, buffers checked to
 * lie in the data region, encodings parsed). The pages' rows are the column's values: the
 * file's rows for a top-level column, items for a list's items.
 */
final class Column20 {
  static final String ARRAY_ENCODING = "/lance.encodings.ArrayEncoding";
  static final String COLUMN_ENCODING = "/lance.encodings.ColumnEncoding";

  final int index;
  final String where;
  final ColumnEncoding encoding;
  final ArrayEncoding[] pageEncodings;
  final PageBuffers[] pageBuffers;
  /** pageStart[p]: the column's value where page p starts; the last entry is the total. */
  final long[] pageStart;

  private Column20(int index, String where, ColumnEncoding encoding,
      ArrayEncoding[] pageEncodings, PageBuffers[] pageBuffers, long[] pageStart) {
    this.index = index;
    this.where = where;
    this.encoding = encoding;
    this.pageEncodings = pageEncodings;
    this.pageBuffers = pageBuffers;
    this.pageStart = pageStart;
  }

  static Column20 of(int index, String where, ColumnMetadata meta, long dataEnd,
      long[] filePos, long[] fileLen) throws CorruptFileException, UnsupportedFileException {
    long[][] col = buffers(meta.getBufferOffsetsList(), meta.getBufferSizesList(), dataEnd,
        where + ": column buffer");
    ColumnEncoding ce = ColumnEncoding.getDefaultInstance();
    if (meta.hasEncoding()) {
      if (!meta.getEncoding().hasDirect()) {
        throw new UnsupportedFileException(where + ": a deferred column encoding");
      }
      var any = meta.getEncoding().getDirect().getEncoding();
      if (!any.getTypeUrl().equals(COLUMN_ENCODING)) {
        throw new CorruptFileException(where + ": column encoding " + any.getTypeUrl());
      }
      try {
        ce = ColumnEncoding.parseFrom(any.getValue());
      } catch (InvalidProtocolBufferException e) {
        throw new CorruptFileException(where + ": the column encoding does not parse: "
            + e.getMessage(), e);
      }
    }
    int n = meta.getPagesCount();
    ArrayEncoding[] encodings = new ArrayEncoding[n];
    PageBuffers[] bufs = new PageBuffers[n];
    long[] starts = new long[n + 1];
    for (int p = 0; p < n; p++) {
      ColumnMetadata.Page page = meta.getPages(p);
      String pw = where + ", page " + p;
      long[][] pb = buffers(page.getBufferOffsetsList(), page.getBufferSizesList(), dataEnd,
          pw + ": buffer");
      bufs[p] = new PageBuffers(pb[0], pb[1], col[0], col[1], filePos, fileLen);
      long rows = page.getLength();
      if (rows < 0 || starts[p] + rows < 0) {
        throw new CorruptFileException(pw + ": " + Long.toUnsignedString(rows) + " rows");
      }
      starts[p + 1] = starts[p] + rows;
      if (!page.hasEncoding() || !page.getEncoding().hasDirect()) {
        throw new UnsupportedFileException(pw + ": the page encoding is not inline");
      }
      var any = page.getEncoding().getDirect().getEncoding();
      if (!any.getTypeUrl().equals(ARRAY_ENCODING)) {
        throw new CorruptFileException(pw + ": page encoding " + any.getTypeUrl()
            + " in a 2.0 file");
      }
      try {
        encodings[p] = ArrayEncoding.parseFrom(any.getValue());
      } catch (InvalidProtocolBufferException e) {
        throw new CorruptFileException(pw + ": the page encoding does not parse: "
            + e.getMessage(), e);
      } catch (RuntimeException e) {
        throw new CorruptFileException(pw + ": the page encoding does not parse: " + e, e);
      }
    }
    return new Column20(index, where, ce, encodings, bufs, starts);
  }

  private static long[][] buffers(List<Long> offsets, List<Long> sizes, long end, String what)
      throws CorruptFileException {
    if (offsets.size() != sizes.size()) {
      throw new CorruptFileException(what + "s: " + offsets.size() + " offsets but "
          + sizes.size() + " sizes");
    }
    long[][] out = new long[2][offsets.size()];
    for (int i = 0; i < offsets.size(); i++) {
      Source.checkRegion(offsets.get(i), sizes.get(i), 0, end, what + " " + i);
      out[0][i] = offsets.get(i);
      out[1][i] = sizes.get(i);
    }
    return out;
  }

  int numPages() {
    return pageEncodings.length;
  }

  long numValues() {
    return pageStart[pageStart.length - 1];
  }

  /** The page holding value {@code v} (which is below {@link #numValues}). */
  int pageOf(long v) {
    int lo = 0;
    int hi = numPages() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (pageStart[mid] <= v) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  String pageWhere(int p) {
    return where + ", page " + p;
  }
}
