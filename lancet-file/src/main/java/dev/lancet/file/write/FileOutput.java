package dev.lancet.file.write;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a {@link LanceFileWriter} puts a file's bytes: appended in order, never read back, never
 * rewritten, so an implementation can stream them (a local file, an object store's multipart
 * upload). The writer hands over a page's buffers as soon as they are encoded and keeps nothing
 * of them.
 */
public interface FileOutput {
  /** Appends all remaining bytes of {@code bytes}. */
  void write(ByteBuffer bytes) throws IOException;

  /** Bytes appended so far (the position of the next byte). */
  long position();

  /**
   * Makes the file whole and visible under its name, durably when {@code durable} (a local
   * file is forced to the device first), and releases the output. Called once, last.
   */
  void complete(boolean durable) throws IOException;

  /** Discards what was written (nothing is left under the file's name); never throws. */
  void abort();
}
