package dev.lancet.file.read;

import dev.lancet.file.CorruptFileException;
import dev.lancet.format.pb.Encodings21Protos.CompressionScheme;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;

/**
 * Lance's general buffer compression, decompressed in pure Java (aircompressor): zstd as
 * lance-core 7.0.0 writes it (a u64 little-endian uncompressed length, then one zstd frame; a
 * bare frame is also read) and lz4 (a u32 little-endian uncompressed length, then one lz4
 * block). Facts from upstream {@code rust/lance-encoding/src/encodings/physical/block.rs}
 * (decision 0030).
 */
final class GeneralCodec {
  private static final int ZSTD_MAGIC = 0xFD2FB528;

  private final CompressionScheme scheme;

  GeneralCodec(CompressionScheme scheme) {
    this.scheme = scheme;
  }

  CompressionScheme scheme() {
    return scheme;
  }

  /**
   * Decompresses the {@code len} bytes at {@code pos} of {@code src} into a buffer from
   * {@code scratch} (at least the decompressed size, position 0, limit the size); the
   * decompressed size may be at most {@code max} bytes.
   */
  ByteBuffer decompress(ByteBuffer src, int pos, int len, long max, Scratch scratch, String where)
      throws CorruptFileException {
    byte[] in = src.array();
    int at = src.arrayOffset() + pos;
    if (len == 0) {
      return scratch.general(0);
    }
    try {
      if (scheme == CompressionScheme.COMPRESSION_ALGORITHM_LZ4) {
        if (len < 4) {
          throw new CorruptFileException(where + ": an lz4 buffer of " + len + " bytes has no "
              + "room for its length");
        }
        long size = Integer.toUnsignedLong(src.getInt(pos));
        ByteBuffer out = target(size, max, scratch, where);
        int n = new Lz4Decompressor().decompress(in, at + 4, len - 4, out.array(), 0, (int) size);
        return finish(out, n, size, where);
      }
      boolean bare = len >= 5 && src.getInt(pos) == ZSTD_MAGIC && (src.get(pos + 4) & 0x10) == 0;
      if (bare) {
        long size = ZstdDecompressor.getDecompressedSize(in, at, len);
        if (size < 0) {
          throw new CorruptFileException(where + ": a zstd frame without its content size");
        }
        ByteBuffer out = target(size, max, scratch, where);
        int n = new ZstdDecompressor().decompress(in, at, len, out.array(), 0, (int) size);
        return finish(out, n, size, where);
      }
      if (len < 8) {
        throw new CorruptFileException(where + ": a zstd buffer of " + len + " bytes has no "
            + "room for its length");
      }
      long size = src.getLong(pos);
      ByteBuffer out = target(size, max, scratch, where);
      int n = new ZstdDecompressor().decompress(in, at + 8, len - 8, out.array(), 0, (int) size);
      return finish(out, n, size, where);
    } catch (CorruptFileException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new CorruptFileException(where + ": the " + name() + " data does not decompress: "
          + e, e);
    }
  }

  private ByteBuffer target(long size, long max, Scratch scratch, String where)
      throws CorruptFileException {
    if (size < 0 || size > max) {
      throw new CorruptFileException(where + ": " + name() + " data claims "
          + Long.toUnsignedString(size) + " bytes once decompressed, more than the " + max
          + " it can hold");
    }
    return scratch.general((int) size);
  }

  private ByteBuffer finish(ByteBuffer out, int n, long size, String where)
      throws CorruptFileException {
    if (n != size) {
      throw new CorruptFileException(where + ": " + name() + " data decompressed to " + n
          + " bytes, not the " + size + " it declares");
    }
    return out.limit(n);
  }

  private String name() {
    return scheme == CompressionScheme.COMPRESSION_ALGORITHM_LZ4 ? "lz4" : "zstd";
  }
}
