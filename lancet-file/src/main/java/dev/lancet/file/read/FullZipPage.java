package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A 2.1 full-zip page without repetition (upstream {@code rust/lance-encoding/src/encodings/
 * logical/primitive.rs}, FullZipScheduler and its fixed and variable decoders;
 * protos/encodings_v2_1.proto, FullZipLayout): values too large for mini-blocks, each item's
 * control word (its definition level, {@code ctrlBytes} little-endian bytes, none without
 * levels) followed by its value. Page buffer 0 holds the items back to back.
 *
 * <ul>
 *   <li>Fixed width: every item is the control word, the validity bits of a fixed-size list's
 *       items ({@code validityBytes}, when it has them) and {@code valueBytes} bytes (a null item
 *       too), so row {@code r} is at {@code r} times their sum.</li>
 *   <li>Variable width: a valid item is the control word, its length ({@code lengthBytes}) and
 *       its bytes (each value compressed on its own when {@code codec} is present, then FSST
 *       when {@code fsst} is); a null item
 *       is the control word alone. Page buffer 1, the repetition index, holds rows + 1 byte
 *       positions (1, 2, 4 or 8 bytes each) of each row's first item in buffer 0.</li>
 * </ul>
 */
final class FullZipPage implements PageDecoder {
  /** A read of items stops growing at this many bytes (one row is read whatever its size). */
  private static final long WINDOW_BYTES = 1 << 20;
  /** The largest single value a variable-width page may hold once decompressed. */
  private static final long MAX_VALUE_BYTES = 1L << 30;

  private final LanceFile file;
  private final String where;
  private final long numRows;
  private final long dataPos;
  private final long dataSize;
  private final int ctrlBytes;
  private final int defMask;
  private final int[] cmp;
  private final int maxLevel;
  /** Fixed width: bytes per value; variable width: 0. */
  private final int valueBytes;
  /**
   * Fixed width: bytes of item validity before each value (a fixed-size list's items); -1 for
   * a fixed-size list whose items are all null (no item bytes at all).
   */
  private final int validityBytes;
  private final boolean itemsAllNull;
  private final int lengthBytes;
  private final Optional<GeneralCodec> codec;
  private final Optional<FsstSymbols> fsst;
  private final long repPos;
  private final int repBytes;
  /** The values of a run gathered before they are put (kept for the next run). */
  private byte[] fullZipBytes = new byte[0];

  FullZipPage(LanceFile file, String where, long numRows, long dataPos, long dataSize,
      int bitsDef, int[] cmp, int valueBytes, int validityBytes, int lengthBytes,
      Optional<GeneralCodec> codec,
      Optional<FsstSymbols> fsst, long repPos, long repSize) throws CorruptFileException {
    this.file = file;
    this.where = where;
    this.numRows = numRows;
    this.dataPos = dataPos;
    this.dataSize = dataSize;
    this.ctrlBytes = bitsDef == 0 ? 0 : bitsDef <= 8 ? 1 : bitsDef <= 16 ? 2 : 4;
    this.defMask = bitsDef >= 16 ? 0xFFFF : (1 << bitsDef) - 1;
    this.cmp = cmp;
    int max = 0;
    for (int c : cmp) {
      max = Math.max(max, c + 1);
    }
    this.maxLevel = max;
    this.valueBytes = valueBytes;
    this.itemsAllNull = validityBytes < 0;
    this.validityBytes = Math.max(0, validityBytes);
    this.lengthBytes = lengthBytes;
    this.codec = codec;
    this.fsst = fsst;
    this.repPos = repPos;
    if (valueBytes > 0) {
      this.repBytes = 0;
      long stride = ctrlBytes + (itemsAllNull ? 0 : (long) this.validityBytes + valueBytes);
      if (dataSize < stride * numRows) {
        throw new CorruptFileException(where + ": " + numRows + " items of " + stride
            + " bytes need " + stride * numRows + " bytes, the page buffer has " + dataSize);
      }
    } else {
      long entries = numRows + 1;
      long per = repSize / entries;
      if (repSize % entries != 0 || per != 1 && per != 2 && per != 4 && per != 8) {
        throw new CorruptFileException(where + ": a repetition index of " + repSize
            + " bytes for " + numRows + " rows (1, 2, 4 or 8 bytes for each row and one more)");
      }
      this.repBytes = (int) per;
    }
  }

  @Override
  public long numRows() {
    return numRows;
  }

  /** Where the items and the repetition index lie (the index at 0 for fixed width); for tests. */
  long dataPos() {
    return dataPos;
  }

  long repPos() {
    return repPos;
  }

  /** How the page's values are held, for the tests' coverage check. */
  String describe() {
    return "FullZip(" + (valueBytes > 0 ? "fixed " + valueBytes * 8 : "variable "
        + lengthBytes * 8 + codec.map(c -> " " + c.scheme()).orElse("")
        + (fsst.isPresent() ? " Fsst" : "")) + ", def bytes "
        + ctrlBytes + ")";
  }

  @Override
  public void decode(long[] from, long[] to, int count, VectorSink sink, int at)
      throws IOException {
    synchronized (file) {
      int out = at;
      for (int k = 0; k < count; k++) {
        long a = from[k];
        while (a < to[k]) {
          int rows = valueBytes > 0 ? fixedRun(a, to[k], sink, out) : variableRun(a, to[k], sink,
              out);
          a += rows;
          out += rows;
        }
      }
    }
  }

  private int level(ByteBuffer w, int p) {
    return switch (ctrlBytes) {
      case 0 -> 0;
      case 1 -> Byte.toUnsignedInt(w.get(p)) & defMask;
      case 2 -> Short.toUnsignedInt(w.getShort(p)) & defMask;
      default -> w.getInt(p) & defMask;
    };
  }

  private void validity(VectorSink sink, int row, int def, String what)
      throws CorruptFileException {
    if (def > maxLevel) {
      throw new CorruptFileException(what + ": definition level " + def + " (the page's layers "
          + "have levels 0 to " + maxLevel + ")");
    }
    if (cmp.length == 1 && sink.layers() == 1) {
      sink.setValidity(row, def == 0);
    } else {
      sink.setLevels(row, def, cmp);
    }
  }

  /** Decodes page rows from {@code a} (at most to {@code b}) to batch row {@code out}. */
  private int fixedRun(long a, long b, VectorSink sink, int out) throws IOException {
    int stride = ctrlBytes + (itemsAllNull ? 0 : validityBytes + valueBytes);
    if (itemsAllNull) {
      return allNullItemsRun(a, b, sink, out, stride);
    }
    long rows = Math.max(1, Math.min(b - a, WINDOW_BYTES / stride));
    Scratch scratch = file.scratch();
    ByteBuffer w = scratch.window((int) (rows * stride));
    file.readFully(dataPos + a * stride, w);
    int n = (int) rows;
    if (ctrlBytes == 0 && validityBytes == 0) {
      sink.putRaw(w, 0, n, out);
      sink.setItemValidity(null, -1, 0, n, out);
      sink.setValid(out, n);
      return n;
    }
    for (int i = 0; i < n; i++) {
      int p = i * stride;
      sink.putRaw(w, p + ctrlBytes + validityBytes, 1, out + i);
      sink.setItemValidity(w, validityBytes > 0 ? p + ctrlBytes : -1, 0, 1, out + i);
      if (ctrlBytes == 0) {
        sink.setValid(out + i, 1);
      } else {
        validity(sink, out + i, level(w, p), where + ", row " + (a + i));
      }
    }
    return n;
  }

  /** Rows of a list whose items are all null: only the rows' own validity is stored. */
  private int allNullItemsRun(long a, long b, VectorSink sink, int out, int stride)
      throws IOException {
    int n = (int) Math.min(b - a, 1 << 16);
    if (stride == 0) {
      sink.setValid(out, n);
      return n;
    }
    ByteBuffer w = file.scratch().window(n * stride);
    file.readFully(dataPos + a * stride, w);
    for (int i = 0; i < n; i++) {
      validity(sink, out + i, level(w, i * stride), where + ", row " + (a + i));
    }
    return n;
  }

  private long repEntry(ByteBuffer r, int i) {
    return switch (repBytes) {
      case 1 -> Byte.toUnsignedLong(r.get(i));
      case 2 -> Short.toUnsignedLong(r.getShort(2 * i));
      case 4 -> Integer.toUnsignedLong(r.getInt(4 * i));
      default -> r.getLong(8 * i);
    };
  }

  /** Decodes page rows from {@code a} (at most to {@code b}) to batch row {@code out}. */
  private int variableRun(long a, long b, VectorSink sink, int out) throws IOException {
    // The repetition index entries of rows a..b (and the one after), then the run's bytes.
    int entries = (int) Math.min(b - a, 4096) + 1;
    ByteBuffer r = file.read(repPos + a * repBytes, entries * repBytes);
    long start = repEntry(r, 0);
    int n = 0;
    long end = start;
    while (n < entries - 1) {
      long e = repEntry(r, n + 1);
      if (e < end || e > dataSize) {
        throw new CorruptFileException(where + ", row " + (a + n) + ": the repetition index "
            + "puts it at bytes " + end + ".." + e + " of a " + dataSize + "-byte page buffer");
      }
      if (n > 0 && e - start > WINDOW_BYTES) {
        break;
      }
      end = e;
      n++;
    }
    if (end - start > Integer.MAX_VALUE - 16) {
      throw new CorruptFileException(where + ", row " + a + ": " + (end - start) + " bytes, "
          + "more than one read takes");
    }
    Scratch scratch = file.scratch();
    ByteBuffer w = scratch.window((int) (end - start));
    file.readFully(dataPos + start, w);
    // Values are gathered into one array, then put with one copy.
    int[] ends = sink.ends(n);
    int filled = 0;
    byte[] acc = fullZipBytes;
    int p = 0;
    for (int i = 0; i < n; i++) {
      String row = where + ", row " + (a + i);
      int rowEnd = (int) (repEntry(r, i + 1) - start);
      if (p + ctrlBytes > rowEnd) {
        throw new CorruptFileException(row + ": its " + (rowEnd - p) + " bytes cannot hold its "
            + "control word");
      }
      int def = level(w, p);
      p += ctrlBytes;
      validity(sink, out + i, def, row);
      if (def == 0) {
        if (p + lengthBytes > rowEnd) {
          throw new CorruptFileException(row + ": no room for its length");
        }
        long len = lengthBytes == 4 ? Integer.toUnsignedLong(w.getInt(p)) : w.getLong(p);
        p += lengthBytes;
        if (len < 0 || len > rowEnd - p) {
          throw new CorruptFileException(row + ": a value of " + Long.toUnsignedString(len)
              + " bytes in the row's " + (rowEnd - p) + " remaining bytes");
        }
        ByteBuffer src = w;
        int srcPos = p;
        int srcLen = (int) len;
        if (codec.isPresent()) {
          src = codec.get().decompress(w, p, (int) len, MAX_VALUE_BYTES, scratch, row);
          srcPos = 0;
          srcLen = src.limit();
        }
        long room = fsst.isPresent() ? (long) fsst.get().maxDecoded(srcLen) + FsstSymbols.SLACK
            : srcLen;
        if (filled + room > Integer.MAX_VALUE - 16) {
          throw new IllegalArgumentException(row + ": a batch part of more than 2 GiB: read "
              + "with a smaller batch size");
        }
        if (acc.length < filled + room) {
          byte[] grown = new byte[(int) Math.min(Integer.MAX_VALUE - 16,
              Math.max(filled + room, 2L * acc.length))];
          System.arraycopy(acc, 0, grown, 0, filled);
          acc = grown;
        }
        if (fsst.isPresent()) {
          filled = fsst.get().decode(src.array(), src.arrayOffset() + srcPos, srcLen, acc, filled,
              row);
        } else {
          src.get(srcPos, acc, filled, srcLen);
          filled += srcLen;
        }
        p += (int) len;
      }
      if (p != rowEnd) {
        throw new CorruptFileException(row + ": its item ends at byte " + p + " of the run, "
            + "the repetition index says " + rowEnd);
      }
      ends[i] = filled;
    }
    fullZipBytes = acc.length <= 4 << 20 ? acc : new byte[0]; // a run of huge values is not kept
    sink.putVariable(acc, 0, ends, n, out);
    return n;
  }
}
