package dev.lancet.interop.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.WriteParams;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.merge.MergeInsertParams;
import org.lance.operation.Overwrite;
import org.lance.operation.ReserveFragments;
import org.lance.operation.UpdateConfig;
import org.lance.operation.UpdateMap;
import org.lance.schema.ColumnAlteration;
import org.lance.schema.SqlExpressions;

/**
 * Lancet commits each legacy operation lance-core's Java API can produce, and lance-core reads
 * the result exactly as its own.
 *
 * <p>Two copies of one lance-core table: lance-core performs the operation on the first; Lancet
 * decodes the transaction lance-core recorded and commits that operation with {@code
 * newLegacyTransaction} on the second (the data, deletion and index files the operation refers
 * to are copied over first: they are its input, as a writer would have written them). lance-core
 * must then see the same version on both copies (rows, schema, fragments, deletions, indices,
 * config and metadata), decode the same operation from Lancet's transaction, and commit on top.
 */
class LegacyOperationsInteropTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"Append", "Delete", "Overwrite", "CreateIndex", "DropIndex", "Rewrite",
      "MergeAddColumn", "ProjectDrop", "ProjectRename", "UpdateConfig", "ReserveFragments",
      "Restore", "DeleteWithIndex", "MergeInsertUpdate"})
  void lancetCommitsTheOperationAsLanceCoreDoes(String kind) throws Exception {
    Path base = LiveTable.create(tmp.resolve("base"));
    // Deletion files in every fragment, so that every operation meets them.
    lance(base, ds -> ds.delete("id % 10 = 0"));
    if (kind.equals("DropIndex") || kind.equals("DeleteWithIndex")) {
      lance(base, ds -> createIndex(ds));
    }
    long before = LanceOracle.latestVersion(base);
    Path theirs = copy(base, tmp.resolve("lance"));
    Path ours = copy(base, tmp.resolve("lancet"));

    String expectedOperation = perform(kind, theirs);
    long after = LanceOracle.latestVersion(theirs);
    assertThat(after).as("lance-core committed").isGreaterThan(before);

    List<String> seen = new ArrayList<>();
    for (long v = before + 1; v <= after; v++) {
      seen.add(mirror(theirs, ours, v));
      compare(theirs, ours, v);
    }
    assertThat(seen).as("operations lance-core recorded").contains(expectedOperation);

    lanceCommitsOnTop(ours, after);
  }

  /** lance-core performs {@code kind} on {@code dir}; returns the operation it should record. */
  private static String perform(String kind, Path dir) {
    switch (kind) {
      case "Append" -> {
        LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 5_000, 50);
        return "Append";
      }
      case "Delete", "DeleteWithIndex" -> {
        lance(dir, ds -> ds.delete("id % 7 = 1 OR id >= 200"));
        return "Delete";
      }
      case "Overwrite" -> {
        lance(dir, ds -> {
          try (BufferAllocator alloc = new RootAllocator();
              VectorSchemaRoot root = LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA, 7_000, 40)) {
            List<FragmentMetadata> fragments = org.lance.Fragment.create(ds.uri(), alloc, root,
                new WriteParams.Builder().build());
            Overwrite op = Overwrite.builder().fragments(fragments).schema(LanceFixtures.SIMPLE_SCHEMA)
                .configUpsertValues(Map.of("lancet.overwritten", "yes")).build();
            try (var txn = ds.newTransactionBuilder().operation(op).build()) {
              txn.commit().close();
            }
          }
        });
        return "Overwrite";
      }
      case "CreateIndex" -> {
        lance(dir, LegacyOperationsInteropTest::createIndex);
        return "CreateIndex";
      }
      case "DropIndex" -> {
        lance(dir, ds -> ds.dropIndex(LanceFixtures.INDEX_NAME));
        return "CreateIndex"; // Lance records a drop as CreateIndex with removed indices only
      }
      case "Rewrite" -> {
        lance(dir, Dataset::compact);
        return "Rewrite";
      }
      case "MergeAddColumn" -> {
        lance(dir, ds -> ds.addColumns(
            new SqlExpressions.Builder().withExpression("double_id", "id * 2").build(), Optional.empty()));
        return "Merge";
      }
      case "ProjectDrop" -> {
        lance(dir, ds -> ds.dropColumns(List.of("name")));
        return "Project";
      }
      case "ProjectRename" -> {
        lance(dir, ds -> ds.alterColumns(List.of(new ColumnAlteration.Builder("name").rename("label").build())));
        return "Project";
      }
      case "UpdateConfig" -> {
        lance(dir, ds -> {
          UpdateConfig op = UpdateConfig.builder()
              .configUpdates(UpdateMap.builder().updates(Map.of("lancet.k", "v")).replace(false).build())
              .tableMetadataUpdates(UpdateMap.builder().updates(Map.of("owner", "live")).replace(false).build())
              .schemaMetadataUpdates(UpdateMap.builder().updates(Map.of("note", "x")).replace(false).build())
              .build();
          try (var txn = ds.newTransactionBuilder().operation(op).build()) {
            txn.commit().close();
          }
        });
        return "UpdateConfig";
      }
      case "ReserveFragments" -> {
        lance(dir, ds -> {
          try (var txn = ds.newTransactionBuilder()
              .operation(ReserveFragments.builder().numFragments(3).build()).build()) {
            txn.commit().close();
          }
        });
        // Visible through the next append's fragment id: 3 ids are skipped.
        LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 6_000, 10);
        return "ReserveFragments";
      }
      case "MergeInsertUpdate" -> {
        // Ids 50..69 exist (re-written with their values: an update), 9000..9009 are new.
        lance(dir, ds -> {
          List<Long> ids = new ArrayList<>();
          LongStream.range(50, 70).forEach(ids::add);
          LongStream.range(9_000, 9_010).forEach(ids::add);
          try (BufferAllocator alloc = new RootAllocator()) {
            byte[] ipc = ipc(ids);
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), alloc);
                ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
              Data.exportArrayStream(alloc, reader, stream);
              ds.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll()
                  .withNotMatched(MergeInsertParams.WhenNotMatched.InsertAll), stream).dataset().close();
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        return "Update";
      }
      case "Restore" -> {
        lance(dir, ds -> {
          try (Dataset old = ds.checkoutVersion(2)) {
            old.restore();
          }
        });
        return "Restore";
      }
      default -> throw new IllegalArgumentException(kind);
    }
  }

  /**
   * Decodes the transaction lance-core recorded for {@code version} of {@code theirs} and commits
   * its operation with Lancet on {@code ours} (at {@code version - 1}); returns its name.
   */
  private static String mirror(Path theirs, Path ours, long version) throws IOException {
    TransactionProtos.Transaction lanceTxn;
    try (Table t = Table.open(theirs.toString())) {
      lanceTxn = t.version(version).transaction().orElseThrow();
    }
    LegacyOperation op = LegacyOperationCodec.decode(lanceTxn);
    copyNewFiles(theirs, ours);
    CommitResult result;
    try (Table t = Table.open(ours.toString())) {
      assertThat(t.latest().version()).isEqualTo(version - 1);
      result = t.newLegacyTransaction(op).readVersion(lanceTxn.getReadVersion()).commit();
      assertThat(result.version()).as("Lancet published %s as version %d", op.operationName(), version)
          .isEqualTo(version);
      TransactionProtos.Transaction stored = t.version(version).transaction().orElseThrow();
      assertThat(stored.getUuid()).isEqualTo(result.transactionUuid());
      assertThat(LegacyOperationCodec.decode(stored)).as("Lancet's stored operation").isEqualTo(op);
    }
    // lance-core decodes Lancet's transaction as the same operation.
    LanceOracle.TransactionView mine = LanceOracle.snapshot(ours, version).transaction().orElseThrow();
    LanceOracle.TransactionView original = LanceOracle.snapshot(theirs, version).transaction().orElseThrow();
    assertThat(mine.operation()).isEqualTo(original.operation());
    assertThat(mine.readVersion()).isEqualTo(original.readVersion());
    assertThat(mine.uuid()).isEqualTo(result.transactionUuid());
    assertThat(TransactionFile.operationName(lanceTxn)).isEqualTo(op.operationName());
    return op.operationName();
  }

  /**
   * lance-core sees version {@code v} of both copies alike, fragment ids and row addresses
   * included (an Overwrite numbers its fragments from 0 in both).
   */
  private static void compare(Path theirs, Path ours, long v) {
    LanceOracle.TableSnapshot a = LanceOracle.snapshot(theirs, v);
    LanceOracle.TableSnapshot b = LanceOracle.snapshot(ours, v);
    assertThat(b.version()).isEqualTo(v);
    assertThat(b.rowCount()).isEqualTo(a.rowCount());
    assertThat(b.fields()).isEqualTo(a.fields());
    assertThat(b.schemaMetadata()).isEqualTo(a.schemaMetadata());
    assertThat(b.config()).isEqualTo(a.config());
    assertThat(b.tableMetadata()).isEqualTo(a.tableMetadata());
    assertThat(b.dataStorageVersion()).isEqualTo(a.dataStorageVersion());
    assertThat(b.stableRowIds()).isEqualTo(a.stableRowIds());
    assertThat(b.fragments()).isEqualTo(a.fragments());
    assertThat(b.indices()).extracting(i -> i.name() + i.fields() + i.fragments() + i.uuid())
        .isEqualTo(a.indices().stream().map(i -> i.name() + i.fields() + i.fragments() + i.uuid()).toList());
    assertThat(b.summary()).isEqualTo(a.summary());
    assertThat(LanceOracle.rows(ours, v)).isEqualTo(LanceOracle.rows(theirs, v));
    assertThat(LanceOracle.columnChecksums(ours, v)).isEqualTo(LanceOracle.columnChecksums(theirs, v));
    assertThat(LanceOracle.rowIdentities(ours, v)).isEqualTo(LanceOracle.rowIdentities(theirs, v));
    assertThat(highWaterMark(ours, v)).as("max_fragment_id").isEqualTo(highWaterMark(theirs, v));
  }

  /** The {@code max_fragment_id} stored in version {@code v}'s manifest. */
  private static java.util.OptionalLong highWaterMark(Path dir, long v) {
    try (Table t = Table.open(dir.toString())) {
      return t.version(v).manifest().maxFragmentId();
    }
  }

  /** lance-core deletes a row on top of Lancet's version, and Lancet reads the result. */
  private static void lanceCommitsOnTop(Path dir, long version) {
    long rows = LanceOracle.countRows(dir, version);
    long doomed = LanceOracle.countRows(dir, version, "id = 11 OR id = 7001");
    lance(dir, ds -> ds.delete("id = 11 OR id = 7001"));
    assertThat(LanceOracle.latestVersion(dir)).isEqualTo(version + 1);
    assertThat(LanceOracle.countRows(dir, version + 1)).isEqualTo(rows - doomed);
    try (Table t = Table.open(dir.toString())) {
      assertThat(t.latest().version()).isEqualTo(version + 1);
      assertThat(t.latest().manifest().liveRows()).isEqualTo(rows - doomed);
      assertThat(t.latest().transaction().orElseThrow().hasDelete()).isTrue();
    }
  }

  /** Rows {@code ids} of the simple schema (values per {@link LanceFixtures#name}) as Arrow IPC. */
  private static byte[] ipc(List<Long> ids) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(LanceFixtures.SIMPLE_SCHEMA, alloc)) {
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector name = (VarCharVector) root.getVector("name");
      id.allocateNew(ids.size());
      name.allocateNew(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        id.set(i, ids.get(i));
        String value = LanceFixtures.name(ids.get(i));
        if (value == null) {
          name.setNull(i);
        } else {
          name.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
        }
      }
      id.setValueCount(ids.size());
      name.setValueCount(ids.size());
      root.setRowCount(ids.size());
      try (ArrowStreamWriter w = new ArrowStreamWriter(root, null, bos)) {
        w.start();
        w.writeBatch();
        w.end();
      }
    }
    return bos.toByteArray();
  }

  private static void createIndex(Dataset ds) {
    IndexParams ip = IndexParams.builder().setScalarIndexParams(ScalarIndexParams.create("btree")).build();
    ds.createIndex(IndexOptions.builder(List.of("id"), IndexType.BTREE, ip)
        .withIndexName(LanceFixtures.INDEX_NAME).replace(true).build());
  }

  private static void lance(Path dir, Consumer<Dataset> change) {
    LanceOracle.withDataset(dir, java.util.OptionalLong.empty(), ds -> {
      change.accept(ds);
      return null;
    });
  }

  /** A byte copy of a whole table. */
  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  /** Copies the data, deletion and index files of {@code from} that {@code to} lacks. */
  private static void copyNewFiles(Path from, Path to) {
    for (String sub : List.of("data", "_deletions", "_indices")) {
      Path root = from.resolve(sub);
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(root)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Path target = to.resolve(from.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else if (!Files.exists(target)) {
            Files.copy(p, target);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
