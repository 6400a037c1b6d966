package dev.lancet.file.read;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where the reader's bytes come from: every byte the Java reader reads goes through
 * {@link #readFully}, so a source that serves ranged reads from an object store can stand in for
 * the local file (decision 0030).
 */
interface ByteSource extends Closeable {
  /** The source's length in bytes. */
  long size() throws IOException;

  /** Fills {@code into} (from its position to its limit) with the bytes from {@code pos}. */
  void readFully(long pos, ByteBuffer into) throws IOException;

  /** A local file read with positional reads. */
  static ByteSource of(Path path) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    return new ByteSource() {
      @Override
      public long size() throws IOException {
        return channel.size();
      }

      @Override
      public void readFully(long pos, ByteBuffer into) throws IOException {
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

      @Override
      public void close() throws IOException {
        channel.close();
      }
    };
  }
}
