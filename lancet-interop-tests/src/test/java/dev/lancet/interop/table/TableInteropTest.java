package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.datafile.lance.ReplayReader;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/**
 * The table API against lance-core 7.0.0 both ways: every version of every fixture lance-core
 * wrote scans identically through Lancet (all columns, {@code _rowid}, {@code _rowaddr}), and
 * every version of tables Lancet writes (nested and vector columns, both storage versions,
 * stable row ids on and off, appends and an overwrite) scans identically through lance-core.
 */
class TableInteropTest {
  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> lancetScansEveryFixtureVersionAsLanceCoreDoes() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Path> fixture : SharedFixtures.all().entrySet()) {
      for (LanceOracle.VersionView v : LanceOracle.versions(fixture.getValue())) {
        tests.add(DynamicTest.dynamicTest(fixture.getKey() + " v" + v.version(),
            () -> assertSameScan(fixture.getValue(), v.version())));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> lanceCoreScansEveryVersionLancetWrites() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String storage : List.of("2.0", "2.1")) {
      for (boolean stable : List.of(false, true)) {
        tests.add(DynamicTest.dynamicTest("storage " + storage + ", stable row ids " + stable,
            () -> writeAndCompare(storage, stable)));
      }
    }
    return tests.stream();
  }

  @Test
  void lancetWritesNestedAndVectorColumnsLanceCoreReads() throws Exception {
    for (String storage : List.of("2.0", "2.1")) {
      Path dir = tmp.resolve("nested-" + storage);
      try (BufferAllocator alloc = new RootAllocator()) {
        Schema schema = LanceFixtures.FULL_SCHEMA;
        try (ReplayReader data = reader(alloc, schema, 0, 250, 100);
            LanceTable table = LanceTable.create(dir.toString(), data,
                CreateOptions.builder().storageVersion(storage).maxRowsPerFile(120).build())) {
          try (ReplayReader more = reader(alloc, schema, 250, 30, 30)) {
            table.append(more);
          }
        }
      }
      for (long v = 1; v <= 2; v++) {
        assertSameScan(dir, v);
      }
    }
  }

  private void writeAndCompare(String storage, boolean stable) throws Exception {
    Path dir = tmp.resolve("lancet-" + storage + "-" + stable);
    try (BufferAllocator alloc = new RootAllocator()) {
      try (var data = new GeneratedRows(alloc, 0, 700, 256, 16);
          LanceTable table = LanceTable.create(dir.toString(), data, CreateOptions.builder()
              .storageVersion(storage).stableRowIds(stable).maxRowsPerFile(300).build())) {
        try (var more = new GeneratedRows(alloc, 700, 400, 128, 16)) {
          table.append(more);
        }
        try (var again = new GeneratedRows(alloc, 1100, 10, 10, 16)) {
          table.append(again);
        }
        try (var replace = new GeneratedRows(alloc, 5000, 50, 50, 8)) {
          table.overwrite(replace);
        }
        assertThat(table.version()).isEqualTo(4);
      }
    }
    for (long v = 1; v <= 4; v++) {
      assertSameScan(dir, v);
    }
    assertThat(LanceDatasets.latestVersion(dir)).isEqualTo(4);
  }

  /** Lancet's and lance-core's scans of {@code dir} at {@code version}: every column and row. */
  static void assertSameScan(Path dir, long version) {
    List<Map<String, Object>> theirs = LanceDatasets.withDataset(dir, Optional.of(version), ds -> {
      List<Map<String, Object>> rows = new ArrayList<>();
      LanceDatasets.scanBatches(ds, new ScanOptions.Builder().withRowId(true)
          .withRowAddress(true).batchSize(1000).build(), root -> Rows.addAll(root, rows));
      return rows;
    });
    List<Map<String, Object>> ours;
    try (LanceTable table = LanceTable.open(dir.toString())) {
      ours = Rows.of(table.newScan().asOfVersion(version).withRowId().withRowAddress()
          .batchSize(333).open());
    }
    assertThat(ours).as("rows of %s at version %d", dir.getFileName(), version).hasSameSizeAs(theirs);
    for (int i = 0; i < theirs.size(); i++) {
      assertThat(ours.get(i)).as("row %d of %s at version %d", i, dir.getFileName(), version)
          .isEqualTo(theirs.get(i));
    }
  }

  static ReplayReader reader(BufferAllocator alloc, Schema schema, long start, int count, int batch) {
    List<VectorSchemaRoot> roots = new ArrayList<>();
    for (int done = 0; done < count; done += batch) {
      roots.add(LanceFixtures.rows(alloc, schema, start + done, Math.min(batch, count - done)));
    }
    return new ReplayReader(alloc, schema, roots, true);
  }
}
