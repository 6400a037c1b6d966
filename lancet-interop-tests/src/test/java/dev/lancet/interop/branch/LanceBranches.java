package dev.lancet.interop.branch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.datafile.lance.ReplayReader;
import dev.lancet.interop.table.Rows;
import dev.lancet.table.LanceTable;
import dev.lancet.table.Scan;
import dev.lancet.interop.lance.LanceFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.ipc.ScanOptions;
import org.lance.operation.Append;

/**
 * lance-core 7.0.0 as the oracle of branches: it creates branches and tags on them, writes to a
 * branch, and reads every version of every branch and every tag, by scanning the ids (a scan reads
 * the data and deletion files, which a row count does not).
 */
final class LanceBranches {
  private LanceBranches() {}

  static <T> T withTable(Path dir, Function<Dataset, T> body) {
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open().allocator(alloc).uri(dir.toAbsolutePath().toString()).build()) {
      return body.apply(ds);
    }
  }

  /** lance-core creates an empty table of {@code schema} (version 1, V2 manifest names). */
  static void create(Path dir, Schema schema) {
    try (BufferAllocator alloc = new RootAllocator()) {
      Dataset.create(alloc, dir.toAbsolutePath().toString(), schema,
          new WriteParams.Builder().build()).close();
    }
  }

  /**
   * lance-core creates branch {@code name} at {@code from}; returns the branch's version. From
   * a version of another branch it is asked through a handle on that branch: lance-core 7.0.0
   * looks the version up in the handle's own branch (from main it looks for main's version).
   */
  static long createBranch(Path dir, String name, Ref from) {
    return withTable(dir, ds -> {
      if (from.getBranchName().isPresent()) {
        try (Dataset on = ds.checkout(Ref.ofBranch(from.getBranchName().get()));
            Dataset b = on.createBranch(name, from)) {
          return b.version();
        }
      }
      try (Dataset b = ds.createBranch(name, from)) {
        return b.version();
      }
    });
  }

  /** lance-core appends rows {@code start ..} to the latest version of {@code branch}. */
  static long appendToBranch(Path dir, String branch, Schema schema, long start, int count) {
    return withTable(dir, ds -> {
      try (Dataset b = ds.checkout(Ref.ofBranch(branch))) {
        List<FragmentMetadata> frags;
        try (VectorSchemaRoot root = LanceFixtures.rows(ds.allocator(), schema, start, count)) {
          frags = org.lance.Fragment.create(b.uri(), ds.allocator(), root,
              new WriteParams.Builder().build());
        }
        try (var txn = b.newTransactionBuilder()
            .operation(Append.builder().fragments(frags).build()).build();
            Dataset after = txn.commit()) {
          return after.version();
        }
      }
    });
  }

  /** lance-core deletes {@code predicate} on the latest version of {@code branch}. */
  static long deleteOnBranch(Path dir, String branch, String predicate) {
    return withTable(dir, ds -> {
      try (Dataset b = ds.checkout(Ref.ofBranch(branch))) {
        b.delete(predicate);
        return b.version();
      }
    });
  }

  /** The sorted ids lance-core scans at {@code ref}. */
  static List<Long> ids(Path dir, Ref ref) {
    return withTable(dir, ds -> {
      try (Dataset at = ds.checkout(ref)) {
        List<Long> out = new ArrayList<>();
        LanceDatasets.scanBatches(at, new ScanOptions.Builder().columns(List.of("id")).build(),
            root -> {
              BigIntVector id = (BigIntVector) root.getVector("id");
              for (int i = 0; i < root.getRowCount(); i++) {
                out.add(id.get(i));
              }
            });
        out.sort(null);
        return out;
      }
    });
  }

  /**
   * What lance-core reads at every version of every branch (main included, as "main") and at
   * every tag ("tag:NAME"), by scanning.
   */
  static Map<String, List<Long>> everything(Path dir) {
    Map<String, List<Long>> out = new TreeMap<>();
    withTable(dir, ds -> {
      for (var v : ds.listVersions()) {
        out.put("main@" + v.getId(), null);
      }
      for (var b : ds.branches().list()) {
        try (Dataset at = ds.checkout(Ref.ofBranch(b.getName()))) {
          for (var v : at.listVersions()) {
            out.put(b.getName() + "@" + v.getId(), null);
          }
        }
      }
      for (var t : ds.tags().list()) {
        out.put("tag:" + t.getName(), null);
      }
      return null;
    });
    for (String key : List.copyOf(out.keySet())) {
      out.put(key, ids(dir, ref(key)));
    }
    return out;
  }

  static Ref ref(String key) {
    if (key.startsWith("tag:")) {
      return Ref.ofTag(key.substring(4));
    }
    int at = key.lastIndexOf('@');
    String branch = key.substring(0, at);
    long version = Long.parseLong(key.substring(at + 1));
    return branch.equals("main") ? Ref.ofMain(version) : Ref.ofBranch(branch, version);
  }

  /** Rows {@code start ..} of the fixture schema, for a Lancet write. */
  static ArrowReader lancetRows(BufferAllocator alloc, long start, int count) {
    return new ReplayReader(alloc, LanceFixtures.SIMPLE_SCHEMA,
        List.of(LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA, start, count)), true);
  }

  /** Every row lance-core scans at {@code key} ("main@3", "b@4", "tag:t"), with row addresses. */
  static List<Map<String, Object>> lanceScan(Path dir, String key) {
    return withTable(dir, ds -> {
      try (Dataset at = ds.checkout(ref(key))) {
        List<Map<String, Object>> rows = new ArrayList<>();
        LanceDatasets.scanBatches(at, new ScanOptions.Builder().withRowAddress(true)
            .batchSize(1000).build(), root -> Rows.addAll(root, rows));
        return rows;
      }
    });
  }

  /** Every row Lancet scans at {@code key}, with row addresses. */
  static List<Map<String, Object>> lancetScan(Path dir, String key) {
    try (LanceTable t = LanceTable.open(dir.toString())) {
      Scan scan;
      if (key.startsWith("tag:")) {
        scan = t.newScan().asOfTag(key.substring(4));
      } else {
        int at = key.lastIndexOf('@');
        scan = t.branch(key.substring(0, at)).newScan()
            .asOfVersion(Long.parseLong(key.substring(at + 1)));
      }
      return Rows.of(scan.withRowAddress().batchSize(333).open());
    }
  }

  /** Every key of {@link #everything} at which Lancet and lance-core scan the same rows. */
  static void assertSameEverywhere(Path dir) {
    for (String key : everything(dir).keySet()) {
      assertThat(lancetScan(dir, key)).as("Lancet's rows at %s", key)
          .isEqualTo(lanceScan(dir, key));
    }
  }

  /** Every file under {@code dir}, relative, sorted. */
  static List<String> files(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
