package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.commit.StoreManifestHistory;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.transaction.LegacyForm;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parity harness of the write forms (docs/decisions/0023, seed §4 "parity-harness holes"):
 * for every table-API operation the {@code legacy_when_exact} policy writes in legacy form, the
 * composite operation the table API planned and its legacy lowering are
 *
 * <ol>
 *   <li>applied to the same read version with Lancet's two applies ({@code CompositeApply},
 *       {@code LegacyApply}) and compared in every manifest field (as protobuf messages, field by
 *       field, unknown fields included) and in the index list, nothing exempt;
 *   <li>published onto two copies of the same table (the composite by the table API, the legacy
 *       one by the kernel's legacy builder on a copy that lacks the composite's version) and the
 *       published manifests compared in every field except the three that name or date the
 *       commit: {@code transaction_file} (each form's .txn file has its own uuid name),
 *       {@code transaction_section} (the legacy form stores its transaction inline, the
 *       composite does not: lance-core cannot decode it, decision 0001) and {@code timestamp}
 *       (the publish time); both copies then read the same through lance-core, and lance-core
 *       decodes the legacy transaction as the expected operation;
 * </ol>
 *
 * and, on a table without the config key (the default policy), the table API commits the
 * operation in that legacy form, which lance-core decodes. Both with and without stable row ids.
 */
class WriteFormParityTest {
  static final int DIM = 4;
  static final Set<String> PUBLISH_EXEMPT = Set.of("transaction_file", "transaction_section",
      "timestamp");

  @TempDir Path tmp;

  /** One table-API operation: what it does, what runs before it, its expected legacy form. */
  record Case(String name, String legacy, TableOp before, TableOp op) {
    @Override
    public String toString() {
      return name;
    }
  }

  interface TableOp {
    void run(LanceTable t, BufferAllocator alloc) throws Exception;
  }

  static final TableOp NOTHING = (t, a) -> { };

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    out.add(new Case("append", "Append", NOTHING,
        (t, a) -> {
          try (var rows = new GeneratedRows(a, 5000, 300, 128, DIM)) {
            t.append(rows);
          }
        }));
    out.add(new Case("delete rows", "Delete", NOTHING, (t, a) -> t.delete("id % 10 = 3")));
    out.add(new Case("delete whole fragments", "Delete", NOTHING,
        (t, a) -> t.delete("id < 400 OR id % 9 = 0")));
    out.add(new Case("update", "Update", NOTHING,
        (t, a) -> t.update("id % 7 = 1", Map.of("score", "score * 2"))));
    out.add(new Case("upsert", "Update", NOTHING, (t, a) -> {
      try (var rows = new GeneratedRows(a, 900, 200, 64, DIM)) {
        t.mergeInsert("id").whenMatchedUpdateAll().whenNotMatchedInsertAll().from(rows).commit();
      }
    }));
    out.add(new Case("insert new keys", "Update", NOTHING, (t, a) -> {
      try (var rows = new GeneratedRows(a, 990, 100, 64, DIM)) {
        t.mergeInsert("id").whenNotMatchedInsertAll().from(rows).commit();
      }
    }));
    out.add(new Case("set config", "UpdateConfig", NOTHING,
        (t, a) -> t.newTransaction().setConfig("etl.last_load", "2026-12-01").commit()));
    out.add(new Case("overwrite", "Overwrite", NOTHING,
        (t, a) -> {
          try (var rows = new GeneratedRows(a, 0, 300, 128, DIM)) {
            t.overwrite(rows);
          }
        }));
    out.add(new Case("add a computed column", "Merge", NOTHING, (t, a) -> {
      Schema doubled = new Schema(List.of(Field.nullable("id2", new ArrowType.Int(64, true))));
      t.addColumns().computed(doubled, List.of("id"), (in, allocator) -> {
        VectorSchemaRoot o = VectorSchemaRoot.create(doubled, allocator);
        BigIntVector id = (BigIntVector) in.getVector("id");
        BigIntVector id2 = (BigIntVector) o.getVector("id2");
        id2.allocateNew(in.getRowCount());
        for (int i = 0; i < in.getRowCount(); i++) {
          id2.set(i, id.get(i) * 2);
        }
        o.setRowCount(in.getRowCount());
        return o;
      }).commit();
    }));
    out.add(new Case("add a null column", "Project", NOTHING,
        (t, a) -> t.addColumns().nulls(Field.nullable("note", ArrowType.Utf8.INSTANCE)).commit()));
    out.add(new Case("drop a column", "Project", NOTHING, (t, a) -> t.dropColumns("name")));
    out.add(new Case("rename a column", "Project", NOTHING,
        (t, a) -> t.alterColumns().rename("name", "label").commit()));
    out.add(new Case("cast a column", "Merge", NOTHING, (t, a) -> t.alterColumns()
        .cast("score", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)).commit()));
    out.add(new Case("compaction", "Rewrite", (t, a) -> t.delete("id % 3 = 0"),
        (t, a) -> t.compact().targetRowsPerFragment(1000).materializeDeletionsThreshold(0.1)
            .commit()));
    // docs/decisions/0026: a BTree lance-core built over fragments 0-4, fragment 5 appended
    // after it. With stable row ids both groups are rewritten and the index follows its rows (a
    // Rewrite of two groups); without, the covered group is skipped (a Rewrite of one).
    out.add(new Case("compaction around an index", "Rewrite", (t, a) -> {
      dev.lancet.datafile.lance.LanceDatasets.withDataset(Path.of(t.uri()),
          java.util.Optional.empty(), ds -> ds.createIndex(org.lance.index.IndexOptions.builder(
              List.of("id"), org.lance.index.IndexType.BTREE, org.lance.index.IndexParams.builder()
                  .setScalarIndexParams(org.lance.index.scalar.ScalarIndexParams.create("btree"))
                  .build()).withIndexName("id_idx").build()));
      try (var rows = new GeneratedRows(a, 5000, 300, 128, DIM)) {
        t.append(rows);
      }
      t.delete("id % 3 = 0");
    }, (t, a) -> t.compact().targetRowsPerFragment(1000).commit()));
    return out;
  }

  static Stream<Arguments> casesAndRowIds() {
    List<Arguments> out = new ArrayList<>();
    for (Case c : cases()) {
      out.add(Arguments.of(c, false));
      out.add(Arguments.of(c, true));
    }
    return out.stream();
  }

  private Path table(String name, boolean stable, WriteForm form) throws Exception {
    Path dir = tmp.resolve(name);
    try (BufferAllocator alloc = new RootAllocator();
        var data = new GeneratedRows(alloc, 0, 1000, 128, DIM);
        LanceTable t = LanceTable.create(dir.toString(), data, CreateOptions.builder()
            .storageVersion("2.1").stableRowIds(stable).maxRowsPerFile(200).build())) {
      if (form == WriteForm.COMPOSITE) {
        t.newTransaction().setConfig(WriteForm.CONFIG_KEY, form.configValue()).commit();
      }
    }
    return dir;
  }

  private static void run(Path dir, TableOp op) throws Exception {
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable t = LanceTable.open(dir.toString())) {
      op.run(t, alloc);
    }
  }

  @ParameterizedTest(name = "{0}, stable row ids {1}")
  @MethodSource("casesAndRowIds")
  void legacyFormMatchesTheCompositeForm(Case c, boolean stable) throws Exception {
    Path dir = table("composite", stable, WriteForm.COMPOSITE);
    run(dir, c.before());
    long read = LanceOracle.latestVersion(dir);
    run(dir, c.op());
    long v = read + 1;
    assertThat(LanceOracle.latestVersion(dir)).as("one commit").isEqualTo(v);

    Path legacyDir = tmp.resolve("legacy");
    LegacyOperation lowered;
    try (Table kernel = Table.open(dir.toString())) {
      Snapshot readSnap = kernel.version(read);
      TransactionProtos.Transaction txn = kernel.version(v).transaction().orElseThrow();
      assertThat(txn.getOperationCase()).as("the composite-policy table commits a composite")
          .isEqualTo(TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION);
      assertThat(txn.getReadVersion()).isEqualTo(read);
      CompositeOperation op = ActionCodec.decode(txn.getCompositeOperation());
      LegacyForm.Outcome out = LegacyForm.lower(op, readSnap.manifest(),
          readSnap.indices(), read);
      assertThat(out.operation()).as("lowered (%s)", out.whyNot()).isPresent();
      lowered = out.operation().get();
      assertThat(lowered.operationName()).isEqualTo(c.legacy());

      // 1. Both applies on the read version: every manifest field, nothing exempt.
      CompositeApply.Result composite = CompositeApply.apply(readSnap.manifest(),
          readSnap.indices(), op, read);
      LegacyApply.Result legacy = LegacyApply.apply(readSnap.manifest(), readSnap.indices(),
          lowered, read, new StoreManifestHistory(kernel.store()));
      assertSameManifest(composite.manifest(), legacy.manifest(), Set.of(), "applied");
      assertSameIndices(composite.indices(), legacy.indices());

      // 2. Published: the legacy form onto a copy without the composite's version.
      StatementsInteropTest.copyTree(dir, legacyDir);
      VersionEntry entry = kernel.version(v).entry();
      Files.delete(legacyDir.resolve(entry.path()));
      Files.deleteIfExists(legacyDir.resolve("_versions/latest_version_hint.json"));
    }
    try (Table copy = Table.open(legacyDir.toString())) {
      assertThat(copy.latest().version()).isEqualTo(read);
      copy.newLegacyTransaction(lowered).readVersion(read).commit();
    }
    try (Table a = Table.open(dir.toString()); Table b = Table.open(legacyDir.toString())) {
      Snapshot x = a.version(v);
      Snapshot y = b.version(v);
      assertSameManifest(x.manifest(), y.manifest(), PUBLISH_EXEMPT, "published");
      assertSameIndices(x.indices(), y.indices());
      assertThat(y.manifest().transactionSection()).as("the legacy transaction is inline")
          .isPresent();
      assertThat(y.transaction().orElseThrow().getOperationCase().name().replace("_", ""))
          .isEqualToIgnoringCase(c.legacy());
    }
    assertThat(LanceOracle.snapshot(legacyDir, v).transaction()).as("lance-core decodes it")
        .hasValueSatisfying(t -> assertThat(t.operation()).containsIgnoringCase(c.legacy()));
    assertThat(LanceOracle.rows(legacyDir, v)).as("lance-core reads both the same")
        .isEqualTo(LanceOracle.rows(dir, v));

    // 3. The default policy commits the operation in that legacy form.
    Path byDefault = table("default", stable, WriteForm.DEFAULT);
    run(byDefault, c.before());
    long before = LanceOracle.latestVersion(byDefault);
    run(byDefault, c.op());
    long w = before + 1;
    try (Table kernel = Table.open(byDefault.toString())) {
      TransactionProtos.Transaction txn = kernel.version(w).transaction().orElseThrow();
      assertThat(txn.getOperationCase().name().replace("_", "")).as("the default policy")
          .isEqualToIgnoringCase(c.legacy());
      assertThat(kernel.version(w).manifest().transactionSection()).isPresent();
    }
    assertThat(LanceOracle.snapshot(byDefault, w).transaction())
        .hasValueSatisfying(t -> assertThat(t.operation()).containsIgnoringCase(c.legacy()));
    assertThat(LanceOracle.rows(byDefault, w)).hasSameSizeAs(LanceOracle.rows(dir, v));
  }

  /** Every field of the two manifests' protobuf messages (unknown fields too) but {@code exempt}. */
  static void assertSameManifest(Manifest a, Manifest b, Set<String> exempt, String what) {
    Message x = ManifestCodec.toProto(a);
    Message y = ManifestCodec.toProto(b);
    Set<String> compared = new TreeSet<>();
    for (FieldDescriptor f : x.getDescriptorForType().getFields()) {
      if (exempt.contains(f.getName())) {
        continue;
      }
      compared.add(f.getName());
      assertThat(y.getField(f)).as("%s manifest field %s", what, f.getName())
          .isEqualTo(x.getField(f));
      if (!f.isRepeated() && f.hasPresence()) {
        assertThat(y.hasField(f)).as("%s manifest field %s present", what, f.getName())
            .isEqualTo(x.hasField(f));
      }
    }
    assertThat(y.getUnknownFields()).as("%s manifest unknown fields", what)
        .isEqualTo(x.getUnknownFields());
    assertThat(compared).as("the fields compared").contains("fragments", "fields", "config",
        "table_metadata", "reader_feature_flags", "writer_feature_flags", "schema_metadata",
        "data_format", "next_row_id", "max_fragment_id", "version", "writer_version",
        "base_paths");
  }

  static void assertSameIndices(List<IndexSegment> a, List<IndexSegment> b) {
    assertThat(b.stream().map(IndexCodec::toProto).toList()).as("index segments")
        .isEqualTo(a.stream().map(IndexCodec::toProto).toList());
  }
}
