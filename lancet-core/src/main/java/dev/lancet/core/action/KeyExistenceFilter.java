package dev.lancet.core.action;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Objects;

/**
 * Which keys a writer inserted: an exact set of 64-bit key hashes, or a split-block Bloom
 * filter over them. The key columns are named by the carrying action, not here.
 */
public sealed interface KeyExistenceFilter {

  /** Default Bloom sizing that a zero on the wire stands for. */
  long DEFAULT_NUMBER_OF_ITEMS = 8192;
  double DEFAULT_PROBABILITY = 0.00057;

  record Exact(List<Long> keyHashes) implements KeyExistenceFilter {
    public Exact {
      keyHashes = List.copyOf(keyHashes);
    }
  }

  record Bloom(ByteString bitmap, int numBits, long numberOfItems, double probability)
      implements KeyExistenceFilter {
    public Bloom {
      Objects.requireNonNull(bitmap, "bitmap");
    }
  }
}
