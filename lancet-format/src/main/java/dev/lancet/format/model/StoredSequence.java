package dev.lancet.format.model;

import com.google.protobuf.ByteString;
import java.util.Objects;

/**
 * Where a fragment keeps a serialized sequence (row ids or row versions): inline in the
 * manifest, or in a range of an external file.
 */
public sealed interface StoredSequence {

  record Inline(ByteString bytes) implements StoredSequence {
    public Inline {
      Objects.requireNonNull(bytes, "bytes");
    }
  }

  record External(ExternalFile file) implements StoredSequence {
    public External {
      Objects.requireNonNull(file, "file");
    }
  }

  static StoredSequence inline(byte[] bytes) {
    return new Inline(ByteString.copyFrom(bytes));
  }
}
