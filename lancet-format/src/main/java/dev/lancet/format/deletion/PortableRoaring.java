package dev.lancet.format.deletion;

import org.roaringbitmap.RoaringBitmap;

/**
 * Portable 32-bit Roaring bitmaps embedded in other messages (overlay coverage, relocated
 * rows): the same validated reader and writer as the {@code .bin} deletion files, so a
 * malformed bitmap is a clean error naming where it came from, never a broken bitmap.
 */
public final class PortableRoaring {
  private PortableRoaring() {}

  /** Decodes {@code bytes}; {@code where} names the field in errors. */
  public static RoaringBitmap read(byte[] bytes, String where) {
    return RoaringDeletionCodec.read(bytes, where).toBitmap();
  }

  public static byte[] write(RoaringBitmap bitmap) {
    return RoaringDeletionCodec.write(DeletionVector.adopt(bitmap.clone()));
  }
}
