package dev.lancet.file.read;

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
}
