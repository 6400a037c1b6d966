package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The FSST symbol table of a page's {@code Fsst} value compression, as Lance's fsst crate
 * exports it (upstream {@code rust/compression/fsst/src/fsst.rs}, FsstEncoder::export and
 * FsstDecoder::init), and the decoding of values compressed with it.
 *
 * <p>Layout, little endian: a u64 header whose upper 32 bits are "FSST" (0x46535354), bit 24
 * whether the values are compressed at all (the crate stores inputs too small to train on as
 * they are) and bits 0-7 the number of symbols n; then n u64 symbols (a symbol's first byte is
 * the word's lowest); then n symbol lengths of one byte each (1 to 8). In a compressed value,
 * byte 255 is an escape (the byte after it stands for itself) and any other byte is the index
 * of the symbol it stands for.
 */
public final class FsstSymbols {
  private static final long MAGIC = 0x46535354L << 32;
  private static final int ESCAPE = 255;

  private final boolean compressed;
  private final long[] symbols;
  private final byte[] lengths;

  private FsstSymbols(boolean compressed, long[] symbols, byte[] lengths) {
    this.compressed = compressed;
    this.symbols = symbols;
    this.lengths = lengths;
  }

  public static FsstSymbols parse(byte[] table, String where) throws CorruptFileException {
    if (table.length < 8) {
      throw new CorruptFileException(where + ": the FSST symbol table has " + table.length
          + " bytes, fewer than its 8-byte header");
    }
    ByteBuffer b = ByteBuffer.wrap(table).order(ByteOrder.LITTLE_ENDIAN);
    long header = b.getLong(0);
    if ((header & MAGIC) != MAGIC) {
      throw new CorruptFileException(where + ": the FSST symbol table does not start with the "
          + "FSST magic");
    }
    int n = (int) (header & 0xFF);
    if (table.length < 8 + 9 * n) {
      throw new CorruptFileException(where + ": the FSST symbol table names " + n
          + " symbols but has " + table.length + " bytes (they need " + (8 + 9 * n) + ")");
    }
    long[] symbols = new long[n];
    byte[] lengths = new byte[n];
    for (int i = 0; i < n; i++) {
      symbols[i] = b.getLong(8 + 8 * i);
      lengths[i] = table[8 + 8 * n + i];
      if (lengths[i] < 1 || lengths[i] > 8) {
        throw new CorruptFileException(where + ": FSST symbol " + i + " has length "
            + lengths[i] + " (a symbol is 1 to 8 bytes)");
      }
    }
    return new FsstSymbols((header & (1L << 24)) != 0, symbols, lengths);
  }

  /** Bytes past the decoded ones that {@link #decode} may write to (a symbol is stored whole). */
  public static final int SLACK = 8;

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The most bytes {@code n} compressed bytes decode to. */
  public int maxDecoded(int n) {
    return compressed ? Math.multiplyExact(n, 8) : n;
  }

  /**
   * Decodes the {@code len} bytes at {@code pos} of {@code src} into {@code out} from
   * {@code at}, which has room for {@link #maxDecoded} bytes and {@link #SLACK} more; returns
   * the position after the last decoded byte.
   */
  public int decode(byte[] src, int pos, int len, byte[] out, int at, String where)
      throws CorruptFileException {
    if (!compressed) {
      System.arraycopy(src, pos, out, at, len);
      return at + len;
    }
    int o = at;
    int end = pos + len;
    for (int i = pos; i < end; ) {
      int code = src[i++] & 0xFF;
      if (code < symbols.length) {
        // All eight bytes of the symbol written, the position moved by its length.
        LONG_LE.set(out, o, symbols[code]);
        o += lengths[code];
      } else if (code == ESCAPE) {
        if (i == end) {
          throw new CorruptFileException(where + ": a value ends in an FSST escape with no "
              + "byte after it");
        }
        out[o++] = src[i++];
      } else {
        throw new CorruptFileException(where + ": FSST code " + code + " names no symbol (the "
            + "table has " + symbols.length + ")");
      }
    }
    return o;
  }
}
