package dev.lancet.datafile.lance;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * A table read with lance-core's {@link Dataset} (the reference implementation): the second,
 * independent reader of what Lancet commits, for the demo, the interop suite and the
 * benchmarks. Every call opens the table at an explicit version or the latest.
 */
public final class LanceDatasets {
  private LanceDatasets() {}

  /** The newest version lance-core sees. */
  public static long latestVersion(Path table) {
    return latestVersion(uriOf(table), Map.of());
  }

  public static long latestVersion(String uri, Map<String, String> storageOptions) {
    return withDataset(uri, storageOptions, Optional.empty(), Dataset::latestVersion);
  }

  /** {@code Dataset.countRows()}: the live rows at {@code version}. */
  public static long countRows(Path table, long version) {
    return countRows(uriOf(table), Map.of(), version);
  }

  public static long countRows(String uri, Map<String, String> storageOptions, long version) {
    return withDataset(uri, storageOptions, Optional.of(version), Dataset::countRows);
  }

  /** Live rows per fragment id ({@code Fragment.countRows()}) at {@code version}. */
  public static SortedMap<Long, Long> fragmentRowCounts(Path table, long version) {
    return fragmentRowCounts(uriOf(table), Map.of(), version);
  }

  public static SortedMap<Long, Long> fragmentRowCounts(String uri,
      Map<String, String> storageOptions, long version) {
    return withDataset(uri, storageOptions, Optional.of(version), ds -> {
      SortedMap<Long, Long> out = new TreeMap<>();
      for (Fragment f : ds.getFragments()) {
        out.put((long) f.getId(), (long) f.countRows());
      }
      return out;
    });
  }

  /** The table's column names at {@code version}, in schema order. */
  public static List<String> columns(Path table, long version) {
    return columns(uriOf(table), Map.of(), version);
  }

  public static List<String> columns(String uri, Map<String, String> storageOptions, long version) {
    return withDataset(uri, storageOptions, Optional.of(version),
        ds -> ds.getSchema().getFields().stream().map(f -> f.getName()).toList());
  }

  /** Opens {@code table} (at {@code version}, else the latest) with lance-core for {@code body}. */
  public static <T> T withDataset(Path table, Optional<Long> version, Function<Dataset, T> body) {
    return withDataset(uriOf(table), Map.of(), version, body);
  }

  /**
   * The same for a table at any URI lance-core serves ({@code s3://bucket/t}, {@code az://...},
   * a path), with lance-core's storage options (the keys Lancet's stores take too).
   */
  public static <T> T withDataset(String uri, Map<String, String> storageOptions,
      Optional<Long> version, Function<Dataset, T> body) {
    try (BufferAllocator alloc = new RootAllocator()) {
      ReadOptions.Builder read = new ReadOptions.Builder().setStorageOptions(storageOptions);
      version.ifPresent(read::setVersion);
      try (Dataset ds = Dataset.open().allocator(alloc).uri(uri).readOptions(read.build()).build()) {
        return body.apply(ds);
      }
    }
  }

  private static String uriOf(Path table) {
    return table.toAbsolutePath().toString();
  }

  /** Receives each batch of a scan. */
  public interface BatchConsumer {
    void accept(VectorSchemaRoot root);
  }

  /** Scans {@code ds} batch by batch. */
  @SuppressWarnings("try") // LanceScanner.close() throws Exception
  public static void scanBatches(Dataset ds, ScanOptions options, BatchConsumer consumer) {
    try (LanceScanner scanner = ds.newScan(options);
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        consumer.accept(reader.getVectorSchemaRoot());
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("lance-core failed to scan " + ds.uri(), e);
    }
  }
}
