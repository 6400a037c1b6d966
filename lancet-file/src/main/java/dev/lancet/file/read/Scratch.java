package dev.lancet.file.read;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The buffers one open file decodes with, shared by all its pages (so an open file keeps one
 * window of chunk bytes, never one per page). Used under the file's lock.
 */
final class Scratch {
  /** The most value buffers a mini-block chunk may have. */
  static final int MAX_BUFFERS = 8;

  final long[] packed = new long[FastLanes.BLOCK];
  final long[] unpacked = new long[FastLanes.BLOCK];
  final ChunkBuffers chunk = new ChunkBuffers(MAX_BUFFERS);
  final ChunkBuffers inner = new ChunkBuffers(MAX_BUFFERS);
  int[] levels = new int[FastLanes.BLOCK];
  private long[] longs = new long[FastLanes.BLOCK];
  private ByteBuffer window = ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
  private ByteBuffer general = ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);

  /** A little-endian buffer of exactly {@code len} bytes (position 0), reused when it fits. */
  ByteBuffer window(int len) {
    window = fit(window, len);
    return window;
  }

  /** A second reusable buffer, for decompressed bytes. */
  ByteBuffer general(int len) {
    general = fit(general, len);
    return general;
  }

  private static ByteBuffer fit(ByteBuffer b, int len) {
    ByteBuffer out = b;
    if (out.capacity() < len) {
      int grown = (int) Math.min(Integer.MAX_VALUE - 16, 2L * out.capacity());
      out = ByteBuffer.allocate(Math.max(len, grown)).order(ByteOrder.LITTLE_ENDIAN);
    }
    out.clear().limit(len);
    return out;
  }

  private int[] partStarts = new int[64];
  private int[] partEnds = new int[64];

  /** Where the parts of pieces in one chunk start (chunk rows), for at least {@code n} parts. */
  int[] partStarts(int n) {
    if (partStarts.length < n) {
      partStarts = new int[n];
    }
    return partStarts;
  }

  /** Where the parts of pieces in one chunk end, for at least {@code n} parts. */
  int[] partEnds(int n) {
    if (partEnds.length < n) {
      partEnds = new int[n];
    }
    return partEnds;
  }

  int[] levels(int n) {
    if (levels.length < n) {
      levels = new int[n];
    }
    return levels;
  }

  long[] longs(int n) {
    if (longs.length < n) {
      longs = new long[n];
    }
    return longs;
  }
}
