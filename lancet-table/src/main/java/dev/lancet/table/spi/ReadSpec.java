package dev.lancet.table.spi;

import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One data file to read: {@code path} relative to the table root (for example
 * {@code "data/abc.lance"}) of the table at {@code tableUri}.
 */
public record ReadSpec(String tableUri, Map<String, String> storageOptions, String path,
    BufferAllocator allocator) {
  public ReadSpec {
    Objects.requireNonNull(tableUri, "tableUri");
    storageOptions = Map.copyOf(storageOptions);
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(allocator, "allocator");
  }
}
