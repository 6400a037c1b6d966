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
  private final Path path;
  private final FileChannel channel;
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

  @Override
  public void write(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      position += channel.write(bytes);
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
