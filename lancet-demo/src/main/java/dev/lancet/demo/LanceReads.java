package dev.lancet.demo;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Reads a table with lance-core (the reference implementation): the second, independent reader
 * of everything Lancet committed. Every call opens the table at an explicit version.
 */
public final class LanceReads {
  /** One live row as lance-core returns it; a column the table lacks, or a null, is empty. */
  public record Row(long id, Optional<String> value, OptionalInt score) {}

  private LanceReads() {}

  /** The newest version lance-core sees. */
  public static long latestVersion(Path table) {
    return latestVersion(DemoLocation.local(table));
  }

  public static long latestVersion(DemoLocation table) {
    return withDataset(table, Optional.empty(), Dataset::latestVersion);
  }

  /** {@code Dataset.countRows()}: the live rows at {@code version}. */
  public static long countRows(Path table, long version) {
    return countRows(DemoLocation.local(table), version);
  }

  public static long countRows(DemoLocation table, long version) {
    return withDataset(table, Optional.of(version), Dataset::countRows);
  }

  /** Live rows per fragment id ({@code Fragment.countRows()}) at {@code version}. */
  public static SortedMap<Long, Long> fragmentRowCounts(Path table, long version) {
    return fragmentRowCounts(DemoLocation.local(table), version);
  }

  public static SortedMap<Long, Long> fragmentRowCounts(DemoLocation table, long version) {
    return withDataset(table, Optional.of(version), ds -> {
      SortedMap<Long, Long> out = new TreeMap<>();
      for (Fragment f : ds.getFragments()) {
        out.put((long) f.getId(), (long) f.countRows());
      }
      return out;
    });
  }

  /** The table's column names at {@code version}, in schema order. */
  public static List<String> columns(Path table, long version) {
    return columns(DemoLocation.local(table), version);
  }

  public static List<String> columns(DemoLocation table, long version) {
    return withDataset(table, Optional.of(version),
        ds -> ds.getSchema().getFields().stream().map(f -> f.getName()).toList());
  }

  /**
   * Every live row at {@code version} matching {@code filter} (a lance-core SQL predicate, or
   * empty for all), sorted by id; columns {@code value} and {@code score} when the table has them.
   */
  public static List<Row> scan(Path table, long version, Optional<String> filter) {
    return scan(DemoLocation.local(table), version, filter);
  }

  public static List<Row> scan(DemoLocation table, long version, Optional<String> filter) {
    return withDataset(table, Optional.of(version), ds -> {
      List<String> names = ds.getSchema().getFields().stream().map(f -> f.getName()).toList();
      List<String> wanted = new ArrayList<>(List.of(DemoRows.ID));
      for (String c : List.of(DemoRows.VALUE, DemoRows.SCORE)) {
        if (names.contains(c)) {
          wanted.add(c);
        }
      }
      ScanOptions.Builder options = new ScanOptions.Builder().columns(wanted).batchSize(4096);
      filter.ifPresent(options::filter);
      List<Row> out = new ArrayList<>();
      scanBatches(ds, options.build(), root -> {
        BigIntVector id = (BigIntVector) root.getVector(DemoRows.ID);
        FieldVector value = root.getVector(DemoRows.VALUE);
        FieldVector score = root.getVector(DemoRows.SCORE);
        for (int i = 0; i < root.getRowCount(); i++) {
          Optional<String> v = value == null || value.isNull(i)
              ? Optional.empty() : Optional.of(new String(((VarCharVector) value).get(i),
                  StandardCharsets.UTF_8));
          OptionalInt s = score == null || score.isNull(i)
              ? OptionalInt.empty() : OptionalInt.of(((IntVector) score).get(i));
          out.add(new Row(id.get(i), v, s));
        }
      });
      out.sort(Comparator.comparingLong(Row::id));
      return out;
    });
  }

  /** Opens {@code table} (at {@code version}, else the latest) with lance-core for {@code body}. */
  public static <T> T withDataset(Path table, Optional<Long> version, Function<Dataset, T> body) {
    return withDataset(DemoLocation.local(table), version, body);
  }

  /** The same at any location, with its storage options. */
  public static <T> T withDataset(DemoLocation table, Optional<Long> version, Function<Dataset, T> body) {
    try (BufferAllocator alloc = new RootAllocator()) {
      ReadOptions.Builder read = new ReadOptions.Builder().setStorageOptions(table.storageOptions());
      version.ifPresent(read::setVersion);
      try (Dataset ds = Dataset.open().allocator(alloc).uri(table.uri())
          .readOptions(read.build()).build()) {
        return body.apply(ds);
      }
    }
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
