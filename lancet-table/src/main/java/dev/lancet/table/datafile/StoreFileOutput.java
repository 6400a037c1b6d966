package dev.lancet.table.datafile;

import dev.lancet.core.store.ObjectOutput;
import dev.lancet.file.write.FileOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A data file streamed into the table's object store ({@link ObjectOutput}: a local file
 * renamed into place, an S3 multipart upload, Azure staged blocks), for the Java writer. How
 * durable a completed file is, is the store's rule (a local table fsyncs under its default
 * durability), the same as for every other object the table writes.
 */
final class StoreFileOutput implements FileOutput {
  private final ObjectOutput out;

  StoreFileOutput(ObjectOutput out) {
    this.out = out;
  }

  @Override
  public void write(ByteBuffer bytes) throws IOException {
    out.write(bytes);
  }

  @Override
  public long position() {
    return out.position();
  }

  @Override
  public void complete(boolean durable) throws IOException {
    out.complete();
  }

  @Override
  public void abort() {
    out.abort();
  }
}
