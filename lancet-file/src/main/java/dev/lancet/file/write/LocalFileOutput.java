package dev.lancet.file.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link FileOutput} over a local file, written through one {@link FileChannel}. The file is
 * created new ({@code CREATE_NEW}: an existing file is never overwritten); {@link #abort}
 * deletes it.
 */
public final class LocalFileOutput implements FileOutput {
  /** Heap bytes go to the channel through this one direct buffer (see {@link #write}). */
  private static final int STAGING_BYTES = 1 << 20;

  private final Path path;
  private final FileChannel channel;
  private ByteBuffer staging;
  private long position;
  private boolean closed;

  private LocalFileOutput(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** Creates {@code path} (and its parent directories); fails if it exists. */
  public static LocalFileOutput create(Path path) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return new LocalFileOutput(path, FileChannel.open(path, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE));
  }

  public Path path() {
    return path;
  }

  /**
   * Writes {@code bytes}; heap bytes are copied through one reused direct buffer (the JDK would
   * otherwise take a temporary direct buffer as large as each write, 8 MiB a page, and under
   * direct-memory pressure from Arrow's batches that allocation stalls).
   */
  @Override
  public void write(ByteBuffer bytes) throws IOException {
    if (bytes.isDirect()) {
      while (bytes.hasRemaining()) {
        position += channel.write(bytes);
      }
      return;
    }
    if (staging == null) {
      staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    }
    while (bytes.hasRemaining()) {
      staging.clear();
      int take = Math.min(staging.capacity(), bytes.remaining());
      ByteBuffer part = bytes.slice();
      part.limit(take);
      staging.put(part);
      bytes.position(bytes.position() + take);
      staging.flip();
      while (staging.hasRemaining()) {
        position += channel.write(staging);
      }
    }
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public void complete(boolean durable) throws IOException {
    if (closed) {
      throw new IllegalStateException(path + " is already closed");
    }
    closed = true;
    try (FileChannel c = channel) {
      if (durable) {
        c.force(true);
      }
    }
  }

  @Override
  public void abort() {
    if (!closed) {
      closed = true;
      try {
        channel.close();
      } catch (IOException e) {
        // the file is deleted below; nothing else to release
      }
    }
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // best effort: an unreferenced file is garbage a cleanup removes
    }
  }
}
