package dev.lancet.file;

import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The general-purpose buffer compressions of Lance files, decompressed in pure Java (decision
 * 0031): the framing is lance-core's, the codecs aircompressor's.
 *
 * <ul>
 *   <li>zstd: a u64 (little endian) count of decompressed bytes, then one zstd frame; buffers
 *       written before the prefix existed are a bare zstd frame (told apart by the frame
 *       magic at byte 0 with the header's reserved bit clear);
 *   <li>lz4: a u32 (little endian) count of decompressed bytes, then one raw lz4 block.
 * </ul>
 *
 * <p>Hostile input: the decompressed size is checked against what the caller expects before
 * anything is allocated; zstd output is produced incrementally and stops at that size, and an
 * lz4 block cannot claim more than 255 times its own size. Codec failures are {@link
 * CorruptFileException}s naming {@code where}.
 */
public final class BufferCodecs {
  /** A general-purpose compression scheme, as Lance names it. */
  public enum Scheme {
    ZSTD, LZ4;

    /** The scheme Lance spells {@code name} ("zstd", "lz4"), or empty for another name. */
    public static java.util.Optional<Scheme> named(String name) {
      return switch (name.toLowerCase(Locale.ROOT)) {
        case "zstd" -> java.util.Optional.of(ZSTD);
        case "lz4" -> java.util.Optional.of(LZ4);
        default -> java.util.Optional.empty();
      };
    }
  }

  private static final int ZSTD_MAGIC = 0xFD2FB528;
  /** lz4's best case: a run of one byte, 255 bytes of output per byte of input. */
  private static final int LZ4_MAX_RATIO = 255;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

  private BufferCodecs() {}

  /**
   * Decompresses {@code src[off, off + len)} compressed with {@code scheme} into a new array of
   * exactly {@code expected} bytes.
   *
   * @throws CorruptFileException when the buffer is malformed or does not decompress to
   *     {@code expected} bytes
   */
  public static byte[] decompress(Scheme scheme, byte[] src, int off, int len, long expected,
      String where) throws CorruptFileException {
    if (expected < 0 || expected > MAX_ARRAY) {
      throw new CorruptFileException(where + ": " + expected + " bytes expected from a "
          + scheme + " buffer, more than one array holds");
    }
    if (len == 0) {
      if (expected != 0) {
        throw new CorruptFileException(where + ": an empty " + scheme + " buffer, but "
            + expected + " bytes expected");
      }
      return new byte[0];
    }
    try {
      return switch (scheme) {
        case ZSTD -> zstd(src, off, len, (int) expected, where);
        case LZ4 -> lz4(src, off, len, (int) expected, where);
      };
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(where + ": the " + scheme + " buffer does not "
          + "decompress: " + e, e);
    }
  }

  private static byte[] zstd(byte[] src, int off, int len, int expected, String where)
      throws IOException {
    int frame = off;
    if (!rawZstdFrame(src, off, len)) {
      if (len < 8) {
        throw new CorruptFileException(where + ": a zstd buffer of " + len + " bytes has no "
            + "room for its 8-byte length");
      }
      long claimed = u64(src, off);
      if (claimed != expected) {
        throw new CorruptFileException(where + ": the zstd buffer says "
            + Long.toUnsignedString(claimed) + " bytes, " + expected + " expected");
      }
      frame = off + 8;
    }
    byte[] out = new byte[Math.min(expected, Math.max(4096, 4 * len))];
    int n = 0;
    try (InputStream in = new ZstdInputStream(
        new ByteArrayInputStream(src, frame, off + len - frame))) {
      while (true) {
        if (n == out.length) {
          if (n == expected) {
            if (in.read() >= 0) {
              throw new CorruptFileException(where + ": the zstd buffer holds more than the "
                  + expected + " bytes expected");
            }
            break;
          }
          out = java.util.Arrays.copyOf(out, (int) Math.min(expected, 2L * n));
        }
        int r = in.read(out, n, out.length - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
    }
    if (n != expected) {
      throw new CorruptFileException(where + ": the zstd buffer holds " + n + " bytes, "
          + expected + " expected");
    }
    return out;
  }

  /** Whether the buffer is a bare zstd frame (no length prefix), as lance-core tells. */
  private static boolean rawZstdFrame(byte[] src, int off, int len) {
    if (len < 8) {
      return true;
    }
    int magic = (src[off] & 0xFF) | (src[off + 1] & 0xFF) << 8 | (src[off + 2] & 0xFF) << 16
        | (src[off + 3] & 0xFF) << 24;
    return magic == ZSTD_MAGIC && (src[off + 4] & 0x10) == 0;
  }

  private static byte[] lz4(byte[] src, int off, int len, int expected, String where)
      throws CorruptFileException {
    if (len < 4) {
      throw new CorruptFileException(where + ": an lz4 buffer of " + len + " bytes has no room "
          + "for its 4-byte length");
    }
    long claimed = Integer.toUnsignedLong((src[off] & 0xFF) | (src[off + 1] & 0xFF) << 8
        | (src[off + 2] & 0xFF) << 16 | (src[off + 3] & 0xFF) << 24);
    if (claimed != expected) {
      throw new CorruptFileException(where + ": the lz4 buffer says " + claimed + " bytes, "
          + expected + " expected");
    }
    if (claimed > (long) LZ4_MAX_RATIO * len + 64) {
      throw new CorruptFileException(where + ": an lz4 block of " + len + " bytes cannot hold "
          + claimed + " bytes");
    }
    byte[] out = new byte[expected];
    int n = new Lz4Decompressor().decompress(src, off + 4, len - 4, out, 0, expected);
    if (n != expected) {
      throw new CorruptFileException(where + ": the lz4 buffer holds " + n + " bytes, "
          + expected + " expected");
    }
    return out;
  }

  private static long u64(byte[] b, int at) {
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = v << 8 | (b[at + i] & 0xFF);
    }
    return v;
  }
}
