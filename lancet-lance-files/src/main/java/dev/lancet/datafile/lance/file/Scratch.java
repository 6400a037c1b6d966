package dev.lancet.datafile.lance.file;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The buffers one open file decodes with, shared by all its pages (so an open file keeps one
 * window of chunk bytes, never one per page). Used under the file's lock.
 */
final class Scratch {
  final long[] packed = new long[FastLanes.BLOCK];
  final long[] unpacked = new long[FastLanes.BLOCK];
  int[] levels = new int[FastLanes.BLOCK];
  private ByteBuffer window = ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);

  /** A little-endian buffer of exactly {@code len} bytes (position 0), reused when it fits. */
  ByteBuffer window(int len) {
    if (window.capacity() < len) {
      int grown = (int) Math.min(Integer.MAX_VALUE - 16, 2L * window.capacity());
      window = ByteBuffer.allocate(Math.max(len, grown)).order(ByteOrder.LITTLE_ENDIAN);
    }
    window.clear().limit(len);
    return window;
  }

  int[] levels(int n) {
    if (levels.length < n) {
      levels = new int[n];
    }
    return levels;
  }
}
