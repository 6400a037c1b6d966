package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.table.CreateOptions;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows from code: every write takes the caller's {@link VectorSchemaRoot}s directly, reads them
 * without copying, leaves them open and usable, and holds no reference to them afterwards (the
 * caller's allocator closes without a leak, which it refuses to do while a buffer is held).
 */
class InMemoryBatchesTest {
  @TempDir Path tmp;

  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  private static VectorSchemaRoot batch(BufferAllocator alloc, long from, int n, String tag) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    for (int i = 0; i < n; i++) {
      id.setSafe(i, from + i);
      if (i % 7 == 3) {
        name.setNull(i);
      } else {
        name.setSafe(i, (tag + (from + i)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    root.setRowCount(n);
    return root;
  }

  /** id → name (null kept as null) of every row of the table. */
  private static TreeMap<Long, String> rows(LanceTable table) throws IOException {
    TreeMap<Long, String> out = new TreeMap<>();
    try (ArrowReader r = table.newScan().open()) {
      while (r.loadNextBatch()) {
        VectorSchemaRoot root = r.getVectorSchemaRoot();
        BigIntVector id = (BigIntVector) root.getVector("id");
        VarCharVector name = (VarCharVector) root.getVector("name");
        for (int i = 0; i < root.getRowCount(); i++) {
          out.put(id.get(i), name.isNull(i) ? null : new String(name.get(i),
              java.nio.charset.StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  private static TreeMap<Long, String> expected(long from, int n, String tag) {
    TreeMap<Long, String> out = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      out.put(from + i, i % 7 == 3 ? null : tag + (from + i));
    }
    return out;
  }

  @Test
  void createAppendMergeInsertAndOverwriteTakeRootsAndLeaveThemToTheCaller() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (BufferAllocator alloc = new RootAllocator()) {
      List<VectorSchemaRoot> first = List.of(batch(alloc, 0, 100, "a"), batch(alloc, 100, 50, "a"));
      try (LanceTable table = LanceTable.create(uri, first, CreateOptions.defaults())) {
        TreeMap<Long, String> model = expected(0, 100, "a");
        model.putAll(expected(100, 50, "a"));
        assertThat(rows(table)).isEqualTo(model);
        // The caller's roots are untouched and still theirs.
        assertThat(first.get(1).getRowCount()).isEqualTo(50);
        assertThat(((BigIntVector) first.get(1).getVector("id")).get(49)).isEqualTo(149);

        try (VectorSchemaRoot more = batch(alloc, 150, 30, "b")) {
          table.append(more);
        }
        model.putAll(expected(150, 30, "b"));
        assertThat(rows(table)).isEqualTo(model);

        try (VectorSchemaRoot source = batch(alloc, 140, 20, "m")) {
          StatementResult r = table.mergeInsert("id").whenMatchedUpdateAll()
              .whenNotMatchedInsertAll().from(source).commit();
          assertThat(r.rowsUpdated()).isEqualTo(20);
        }
        model.putAll(expected(140, 20, "m"));
        assertThat(rows(table)).isEqualTo(model);

        try (VectorSchemaRoot t1 = batch(alloc, 1000, 5, "t")) {
          table.newTransaction().append(t1).delete("id < 10").commit();
        }
        model.putAll(expected(1000, 5, "t"));
        model.headMap(10L).clear();
        assertThat(rows(table)).isEqualTo(model);

        List<VectorSchemaRoot> replacement = new ArrayList<>();
        replacement.add(batch(alloc, 7, 3, "o"));
        table.overwrite(replacement);
        assertThat(rows(table)).isEqualTo(expected(7, 3, "o"));
        replacement.forEach(VectorSchemaRoot::close);
      }
      first.forEach(VectorSchemaRoot::close);
      // RootAllocator.close throws "Memory was leaked" if a write kept a reference.
    }
  }

  @Test
  void anAppendBuiltBeforeANullableColumnWasAddedLandsWithNullsForIt() throws IOException {
    String uri = tmp.resolve("added").toString();
    try (BufferAllocator alloc = new RootAllocator()) {
      try (VectorSchemaRoot a = batch(alloc, 0, 10, "a");
          LanceTable table = LanceTable.create(uri, a, CreateOptions.defaults())) {
        try (VectorSchemaRoot built = batch(alloc, 10, 5, "b")) { // on the old schema
          try (LanceTable other = LanceTable.open(uri)) {
            other.addColumns().nulls(Field.nullable("note", ArrowType.Utf8.INSTANCE)).commit();
          }
          table.append(built);
        }
        assertThat(table.version()).isEqualTo(3);
        TreeMap<Long, String> all = expected(0, 10, "a");
        all.putAll(expected(10, 5, "b"));
        assertThat(rows(table)).isEqualTo(all);
        try (ArrowReader r = table.newScan().select("id", "name", "note").open()) {
          int seen = 0;
          while (r.loadNextBatch()) {
            VectorSchemaRoot b = r.getVectorSchemaRoot();
            for (int i = 0; i < b.getRowCount(); i++, seen++) {
              assertThat(b.getVector("note").isNull(i)).isTrue();
            }
          }
          assertThat(seen).isEqualTo(15);
        }
      }
    }
  }

  @Test
  void anAppendWithoutANonNullableColumnNamesIt() throws IOException {
    String uri = tmp.resolve("strict").toString();
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot a = batch(alloc, 0, 10, "a");
        LanceTable table = LanceTable.create(uri, a, CreateOptions.defaults())) {
      Schema nameOnly = new Schema(List.of(Field.nullable("name", ArrowType.Utf8.INSTANCE)));
      try (VectorSchemaRoot b = VectorSchemaRoot.create(nameOnly, alloc)) {
        b.setRowCount(0);
        assertThatThrownBy(() -> table.append(b)).isInstanceOf(InvalidInputException.class)
            .hasMessageContaining("missing: id").hasMessageContaining("must be in every batch: 'id'");
      }
      assertThat(table.version()).isEqualTo(1);
    }
  }

  @Test
  void badBatchesAreRefusedAndCommitNothing() throws IOException {
    String uri = tmp.resolve("t").toString();
    try (BufferAllocator alloc = new RootAllocator()) {
      assertThatThrownBy(() -> LanceTable.create(uri, List.<VectorSchemaRoot>of(),
          CreateOptions.defaults())).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("no batches");
      try (VectorSchemaRoot a = batch(alloc, 0, 10, "a");
          LanceTable table = LanceTable.create(uri, a, CreateOptions.defaults())) {
        Schema other = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true))));
        try (VectorSchemaRoot good = batch(alloc, 10, 5, "b");
            VectorSchemaRoot odd = VectorSchemaRoot.create(other, alloc)) {
          odd.setRowCount(0);
          assertThatThrownBy(() -> table.append(List.of(good, odd)))
              .isInstanceOf(InvalidInputException.class).hasMessageContaining("batch 1");
        }
        assertThat(table.version()).isEqualTo(1);
        assertThat(rows(table)).isEqualTo(expected(0, 10, "a"));
      }
    }
  }
}
