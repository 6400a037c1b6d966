package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.DistributedWrite;
import dev.lancet.table.FragmentWriter;
import dev.lancet.table.HistoryEntry;
import dev.lancet.table.LanceTable;
import dev.lancet.table.spi.WrittenFile;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * History speaks the user's language: each commit the table API makes is named by its statement
 * (whatever legacy operation or composite carried it), has its steps, and shows its tags; a
 * commit planned on an older version says what it was rebased over. Checked through
 * {@link LanceTable#history()} and {@code lancet log} (text and JSON) on one table.
 */
class HistoryStatementsTest {
  @TempDir Path tmp;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("score", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  private static VectorSchemaRoot rows(BufferAllocator alloc, long from, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    BigIntVector id = (BigIntVector) root.getVector("id");
    Float8Vector score = (Float8Vector) root.getVector("score");
    for (int i = 0; i < n; i++) {
      id.setSafe(i, from + i);
      score.setSafe(i, (from + i) / 10.0);
    }
    root.setRowCount(n);
    return root;
  }

  @Test
  void everyCommitIsNamedByItsStatement() throws Exception {
    String uri = tmp.resolve("t").toString();
    try (BufferAllocator alloc = new RootAllocator()) {
      try (VectorSchemaRoot first = rows(alloc, 0, 20);
          LanceTable table = LanceTable.create(uri, first, CreateOptions.defaults())) {
        try (VectorSchemaRoot more = rows(alloc, 20, 10)) {
          table.append(more); // v2
        }
        table.tags().create("before", 2);
        // A write planned on v2 that lands after a concurrent append (v3): it is rebased.
        try (DistributedWrite w = table.newDistributedWrite(2, CreateOptions.defaults(), List.of())) {
          List<WrittenFile> files;
          try (FragmentWriter fw = FragmentWriter.open(w.spec(), alloc);
              VectorSchemaRoot b = rows(alloc, 100, 5)) {
            fw.write(b);
            files = fw.finish();
          }
          try (VectorSchemaRoot other = rows(alloc, 30, 5)) {
            table.append(other); // v3
          }
          w.newCommit().addFiles(files).commit(); // v4, read version 2
        }
        table.delete("id < 3"); // v5
        table.update("id = 5", java.util.Map.of("score", "score * 2")); // v6
        try (VectorSchemaRoot src = rows(alloc, 8, 4)) {
          table.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().from(src)
              .commit(); // v7
        }
        table.addColumns().sql("pct", "score * 100").commit(); // v8
        table.compact().commit(); // v9
        table.newTransaction().delete("id = 4").update("id = 6", java.util.Map.of("pct", "0"))
            .commit(); // v10
        table.tags().create("done", table.version());

        List<HistoryEntry> h = table.history();
        assertThat(h).extracting(HistoryEntry::statement).containsExactly("create", "append",
            "append", "append", "delete", "update", "merge insert", "add columns", "compaction",
            "transaction");
        for (HistoryEntry e : h.subList(1, h.size())) {
          assertThat(e.steps()).as("steps of version %d", e.version()).isNotEmpty();
        }
        assertThat(h.get(1).tags()).containsExactly("before");
        assertThat(h.get(3).readVersion()).contains(2L);
      }
    }
    Cli.Result log = Cli.run("log", uri);
    assertThat(log.exitCode()).as(log.err()).isZero();
    assertThat(log.out()).contains("rebased over v3").contains("planned on v2");
    String v2 = log.outLines().stream().filter(l -> l.matches("\\s*2\\s.*")).findFirst().orElseThrow();
    assertThat(v2).contains("append").contains("before");
    assertThat(log.out()).contains("merge insert").contains("compaction").contains("done");
    JsonNode json = JSON.readTree(Cli.run("log", uri, "--json").out());
    assertThat(json.get(0).get("statement").asText()).isEqualTo("transaction");
    assertThat(json.get(0).get("tags").get(0).asText()).isEqualTo("done");
    assertThat(json.get(0).get("steps")).hasSize(2);
  }
}
