package dev.lancet.file.read.v20;

import dev.lancet.file.CorruptFileException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.arrow.memory.ArrowBuf;

/**
 * The bytes of one open 2.0 file: positional reads, each checked to lie inside the data region
 * (everything before the column metadata) or the whole file.
 */
final class Source {
  private final Path path;
  private final FileChannel channel;
  private final long size;
  private long dataEnd;

  Source(Path path, FileChannel channel) throws IOException {
    this.path = path;
    this.channel = channel;
    this.size = channel.size();
    this.dataEnd = size;
  }

  Path path() {
    return path;
  }

  long size() {
    return size;
  }

  /** Where the data region ends (the column metadata's start). */
  long dataEnd() {
    return dataEnd;
  }

  void dataEnd(long end) {
    this.dataEnd = end;
  }

  /**
   * Checks that {@code [pos, pos + len)} lies inside {@code [lo, hi)} and is small enough to be
   * read into one buffer.
   */
  static void checkRegion(long pos, long len, long lo, long hi, String what)
      throws CorruptFileException {
    if (pos < lo || len < 0 || pos > hi || len > hi - pos) {
      throw new CorruptFileException(what + " at " + Long.toUnsignedString(pos) + " ("
          + Long.toUnsignedString(len) + " bytes) lies outside [" + lo + ", " + hi + ")");
    }
    if (len > Integer.MAX_VALUE - 16) {
      throw new CorruptFileException(what + " is " + len + " bytes, more than one read takes");
    }
  }

  /** Reads exactly {@code len} bytes at {@code pos} (little endian, positioned at 0). */
  ByteBuffer read(long pos, int len) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
    fill(pos, b);
    return b.flip();
  }

  /** Reads {@code len} bytes at {@code pos} into {@code into} from byte {@code at}. */
  void read(long pos, byte[] into, int at, int len) throws IOException {
    fill(pos, ByteBuffer.wrap(into, at, len));
  }

  /** Reads {@code len} bytes at {@code pos} straight into Arrow memory at {@code at}. */
  void read(long pos, ArrowBuf into, long at, long len) throws IOException {
    long done = 0;
    while (done < len) {
      int step = (int) Math.min(len - done, 1 << 30);
      fill(pos + done, into.nioBuffer(at + done, step));
      done += step;
    }
  }

  private void fill(long pos, ByteBuffer into) throws IOException {
    long at = pos;
    int want = into.remaining();
    while (into.hasRemaining()) {
      int n = channel.read(into, at);
      if (n < 0) {
        throw new EOFException(path + ": the file ends at " + at + " while reading " + want
            + " bytes at " + pos);
      }
      at += n;
    }
  }

  void close() throws IOException {
    channel.close();
  }
}
