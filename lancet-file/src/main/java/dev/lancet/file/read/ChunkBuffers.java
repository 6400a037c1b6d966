package dev.lancet.file.read;

import java.nio.ByteBuffer;

/**
 * The value buffers of one mini-block chunk: buffer {@code i} is the {@code size[i]} bytes at
 * {@code pos[i]} of {@code buf[i]} (the chunk's window, or a decompressed copy).
 */
final class ChunkBuffers {
  final ByteBuffer[] buf;
  final int[] pos;
  final int[] size;
  int count;

  ChunkBuffers(int capacity) {
    buf = new ByteBuffer[capacity];
    pos = new int[capacity];
    size = new int[capacity];
  }

  void set(int i, ByteBuffer b, int p, int s) {
    buf[i] = b;
    pos[i] = p;
    size[i] = s;
  }

  /** A copy of these buffers into {@code into} (for a coding that replaces one of them). */
  ChunkBuffers copyTo(ChunkBuffers into) {
    for (int i = 0; i < count; i++) {
      into.set(i, buf[i], pos[i], size[i]);
    }
    into.count = count;
    return into;
  }
}
