package dev.lancet.interop.readme;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.CleanupReport;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Table API" snippets are the compiled sources of this package, character for
 * character, and they run: the part-1 newcomer tasks one after another on a real table, checked
 * with lance-core.
 */
class ReadmeSnippetsTest {
  /** In README order; the kernel ones run in {@link ReadmeFirstScreenTest}. */
  static final List<String> SNIPPETS = List.of("create", "concurrent-appends", "evolve",
      "time-travel", "history", "cleanup", "branches", "delete", "upsert", "transaction", "compact",
      "kernel-commit", "replan");

  @TempDir Path tmp;

  static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !p.resolve("README.md").toFile().exists()) {
      p = p.getParent();
    }
    return p;
  }

  @Test
  void theReadmeShowsExactlyTheCompiledSnippets() throws IOException {
    Path root = repoRoot();
    Map<String, String> readme = ReadmeSnippets.inReadme(root.resolve("README.md"));
    Path sources = root.resolve("lancet-interop-tests/src/test/java/dev/lancet/interop/readme");
    assertThat(readme.keySet()).containsExactlyElementsOf(SNIPPETS);
    for (String name : SNIPPETS) {
      assertThat(readme.get(name)).as("README snippet '%s' (edit %sSnippet.java and copy it)",
          name, ReadmeSnippets.upperCamel(name)).isEqualTo(ReadmeSnippets.fromSource(sources, name));
    }
  }

  @Test
  void theSnippetsRunOnARealTable() throws Exception {
    String uri = tmp.resolve("events").toString();
    assertThat(CreateSnippet.run(uri, arrowFile("first.arrow", 0, 100))).isEqualTo(100);
    List<String> files = new ArrayList<>();
    for (int w = 1; w <= 4; w++) {
      files.add(arrowFile("w" + w + ".arrow", w * 1000L, 50));
    }
    assertThat(ConcurrentAppendsSnippet.run(uri, files)).containsExactlyInAnyOrder(2L, 3L, 4L, 5L);
    EvolveSnippet.run(uri);
    assertThat(LanceDatasets.columns(tmp.resolve("events"), LanceDatasets.latestVersion(tmp.resolve("events"))))
        .containsExactly("id", "label", "score", "id2");
    assertThat(TimeTravelSnippet.run(uri)).isEqualTo(150);
    assertThat(HistorySnippet.run(uri)).isEqualTo(9);
    CleanupReport done = CleanupSnippet.run(uri, Duration.ZERO);
    assertThat(done.versionsRemoved()).isNotEmpty().doesNotContain(2L, 9L);
    assertThat(LanceDatasets.countRows(tmp.resolve("events"), 9)).isEqualTo(300);
    assertThat(LanceDatasets.countRows(tmp.resolve("events"), 2)).isEqualTo(150);
    long trial = BranchesSnippet.run(uri);
    assertThat(trial).isLessThan(300);
    assertThat(LanceDatasets.countRows(tmp.resolve("events"), 9)).isEqualTo(300);
    assertThat((long) LanceDatasets.withDataset(tmp.resolve("events"), java.util.Optional.empty(),
        ds -> {
          try (var b = ds.checkout(org.lance.Ref.ofTag("trial-done"))) {
            return b.countRows();
          }
        })).isEqualTo(trial);
  }

  @Test
  void theStatementSnippetsRunOnARealTable() throws Exception {
    String uri = tmp.resolve("orders").toString();
    Path dir = tmp.resolve("orders");
    CreateSnippet.run(uri, arrowFile("first.arrow", 0, 100));
    // score = id / 4: ids 0..39 have a score below 10.
    assertThat(DeleteSnippet.run(uri).rowsDeleted()).isEqualTo(40);
    assertThat(LanceDatasets.countRows(dir, 2)).isEqualTo(60);
    // ids 90..129: 10 matched, 30 new.
    var upsert = UpsertSnippet.run(uri, arrowFile("upsert.arrow", 90, 40));
    assertThat(upsert.rowsUpdated()).isEqualTo(10);
    assertThat(upsert.rowsInserted()).isEqualTo(30);
    assertThat(LanceDatasets.countRows(dir, 3)).isEqualTo(90);
    // ids 995..1004 appended; the delete of id < 1000 takes 0..999 (old and new rows alike).
    var txn = TransactionSnippet.run(uri, arrowFile("txn.arrow", 995, 10));
    assertThat(txn.statements().get(1).rowsDeleted()).isEqualTo(95);
    assertThat(LanceDatasets.countRows(dir, txn.version())).isEqualTo(5);
    var compacted = CompactSnippet.run(uri);
    assertThat(compacted.committed()).isTrue();
    assertThat(LanceDatasets.countRows(dir, compacted.version().getAsLong())).isEqualTo(5);
    assertThat(LanceDatasets.fragmentRowCounts(dir, compacted.version().getAsLong()))
        .hasSize(1);
  }

  private String arrowFile(String name, long start, int rows) throws IOException {
    Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("name", ArrowType.Utf8.INSTANCE),
        Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    Path file = tmp.resolve(name);
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      root.allocateNew();
      for (int i = 0; i < rows; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, start + i);
        ((VarCharVector) root.getVector("name")).setSafe(i, ("n" + (start + i)).getBytes());
        ((Float8Vector) root.getVector("score")).setSafe(i, (start + i) / 4.0);
      }
      root.setRowCount(rows);
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
        w.start();
        w.writeBatch();
        w.end();
      }
    }
    return file.toString();
  }
}
