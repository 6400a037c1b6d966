package dev.lancet.interop.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Versions;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;

/**
 * Lancet composite commits racing lance-core 7.0.0's own maintenance and appends (issue 15,
 * points 2 and 3): a composite planned before a lance-core operation is checked against what
 * that operation really did, lowered against its own read version.
 */
class LanceMaintenanceInteropTest {
  @TempDir Path tmp;

  /**
   * Issue 15 point 3: lance-core's Append drops a fragment whose rows are all deleted. A Lancet
   * column addition planned before it names that fragment: a typed retryable conflict naming
   * the Append (it was an {@code ApplyException}, "bad input", before), and the re-plan lands.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off", "stable-row-ids-on"})
  void aLanceAppendThatDropsAFullyDeletedFragmentIsATypedConflictForAColumnAddition(String fixture)
      throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    long emptied;
    try (Table table = Table.open(dir.toString())) {
      Fragment first = table.latest().manifest().fragments().get(0);
      emptied = first.id();
      deleteEveryRow(dir, table, first);
      assertThat(table.latest().manifest().fragments()).extracting(Fragment::id).contains(emptied);
    }
    TransactionBuilder addColumn = plannedColumnAddition(dir);
    long lanceVersion = LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 5_000, 10);
    try (Table table = Table.open(dir.toString())) {
      assertThat(table.version(lanceVersion).manifest().fragments()).extracting(Fragment::id)
          .as("lance-core's Append drops the fully deleted fragment").doesNotContain(emptied);
    }

    ConflictingCommitException e = catchThrowableOfType(addColumn::commit, ConflictingCommitException.class);
    assertThat(e).as("a typed retryable conflict").isNotNull();
    assertThat(e.version()).isEqualTo(lanceVersion);
    assertThat(e.winnerOperation()).isEqualTo("Append");
    assertThat(e.conflicts()).as(e.getMessage())
        .anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == emptied);
    try (Table table = Table.open(dir.toString())) {
      assertThat(table.latest().version()).as("nothing published").isEqualTo(lanceVersion);
    }

    // The re-plan on the newer version lands and lance-core reads the new column.
    CommitResult again = plannedColumnAddition(dir).commit();
    assertThat(again.version()).isEqualTo(lanceVersion + 1);
    assertThat(LanceOracle.columnNames(dir, again.version())).contains("score");
  }


  /**
   * Issue 15 point 3, the general rule: a Lancet legacy Delete planned before lance-core's
   * Append, removing the fragment the Append dropped (its rows all deleted), passes the legacy
   * matrix (DL/AP is ok) and then finds the fragment gone when it is applied on the newest
   * version: a typed retryable conflict naming the Append and the fragment (it was a bare
   * INVALID_AFTER_REBASE before).
   */
  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off"})
  void aLegacyDeleteOfAFragmentALanceAppendDroppedIsATypedConflict(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    long emptied;
    dev.lancet.core.transaction.LegacyTransactionBuilder delete;
    try (Table table = Table.open(dir.toString())) {
      Fragment first = table.latest().manifest().fragments().get(0);
      emptied = first.id();
      deleteEveryRow(dir, table, first);
      delete = table.newLegacyTransaction(new dev.lancet.core.operation.Delete(List.of(), List.of(emptied),
          "fragment " + emptied + " is empty"));
    }
    long lanceVersion = LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 6_000, 10);
    ConflictingCommitException e = catchThrowableOfType(delete::commit, ConflictingCommitException.class);
    assertThat(e).as("a typed retryable conflict").isNotNull();
    assertThat(e.version()).isEqualTo(lanceVersion);
    assertThat(e.winnerOperation()).isEqualTo("Append");
    assertThat(e.conflicts()).as(e.getMessage())
        .anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == emptied);
  }

  /**
   * Issue 15 point 2, compaction: lance-core compacts the two small fragments (4 and 5) of the
   * table and leaves 0..3 alone. Composite commits planned before it: an append and a delete of
   * rows of fragment 0 land on top of it (lance-core reads them); a delete of rows of fragment 4,
   * which the compaction rewrote, is a typed retryable conflict naming the Rewrite and fragment 4.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off", "stable-row-ids-on"})
  void compositeCommitsLandOverALanceCompactionOfOtherFragments(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 10_000, 10);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 10_010, 10);
    long readVersion;
    List<Long> small;
    try (Table table = Table.open(dir.toString())) {
      readVersion = table.latest().version();
      small = table.latest().manifest().fragments().stream().filter(f -> f.physicalRows() == 10)
          .map(Fragment::id).toList();
    }
    assertThat(small).hasSize(2);
    long untouched = 0;
    TransactionBuilder append = plannedAppend(dir, readVersion, 20_000, 5);
    TransactionBuilder deleteUntouched = plannedDelete(dir, readVersion, untouched, 1);
    TransactionBuilder deleteRewritten = plannedDelete(dir, readVersion, small.get(0), 2);
    long lanceRowsBefore = LanceOracle.snapshot(dir).rowCount();

    long compacted = lanceCompact(dir);
    try (Table table = Table.open(dir.toString())) {
      assertThat(table.version(compacted).transaction().orElseThrow().hasRewrite()).isTrue();
      assertThat(table.version(compacted).manifest().fragments()).extracting(Fragment::id)
          .contains(untouched).doesNotContainAnyElementsOf(small);
    }

    // The lowering against lance-core's own versions: exactly the rewritten fragments removed
    // (the fragments lance-core's version lacks), no inserted rows.
    LocalObjectStore store = new LocalObjectStore(dir);
    var landedSnapshot = dev.lancet.core.version.Snapshot.load(store, Versions.resolve(store, compacted));
    var beforeSnapshot = dev.lancet.core.version.Snapshot.load(store, Versions.resolve(store, compacted - 1));
    var rewrite = landedSnapshot.transaction().orElseThrow();
    var fp = dev.lancet.core.conflict.legacy.LegacyFootprints.ofCommitted(rewrite,
        new dev.lancet.core.conflict.legacy.CommittedVersions(beforeSnapshot.manifest(), beforeSnapshot.indices(),
            landedSnapshot.manifest(), landedSnapshot.indices(), java.util.Optional.of(beforeSnapshot.manifest())))
        .footprint().orElseThrow();
    assertThat(fp.insertsRows()).isFalse();
    assertThat(fp.regions().keySet()).containsExactlyInAnyOrderElementsOf(
        small.stream().map(dev.lancet.core.conflict.Region.Fragment::new).toList());

    ConflictingCommitException e = catchThrowableOfType(deleteRewritten::commit, ConflictingCommitException.class);
    assertThat(e).as("a delete of a rewritten fragment conflicts").isNotNull();
    assertThat(e.version()).isEqualTo(compacted);
    assertThat(e.winnerOperation()).isEqualTo("Rewrite");
    assertThat(e.conflicts()).as(e.getMessage()).anyMatch(c -> c instanceof Collision.Fragment f && f.fragment() == small.get(0)
        || c instanceof Collision.FragmentDeletions d && d.fragment() == small.get(0));

    CommitResult appended = append.commit();
    assertThat(appended.version()).isEqualTo(compacted + 1);
    CommitResult deleted = deleteUntouched.commit();
    assertThat(deleted.version()).isEqualTo(compacted + 2);
    assertThat(LanceOracle.snapshot(dir, deleted.version()).rowCount()).isEqualTo(lanceRowsBefore + 5 - 1);
    assertThat(LanceOracle.countRows(dir, deleted.version(), "id >= 20000")).isEqualTo(5);
  }

  /**
   * Issue 15 point 2: lance-core's Merge (add columns), Project (rename, drop), UpdateConfig and
   * ReserveFragments, each lowered against its own read version and applied there, give the
   * manifest lance-core wrote (schema, fragments, config, counters); a composite append planned
   * before each lands on top of it, and a composite that names what it changed collides.
   */
  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off", "stable-row-ids-on"})
  void lanceSchemaAndConfigChangesLowerToTheirOwnPostImages(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    String uri = dir.toAbsolutePath().toString();
    List<Long> changes = new ArrayList<>();
    List<CommitResult> landed = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      // Merge: a (nullable) column with data in every fragment.
      changes.add(lanceChange(dir, landed, () -> {
        try (Dataset ds = Dataset.open(uri, alloc)) {
          ds.addColumns(new org.lance.schema.SqlExpressions.Builder().withExpression("plus", "upper(name)").build(),
              java.util.Optional.empty());
        }
      }));
      // Merge: an all-null column (no data files).
      changes.add(lanceChange(dir, landed, () -> {
        try (Dataset ds = Dataset.open(uri, alloc)) {
          ds.addColumns(List.of(org.apache.arrow.vector.types.pojo.Field.nullable("note", ArrowType.Utf8.INSTANCE)));
        }
      }));
      // Project: a rename, then a drop.
      changes.add(lanceChange(dir, landed, () -> {
        try (Dataset ds = Dataset.open(uri, alloc)) {
          ds.alterColumns(List.of(new org.lance.schema.ColumnAlteration.Builder("plus").rename("plus_one").build()));
        }
      }));
      changes.add(lanceChange(dir, landed, () -> {
        try (Dataset ds = Dataset.open(uri, alloc)) {
          ds.dropColumns(List.of("plus_one"));
        }
      }));
      // UpdateConfig and ReserveFragments.
      changes.add(lanceChange(dir, landed, () -> {
        try (Dataset ds = Dataset.open(uri, alloc)) {
          ds.updateConfig(Map.of("lancet.maintenance", "1"));
        }
      }));
      changes.add(lanceChange(dir, landed, () -> {
        try (Dataset ds = Dataset.open(uri, alloc);
            var txn = ds.newTransactionBuilder()
                .operation(org.lance.operation.ReserveFragments.builder().numFragments(3).build()).build()) {
          txn.commit().close();
        }
      }));
    }
    LocalObjectStore store = new LocalObjectStore(dir);
    List<String> kinds = new ArrayList<>();
    for (long v : changes) {
      var after = dev.lancet.core.version.Snapshot.load(store, Versions.resolve(store, v));
      var txn = after.transaction().orElseThrow();
      var read = dev.lancet.core.version.Snapshot.load(store, Versions.resolve(store, txn.getReadVersion()));
      kinds.add(dev.lancet.format.layout.TransactionFile.operationName(txn));
      dev.lancet.core.action.CompositeOperation lowered = switch (txn.getOperationCase()) {
        case MERGE -> dev.lancet.core.conflict.legacy.LegacyLowering.merge(read.manifest(), after.manifest())
            .operation().orElseThrow();
        case PROJECT -> dev.lancet.core.conflict.legacy.LegacyLowering.project(read.manifest(), after.manifest())
            .operation().orElseThrow();
        case UPDATE_CONFIG -> dev.lancet.core.conflict.legacy.LegacyLowering.updateConfig(txn).operation().orElseThrow();
        case RESERVE_FRAGMENTS -> dev.lancet.core.conflict.legacy.LegacyLowering.reserveFragments(txn)
            .operation().orElseThrow();
        default -> throw new AssertionError(txn.getOperationCase());
      };
      // Applied to its own read version, the lowering gives lance-core's post-image.
      Manifest applied = dev.lancet.core.apply.CompositeApply.apply(read.manifest(), read.indices(), lowered,
          read.version()).manifest();
      assertThat(applied.schema()).as("schema of v%d", v).isEqualTo(after.manifest().schema());
      assertThat(applied.fragments()).as("fragments of v%d", v).isEqualTo(after.manifest().fragments());
      assertThat(applied.maxFragmentId()).as("max fragment id of v%d", v).isEqualTo(after.manifest().maxFragmentId());
      assertThat(applied.nextRowId()).as("next row id of v%d", v).isEqualTo(after.manifest().nextRowId());
      assertThat(applied.config()).as("config of v%d", v).isEqualTo(after.manifest().config());
      assertThat(applied.tableMetadata()).as("table metadata of v%d", v).isEqualTo(after.manifest().tableMetadata());
      var lowering = dev.lancet.core.conflict.legacy.LegacyFootprints.ofCommitted(txn,
          new dev.lancet.core.conflict.legacy.CommittedVersions(read.manifest(), read.indices(), after.manifest(),
              after.indices(), java.util.Optional.of(read.manifest())));
      assertThat(lowering.footprint()).as("v%d has a footprint: %s", v, lowering.whyNot()).isPresent();
    }
    assertThat(kinds).containsExactly("Merge", "Merge", "Project", "Project", "UpdateConfig", "ReserveFragments");
    for (int i = 0; i < landed.size(); i++) {
      assertThat(landed.get(i).version()).as("the append planned before v%d", changes.get(i))
          .isEqualTo(changes.get(i) + 1);
    }
    assertThat(LanceOracle.countRows(dir, LanceOracle.latestVersion(dir), "id >= 30000")).isEqualTo(changes.size());
  }

  /** The composite collides with what lance-core's change did: the same config key, the same column name. */
  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off"})
  void aCompositeThatNamesWhatALanceChangeChangedCollides(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    String uri = dir.toAbsolutePath().toString();
    long read = latest(dir);
    TransactionBuilder sameKey = new TransactionBuilder(new LocalObjectStore(dir), dir.toString(), read)
        .step("set the key lance-core sets", s -> s.setConfig("lancet.maintenance", "lancet"));
    TransactionBuilder sameName = new TransactionBuilder(new LocalObjectStore(dir), dir.toString(), read)
        .step("add the column lance-core adds", s -> s.addField(0,
            Field.builder(0, "plus", "int64").nullable(true).build()));
    try (BufferAllocator alloc = new RootAllocator(); Dataset ds = Dataset.open(uri, alloc)) {
      ds.updateConfig(Map.of("lancet.maintenance", "1"));
    }
    try (BufferAllocator alloc = new RootAllocator(); Dataset ds = Dataset.open(uri, alloc)) {
      ds.addColumns(new org.lance.schema.SqlExpressions.Builder().withExpression("plus", "id + 1").build(),
          java.util.Optional.empty());
    }
    ConflictingCommitException key = catchThrowableOfType(sameKey::commit, ConflictingCommitException.class);
    assertThat(key).isNotNull();
    assertThat(key.winnerOperation()).isEqualTo("UpdateConfig");
    assertThat(key.conflicts()).as(key.getMessage()).anyMatch(c -> c instanceof Collision.Config);
    ConflictingCommitException name = catchThrowableOfType(sameName::commit, ConflictingCommitException.class);
    assertThat(name).isNotNull();
    assertThat(name.winnerOperation()).isEqualTo("Merge");
    assertThat(name.conflicts()).as(name.getMessage()).anyMatch(c -> c instanceof Collision.Schema);
  }

  /**
   * lance-core's Overwrite and Restore replace the table: a composite planned before either is a
   * typed retryable whole-table conflict naming it (no longer "no faithful footprint").
   */
  @ParameterizedTest
  @ValueSource(strings = {"restore", "overwrite"})
  void aLanceRestoreOrOverwriteIsAWholeTableConflict(String op) throws Exception {
    Path dir = SharedFixtures.copy("stable-row-ids-off", tmp);
    String uri = dir.toAbsolutePath().toString();
    TransactionBuilder append = plannedAppend(dir, latest(dir), 40_000, 3);
    try (BufferAllocator alloc = new RootAllocator()) {
      if (op.equals("restore")) {
        try (Dataset ds = Dataset.open(uri, alloc); Dataset old = ds.checkoutVersion(1)) {
          old.restore();
        }
      } else {
        Dataset.create(alloc, uri, LanceFixtures.SIMPLE_SCHEMA, new org.lance.WriteParams.Builder()
            .withMode(org.lance.WriteParams.WriteMode.OVERWRITE).build()).close();
      }
    }
    ConflictingCommitException e = catchThrowableOfType(append::commit, ConflictingCommitException.class);
    assertThat(e).isNotNull();
    assertThat(e.winnerOperation()).isEqualTo(op.equals("restore") ? "Restore" : "Overwrite");
    assertThat(e.conflicts()).as(e.getMessage()).anyMatch(c -> c instanceof Collision.WholeTable);
  }

  /** Runs a lance-core change with a composite append planned just before it and committed after. */
  private static long lanceChange(Path dir, List<CommitResult> landed, Runnable change) throws IOException {
    long read = latest(dir);
    TransactionBuilder append = plannedAppend(dir, read, 30_000 + landed.size(), 1);
    change.run();
    long v = latest(dir);
    landed.add(append.commit());
    return v;
  }

  private static long lanceCompact(Path dir) {
    try (BufferAllocator alloc = new RootAllocator();
        Dataset ds = Dataset.open(dir.toAbsolutePath().toString(), alloc)) {
      ds.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(50)
          .withMaterializeDeletions(false).build());
      return ds.latestVersion();
    }
  }

  /** A composite append of rows {@code start..start+n-1}, planned on {@code readVersion}. */
  private static TransactionBuilder plannedAppend(Path dir, long readVersion, long start, int n) throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    try (Table table = Table.open(dir.toString()); BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA, start, n)) {
      Manifest m = table.version(readVersion).manifest();
      DataFile layout = m.fragments().get(0).files().get(0);
      String fileVersion = layout.fileMajorVersion() + "." + layout.fileMinorVersion();
      String name = "lancet-v2-" + UUID.randomUUID() + ".lance";
      long size = LanceFixtures.writeDataFile(dir.resolve("data").resolve(name), root, fileVersion);
      DataFile file = new DataFile(name, layout.fields(), layout.columnIndices(), layout.fileMajorVersion(),
          layout.fileMinorVersion(), size);
      Ref[] fields = layout.fields().stream().map(id -> Ref.committed(id)).toArray(Ref[]::new);
      return new TransactionBuilder(store, dir.toString(), readVersion)
          .step("append " + n + " rows", s -> s.addFragment(0, n).addDataFile(Ref.local(0), file, fields));
    }
  }

  /** A composite delete of {@code rows} more rows of fragment {@code fragment}, planned on {@code readVersion}. */
  private static TransactionBuilder plannedDelete(Path dir, long readVersion, long fragment, int rows)
      throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    try (Table table = Table.open(dir.toString())) {
      Fragment f = table.version(readVersion).manifest().fragments().stream().filter(x -> x.id() == fragment)
          .findFirst().orElseThrow();
      DeletionVector existing = DeletionVector.empty();
      if (f.deletionFile().isPresent()) {
        DeletionFile d = f.deletionFile().get();
        String path = DeletionFileNames.DIRECTORY + "/" + d.fileName(f.id());
        existing = DeletionFileFormat.read(store.get(path), d.kind(), path);
      }
      DeletionVector post = existing;
      int added = 0;
      for (int i = 0; added < rows; i++) {
        if (!existing.contains(i)) {
          post = post.union(DeletionVector.of(i));
          added++;
        }
      }
      DeletionFile df = new DeletionFile(DeletionFile.Kind.BITMAP, readVersion, DeletionFileNames.newId(),
          post.cardinality());
      store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(f.id()), DeletionFileFormat.writeBitmap(post));
      return new TransactionBuilder(store, dir.toString(), readVersion)
          .step("delete rows of fragment " + fragment, s -> s.setDeletionFile(fragment, df));
    }
  }

  // -------------------------------------------------------------------------------------------

  /** A composite SetDeletionFile deleting every row of {@code f} (the fragment is kept). */
  private static void deleteEveryRow(Path dir, Table table, Fragment f) throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    long readVersion = table.latest().version();
    DeletionVector all = DeletionVector.ofRange(0, f.physicalRows());
    DeletionFile df = new DeletionFile(DeletionFile.Kind.BITMAP, readVersion, DeletionFileNames.newId(),
        all.cardinality());
    store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(f.id()), DeletionFileFormat.writeBitmap(all));
    new TransactionBuilder(store, dir.toString(), readVersion)
        .step("delete every row of fragment " + f.id(), s -> s.setDeletionFile(f.id(), df))
        .commit();
  }

  /** A column {@code score} with a data file in every fragment, planned on the latest version. */
  private static TransactionBuilder plannedColumnAddition(Path dir) throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    try (Table table = Table.open(dir.toString()); BufferAllocator alloc = new RootAllocator()) {
      Manifest read = table.latest().manifest();
      String fileVersion = LanceOracle.snapshot(dir, read.version()).dataStorageVersion();
      List<Long> fragments = new ArrayList<>();
      List<DataFile> files = new ArrayList<>();
      for (Fragment f : read.fragments()) {
        int rows = Math.toIntExact(f.physicalRows());
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
            org.apache.arrow.vector.types.pojo.Field.nullable("score", new ArrowType.Int(32, true)))), alloc)) {
          IntVector v = (IntVector) root.getVector("score");
          v.allocateNew(rows);
          for (int i = 0; i < rows; i++) {
            v.set(i, i);
          }
          v.setValueCount(rows);
          root.setRowCount(rows);
          String name = "lancet-v2-" + UUID.randomUUID() + ".lance";
          long size = LanceFixtures.writeDataFile(dir.resolve("data").resolve(name), root, fileVersion);
          String[] mm = fileVersion.split("\\.");
          files.add(new DataFile(name, List.of(), List.of(0), Integer.parseInt(mm[0]), Integer.parseInt(mm[1]), size));
          fragments.add(f.id());
        }
      }
      Field score = Field.builder(0, "score", "int32").nullable(true).build();
      return new TransactionBuilder(store, dir.toString(), read.version())
          .step("add column score", s -> {
            s.addField(0, score);
            for (int i = 0; i < fragments.size(); i++) {
              s.addDataFile(Ref.committed(fragments.get(i)), files.get(i), Ref.local(0));
            }
          });
    }
  }

  private static long latest(Path dir) throws IOException {
    return Versions.latest(new LocalObjectStore(dir)).orElseThrow().version();
  }
}
