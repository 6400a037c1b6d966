package dev.lancet.core.store;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A new object written as a stream of bytes in order, such as a data file: nothing is visible
 * at its path until {@link #complete()} returns, and then all of it is, as durable as the
 * store's other writes. {@link #abort()}, or {@link #close()} before {@code complete}, leaves
 * nothing visible behind (a store may leave an invisible temporary part that cleanup removes).
 *
 * <p>An output holds at most one part of the object in memory (a store's upload part size);
 * the object's size is not bounded by memory. Not safe for concurrent use.
 */
public interface ObjectOutput extends AutoCloseable {
  /** Appends the remaining bytes of {@code bytes} (its position moves to its limit). */
  void write(ByteBuffer bytes) throws IOException;

  /** Appends {@code bytes[offset, offset + length)}. */
  default void write(byte[] bytes, int offset, int length) throws IOException {
    write(ByteBuffer.wrap(bytes, offset, length));
  }

  /** Bytes written so far: the position the next byte will have in the object. */
  long position();

  /** Publishes the object; the output takes no more bytes afterwards. */
  void complete() throws IOException;

  /** Drops what was written (best effort, never throws); the output is unusable afterwards. */
  void abort();

  /** Aborts unless {@link #complete()} succeeded. */
  @Override
  default void close() {
    abort();
  }
}
