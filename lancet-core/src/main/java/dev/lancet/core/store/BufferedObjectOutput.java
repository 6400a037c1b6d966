package dev.lancet.core.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The default {@link ObjectOutput}: the bytes gathered in memory and published with one
 * {@link ObjectStore#put} on completion. For stores whose objects live in memory anyway (the
 * test stores); the local, S3 and Azure stores stream instead.
 */
final class BufferedObjectOutput implements ObjectOutput {
  private final ObjectStore store;
  private final String path;
  private ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private boolean completed;

  BufferedObjectOutput(ObjectStore store, String path) {
    this.store = Objects.requireNonNull(store, "store");
    this.path = StorePath.validate(path);
  }

  @Override
  public void write(ByteBuffer src) throws IOException {
    ensureOpen();
    if (src.hasArray()) {
      bytes.write(src.array(), src.arrayOffset() + src.position(), src.remaining());
      src.position(src.limit());
    } else {
      byte[] copy = new byte[src.remaining()];
      src.get(copy);
      bytes.write(copy);
    }
  }

  @Override
  public long position() {
    return bytes == null ? 0 : bytes.size();
  }

  @Override
  public void complete() throws IOException {
    ensureOpen();
    store.put(path, bytes.toByteArray());
    completed = true;
    bytes = null;
  }

  @Override
  public void abort() {
    bytes = null;
  }

  @Override
  public void close() {
    if (!completed) {
      abort();
    }
  }

  private void ensureOpen() {
    if (bytes == null) {
      throw new IllegalStateException("the output of " + path + " is "
          + (completed ? "complete" : "aborted") + " and takes no more bytes");
    }
  }
}
