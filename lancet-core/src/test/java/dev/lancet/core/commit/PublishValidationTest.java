package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lancet.core.Table;
import dev.lancet.core.action.AddBase;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.operation.Append;
import dev.lancet.core.operation.Clone;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.Merge;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.operation.UpdateBases;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.transaction.StepBuilder;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 10, part 1: a commit whose manifest Lancet's reader or lance-core would refuse is
 * invalid input, names the action and the fragment, field or file, and writes nothing (no .txn
 * file either). The table: {@code id int64 not null} (0), {@code name string} (1), fragments 0
 * and 1 of 10 rows, each with one data file of both fields.
 */
class PublishValidationTest {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.builder(0, "id", "int64").nullable(false).build(),
      Field.builder(1, "name", "string").build()), Map.of());

  @TempDir Path dir;
  LocalObjectStore store;
  Table table;

  @BeforeEach
  void createTable() throws Exception {
    Manifest v1 = Manifest.builder()
        .version(1)
        .schema(SCHEMA)
        .fragments(List.of(fragment(0, "f0.lance"), fragment(1, "f1.lance")))
        .maxFragmentId(OptionalLong.of(1))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    store = new LocalObjectStore(dir);
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    table = Table.open(dir.toString(), store);
  }

  private static Fragment fragment(long id, String path) {
    return Fragment.of(id, 10, List.of(new DataFile(path, List.of(0, 1), List.of(0, 1), 2, 1, 100)));
  }

  /** A new data file of both fields, written to the store (so only the defect under test fails). */
  private DataFile newFile(String path) throws IOException {
    DataFile f = new DataFile(path, List.of(), List.of(0, 1), 2, 1, 64);
    if (dev.lancet.format.layout.RelativePath.problem(path) == null && !path.contains(":")) {
      store.put("data/" + path, new byte[64]);
    }
    return f;
  }

  /** Every file of the table with its size: a failed commit must leave this unchanged. */
  private SortedMap<String, Long> files() throws IOException {
    SortedMap<String, Long> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p)) {
          out.put(dir.relativize(p).toString(), Files.size(p));
        }
      }
    }
    return out;
  }

  private ApplyException composite(Consumer<StepBuilder> body) throws IOException {
    SortedMap<String, Long> before = files();
    TransactionBuilder b = table.newTransaction().step("the step", body);
    Throwable e = catchThrowable(b::commit);
    assertThat(e).as("commit should fail").isInstanceOf(ApplyException.class);
    assertThat(files()).as("nothing written, not even the .txn file").isEqualTo(before);
    assertThat(table.latest().version()).isEqualTo(1);
    return (ApplyException) e;
  }

  private ApplyException legacy(LegacyOperation op) throws IOException {
    SortedMap<String, Long> before = files();
    Throwable e = catchThrowable(() -> table.newLegacyTransaction(op).commit());
    assertThat(e).as("commit should fail").isInstanceOf(ApplyException.class);
    assertThat(files()).as("nothing written, not even the .txn file").isEqualTo(before);
    return (ApplyException) e;
  }

  // ---- paths -----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"../../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "a/./b.lance",
      "a//b.lance", "a\\b.lance", "C:/x.lance", "", "a\u0000b"})
  void aDataFileOutsideTheTableIsRefusedBeforeAnythingIsWritten(String path) throws Exception {
    DataFile file = newFile(path);
    ApplyException e = composite(s -> s.addFragment(0, 10)
        .addDataFile(Ref.local(0), file, Ref.committed(0), Ref.committed(1)));
    assertThat(e.where()).contains("action 2 (AddDataFile)");
    assertThat(e.problem()).contains("fragment 2 data file");
  }

  @Test
  void aHundredThousandCharacterPathIsRefusedWithABoundedMessage() throws Exception {
    DataFile file = newFile("a".repeat(100_000) + ".lance");
    ApplyException e = composite(s -> s.addFragment(0, 10)
        .addDataFile(Ref.local(0), file, Ref.committed(0), Ref.committed(1)));
    assertThat(e.problem()).contains("more than 4096");
    assertThat(e.getMessage().length()).isLessThan(600);
  }

  // ---- fragments and rows ----------------------------------------------------------------------

  @Test
  void aFragmentWithNoDataFileIsRefused() throws Exception {
    ApplyException e = composite(s -> s.addFragment(0, 10));
    assertThat(e.where()).contains("action 1 (AddFragment)");
    assertThat(e.problem()).contains("fragment 2 has no data files");
  }

  @Test
  void physicalRowsZeroOrBeyondThirtyTwoBitsIsRefused() throws Exception {
    DataFile file = newFile("rows.lance");
    assertThat(composite(s -> s.addFragment(0, 0)
        .addDataFile(Ref.local(0), file, Ref.committed(0), Ref.committed(1))).problem())
        .contains("physical_rows 0");
    assertThat(composite(s -> s.addFragment(0, -1)
        .addDataFile(Ref.local(0), file, Ref.committed(0), Ref.committed(1))).problem())
        .contains("physical_rows 18446744073709551615");
  }

  @Test
  void aFragmentLackingANonNullableFieldIsRefused() throws Exception {
    DataFile onlyName = new DataFile("name.lance", List.of(), List.of(0), 2, 1, 64);
    store.put("data/name.lance", new byte[64]);
    ApplyException e = composite(s -> s.addFragment(0, 10).addDataFile(Ref.local(0), onlyName, Ref.committed(1)));
    assertThat(e.problem()).contains("fragment 2 has no data for non-nullable field 0 ('id')");
  }

  @Test
  void aNewNonNullableFieldMustBeBackedInEveryFragment() throws Exception {
    DataFile scoreFor0 = new DataFile("score0.lance", List.of(), List.of(0), 2, 1, 64);
    store.put("data/score0.lance", new byte[64]);
    ApplyException e = composite(s -> s
        .addField(0, Field.builder(0, "score", "int32").nullable(false).build())
        .addDataFile(Ref.committed(0), scoreFor0, Ref.local(0)));
    assertThat(e.problem()).contains("fragment 1 has no data for non-nullable field 2 ('score')");
    assertThat(e.where()).contains("action 1 (AddField)");
  }

  @Test
  void aDataFileStoringAFieldTheSchemaDoesNotHaveIsRefused() throws Exception {
    ApplyException e = composite(s -> s.addFragment(0, 10)
        .addDataFile(Ref.local(0), new DataFile("x.lance", List.of(), List.of(0), 2, 1, 64), Ref.committed(9)));
    assertThat(e.problem()).contains("stores field 9, which does not exist");
  }

  @Test
  void resetTableFollowedByDataForTheDroppedSchemaIsRefused() throws Exception {
    DataFile file = newFile("reset.lance");
    ApplyException e = composite(s -> s.action(new dev.lancet.core.action.ResetTable())
        .addField(0, Field.builder(0, "k", "int64").build())
        .addFragment(0, 10).addDataFile(Ref.local(0), file, Ref.committed(0), Ref.committed(1)));
    assertThat(e.problem()).contains("stores field 0, which does not exist any more");
  }

  // ---- schema ----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"", "a.b", "_rowid", "_rowaddr", "_rowoffset", "id"})
  void aNewFieldWithABadNameIsRefused(String name) throws Exception {
    ApplyException e = composite(s -> s.addField(0, Field.builder(0, name, "int32").build()));
    assertThat(e.where()).contains("action 1 (AddField)");
    assertThat(e.problem()).containsAnyOf("empty name", "'.'", "system column", "two fields are named");
  }

  @Test
  void twoNewFieldsWithOneNameAndARenameOntoAnExistingNameAreRefused() throws Exception {
    assertThat(composite(s -> s.addField(0, Field.builder(0, "x", "int32").build())
        .addField(1, Field.builder(0, "x", "int32").build())).problem()).contains("two fields are named 'x'");
    assertThat(composite(s -> s.action(AlterField.rename(Ref.committed(1), "id"))).problem())
        .contains("two fields are named 'id'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"float64", "int", "timestamp:xs:-", "fixed_size_list:float:0", "decimal:64:10:2",
      "dict:string", "fixed_size_list:list:4"})
  void aLogicalTypeLanceDoesNotKnowIsRefused(String type) throws Exception {
    ApplyException e = composite(s -> s.addField(0, Field.builder(0, "v", type).build()));
    assertThat(e.problem()).contains("logical type '" + type + "', which Lance cannot read");
  }

  @Test
  void aChildUnderANonStructFieldIsRefused() throws Exception {
    ApplyException e = composite(s -> s.addChildField(0, Ref.committed(0), Field.builder(0, "kid", "int32").build()));
    assertThat(e.problem()).contains("is a child of field 0 ('id'), whose type 'int64' has no child fields");
  }

  @Test
  void droppingEveryFieldIsRefused() throws Exception {
    ApplyException e = composite(s -> s.dropField(Ref.committed(0)).dropField(Ref.committed(1)));
    assertThat(e.problem()).contains("the schema has no fields");
  }

  @Test
  void anOverwriteWithDuplicateFieldIdsOrNoFieldsIsRefused() throws Exception {
    Schema dup = new Schema(List.of(Field.builder(0, "a", "int64").build(), Field.builder(0, "b", "int64").build()), Map.of());
    assertThat(legacy(new Overwrite(List.of(), dup, Map.of(), List.of())).problem()).contains("field id 0 appears twice");
    assertThat(legacy(new Overwrite(List.of(), Schema.EMPTY, Map.of(), List.of())).problem()).contains("no fields");
  }

  // ---- legacy operations -----------------------------------------------------------------------

  @Test
  void aLegacyAppendOfAFileWithNoFieldsIsRefusedNotPruned() throws Exception {
    store.put("data/nofields.lance", new byte[64]);
    Fragment f = Fragment.of(0, 10, List.of(new DataFile("nofields.lance", List.of(), List.of(), 2, 1, 64)));
    ApplyException e = legacy(new Append(List.of(f)));
    assertThat(e.where()).contains("Append");
    assertThat(e.problem()).contains("'nofields.lance' lists no fields");
  }

  @Test
  void aLegacyAppendOfAFragmentWithNoFilesIsRefused() throws Exception {
    ApplyException e = legacy(new Append(List.of(Fragment.of(0, 10, List.of()))));
    assertThat(e.problem()).contains("has no data files");
  }

  @Test
  void aLegacyAppendKeepingAnExistingFragmentIdIsRefused() throws Exception {
    store.put("data/dup.lance", new byte[100]);
    ApplyException e = legacy(new Append(List.of(fragment(1, "dup.lance"))));
    assertThat(e.problem()).contains("has id 1, which fragment 1 of version 1 already has");
  }

  @Test
  void aDeleteOfAFragmentThatDoesNotExistIsRefused() throws Exception {
    ApplyException e = legacy(new Delete(List.of(), List.of(7L), "true"));
    assertThat(e.problem()).contains("deletes fragment 7, which does not exist");
  }

  @Test
  void aMergeWithNoFragmentsIsRefused() throws Exception {
    ApplyException e = legacy(new Merge(List.of(), SCHEMA, true));
    assertThat(e.problem()).contains("leaves out 2 of the 2 fragments");
  }

  @Test
  void aShallowCloneIntoAnExistingTableFailsAtOnceAndLeavesNoTxn() throws Exception {
    long start = System.nanoTime();
    ApplyException e = legacy(new Clone(true, Optional.of("src"), 1, "/elsewhere", Optional.empty()));
    assertThat(e.problem()).contains("this table already exists");
    assertThat(System.nanoTime() - start).as("no retries").isLessThan(5_000_000_000L);
  }

  // ---- base paths ------------------------------------------------------------------------------

  @Test
  void aBasePathOutsideTheTableIsRefusedByDefault() throws Exception {
    ApplyException v2 = composite(s -> s.action(new AddBase(0, new BasePath(0, Optional.of("etc"), false, "/etc"))));
    assertThat(v2.where()).contains("action 1 (AddBase)");
    assertThat(v2.problem()).contains("base-path policy does not allow it");
    ApplyException legacy = legacy(new UpdateBases(List.of(new BasePath(0, Optional.of("etc"), false, "/etc"))));
    assertThat(legacy.problem()).contains("base-path policy does not allow it");
  }

  @Test
  void twoUnnamedBasesAreAcceptedByBothPathsWhenAllowed() {
    var allow = dev.lancet.format.layout.BasePathPolicy.allowUnder(List.of("/data"));
    table.newTransaction().basePaths(allow).step("bases", s -> s
        .action(new AddBase(0, new BasePath(0, Optional.empty(), false, "/data/a")))
        .action(new AddBase(1, new BasePath(0, Optional.empty(), false, "/data/b")))).commit();
    table.newLegacyTransaction(new UpdateBases(List.of(new BasePath(0, Optional.empty(), false, "/data/c"))))
        .basePaths(allow).commit();
    assertThat(table.latest().manifest().basePaths()).hasSize(3);
  }

  @ParameterizedTest
  @ValueSource(strings = {"relative/dir", "/data/../etc", "/data/./x", "/data//x", "C:\\data", "s3://bucket/a/../b", ""})
  void aMalformedBasePathIsRefusedWhateverThePolicy(String path) throws Exception {
    SortedMap<String, Long> before = files();
    Throwable e = catchThrowable(() -> table.newTransaction()
        .basePaths(dev.lancet.format.layout.BasePathPolicy.allowAll())
        .step("base", s -> s.action(new AddBase(0, new BasePath(0, Optional.of("b"), false, path)))).commit());
    assertThat(e).isInstanceOf(ApplyException.class).hasMessageContaining("base path 1");
    assertThat(files()).isEqualTo(before);
  }

  // ---- references ------------------------------------------------------------------------------

  @Test
  void aDeletionFileWithAnOffsetPastTheFragmentsRowsIsRefused() throws Exception {
    DeletionFile df = new DeletionFile(DeletionFile.Kind.BITMAP, 1, 42, 1);
    store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(0), DeletionFileFormat.writeBitmap(DeletionVector.of(25)));
    ApplyException e = composite(s -> s.setDeletionFile(0, df));
    assertThat(e.problem()).contains("deletes row offset 25, but the fragment has 10 rows");
  }

  @Test
  void aNewDataFileMustExistWithItsRecordedSize() throws Exception {
    DataFile missing = new DataFile("missing.lance", List.of(), List.of(0, 1), 2, 1, 64);
    assertThat(composite(s -> s.addFragment(0, 10).addDataFile(Ref.local(0), missing, Ref.committed(0), Ref.committed(1)))
        .problem()).contains("does not exist in the table (looked for data/missing.lance)");
    store.put("data/short.lance", new byte[10]);
    DataFile wrongSize = new DataFile("short.lance", List.of(), List.of(0, 1), 2, 1, 64);
    assertThat(composite(s -> s.addFragment(0, 10).addDataFile(Ref.local(0), wrongSize, Ref.committed(0), Ref.committed(1)))
        .problem()).contains("is 10 bytes in the store, but the commit records 64 bytes");
  }

  @Test
  void aBulkWriterThatVouchesForItsFilesSkipsTheLookUp() {
    DataFile missing = new DataFile("vouched.lance", List.of(), List.of(0, 1), 2, 1, 64);
    CommitResult r = table.newTransaction().verifyNewFiles(false)
        .step("append", s -> s.addFragment(0, 10).addDataFile(Ref.local(0), missing, Ref.committed(0), Ref.committed(1)))
        .commit();
    assertThat(r.version()).isEqualTo(2);
  }

  // ---- read versions ---------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(longs = {0, -1, Long.MIN_VALUE})
  void aReadVersionThatIsNoVersionFailsAtOnceAndPrintsUnsigned(long readVersion) throws Exception {
    SortedMap<String, Long> before = files();
    Throwable e = catchThrowable(() -> table.newTransaction().readVersion(readVersion)
        .step("c", s -> s.setConfig("k", "v")).commit());
    assertThat(e).isInstanceOf(InvalidTransactionException.class)
        .hasMessageContaining("read version is " + Long.toUnsignedString(readVersion))
        .hasMessageNotContaining("version -");
    assertThat(files()).isEqualTo(before);
  }

  @Test
  void aReadVersionNewerThanTheLatestFailsAtOnce() {
    assertThatThrownBy(() -> table.newTransaction().readVersion(99).step("c", s -> s.setConfig("k", "v")).commit())
        .isInstanceOf(InvalidTransactionException.class).hasMessageContaining("newer than the latest version 1");
  }

  @Test
  void aCleanedUpReadVersionIsItsOwnTypedError() throws Exception {
    table.newTransaction().step("v2", s -> s.setConfig("a", "1")).commit();
    table.newTransaction().step("v3", s -> s.setConfig("b", "1")).commit();
    store.delete(ManifestNaming.V2.path(2));
    Throwable e = catchThrowable(() -> table.newTransaction().readVersion(1)
        .step("late", s -> s.setConfig("c", "1")).commit());
    assertThat(e).isInstanceOf(ReadVersionUnavailableException.class)
        .isNotInstanceOf(ApplyException.class)
        .hasMessageContaining("no longer exists (old versions were cleaned up)")
        .hasMessageContaining("Re-read the latest version (3)");
  }

  // ---- damaged tables --------------------------------------------------------------------------

  @Test
  void aGarbageTxnUnderTheLatestVersionFailsClosed() throws Exception {
    table.newTransaction().step("v2", s -> s.setConfig("a", "1")).commit();
    String txn = "_transactions/" + table.latest().manifest().transactionFile();
    store.put(txn, "this is not a protobuf message \u00ff\u00fe".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    SortedMap<String, Long> before = files();
    Throwable e = catchThrowable(() -> table.newTransaction().step("v3", s -> s.setConfig("b", "1")).commit());
    assertThat(e).isInstanceOf(DamagedTableException.class).hasMessageContaining("cannot be read");
    assertThat(files()).isEqualTo(before);
  }

  @Test
  void aReadOnlyTransactionsDirectoryFailsOnTheFirstAttempt() throws Exception {
    // The tests run as root, for whom no mode bit is read-only: the store refuses the write as a
    // read-only directory does (AccessDeniedException from the filesystem).
    dev.lancet.core.store.FaultInjectingStore readOnly = dev.lancet.core.store.FaultInjectingStore.wrap(store)
        .onCall(dev.lancet.core.store.FaultInjectingStore.Operation.PUT, "_transactions/", (op, path, n) -> {
          throw new java.nio.file.AccessDeniedException(dir.resolve(path).toString());
        });
    java.util.List<CommitAttempt> attempts = new java.util.ArrayList<>();
    long start = System.nanoTime();
    Throwable e = catchThrowable(() -> Table.open(dir.toString(), readOnly).newTransaction()
        .onAttempt(attempts::add).step("c", s -> s.setConfig("k", "v")).commit());
    assertThat(e).isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining("no retry can fix it").hasMessageContaining("AccessDeniedException");
    assertThat(attempts).hasSize(1);
    assertThat(System.nanoTime() - start).as("no backoff").isLessThan(5_000_000_000L);
  }

  @Test
  void aTransactionsDirectoryLinkedOutOfTheTableIsNotWrittenThrough() throws Exception {
    Path outside = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-outside"));
    Files.createSymbolicLink(dir.resolve("_transactions"), outside);
    Throwable e = catchThrowable(() -> table.newTransaction().step("c", s -> s.setConfig("k", "v")).commit());
    assertThat(e).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the table root");
    try (Stream<Path> files = Files.list(outside)) {
      assertThat(files).isEmpty();
    }
  }

  // ---- rebases ---------------------------------------------------------------------------------

  @Test
  void aBackfillOfANonNullableFieldRebasedOverAConcurrentAppendIsARetryableConflict() throws Exception {
    DataFile s0 = new DataFile("s0.lance", List.of(), List.of(0), 2, 1, 64);
    DataFile s1 = new DataFile("s1.lance", List.of(), List.of(0), 2, 1, 64);
    store.put("data/s0.lance", new byte[64]);
    store.put("data/s1.lance", new byte[64]);
    TransactionBuilder backfill = table.newTransaction().step("add required score", s -> s
        .addField(0, Field.builder(0, "score", "int32").nullable(false).build())
        .addDataFile(Ref.committed(0), s0, Ref.local(0))
        .addDataFile(Ref.committed(1), s1, Ref.local(0)));
    DataFile appended = newFile("appended.lance");
    table.newTransaction().step("append", s -> s.addFragment(0, 10)
        .addDataFile(Ref.local(0), appended, Ref.committed(0), Ref.committed(1))).commit();
    SortedMap<String, Long> before = files();

    Throwable e = catchThrowable(backfill::commit);

    // Valid on the version it read; on top of the append, fragment 2 would lack the required
    // field. The conflict check's nullability guard (decision 0010) finds it before the rebased
    // manifest is built; the pre-publish check behind it would refuse the same manifest.
    assertThat(e).isInstanceOf(ConflictingCommitException.class)
        .hasMessageContaining("NULLABILITY")
        .hasMessageContaining("new non-nullable field has no data in the rows the committed transaction adds");
    // Nothing published. The first attempt started from the version the builder read (the head
    // start, decision 0014) and wrote its .txn file before it lost the race: an orphan no
    // manifest names, which cleanup removes (decision 0007); nothing else changed.
    SortedMap<String, Long> after = files();
    after.keySet().removeIf(p -> p.startsWith("_transactions/") && !before.containsKey(p));
    assertThat(after).isEqualTo(before);
    assertThat(files().size() - before.size()).isLessThanOrEqualTo(1);
  }

  @Test
  void aWinnersMissingDeletionFileIsIncompatibleOnTheFirstAttempt() throws Exception {
    DeletionFile theirs = new DeletionFile(DeletionFile.Kind.BITMAP, 1, 11, 1);
    store.put(DeletionFileNames.DIRECTORY + "/" + theirs.fileName(0), DeletionFileFormat.writeBitmap(DeletionVector.of(1)));
    DeletionFile ours = new DeletionFile(DeletionFile.Kind.BITMAP, 1, 12, 1);
    store.put(DeletionFileNames.DIRECTORY + "/" + ours.fileName(0), DeletionFileFormat.writeBitmap(DeletionVector.of(2)));
    var mine = table.newLegacyTransaction(new Delete(List.of(fragment(0, "f0.lance").toBuilder()
        .deletionFile(Optional.of(ours)).build()), List.of(), "id = 2")).readVersion(1);
    table.newLegacyTransaction(new Delete(List.of(fragment(0, "f0.lance").toBuilder()
        .deletionFile(Optional.of(theirs)).build()), List.of(), "id = 1")).commit();
    store.delete(DeletionFileNames.DIRECTORY + "/" + theirs.fileName(0));
    java.util.List<CommitAttempt> attempts = new java.util.ArrayList<>();

    Throwable e = catchThrowable(() -> mine.onAttempt(attempts::add).commit());

    assertThat(e).isInstanceOf(IncompatibleTransactionException.class)
        .hasMessageContaining("the deletion file of fragment 0 (_deletions/" + theirs.fileName(0) + ") does not exist");
    // Not retried as a store error (before the fix: 20 retries over 15-25 s, then "retryable").
    assertThat(attempts).extracting(CommitAttempt::outcome).doesNotContain(
        CommitAttempt.Outcome.STORE_ERROR, CommitAttempt.Outcome.GAVE_UP);
  }

  @Test
  void aBaseWithAnEmptyNameIsRefusedOnBothPaths() throws Exception {
    var allow = dev.lancet.format.layout.BasePathPolicy.allowAll();
    SortedMap<String, Long> before = files();
    assertThat(catchThrowable(() -> table.newTransaction().basePaths(allow).step("b", s -> s
        .action(new AddBase(0, new BasePath(0, Optional.of(""), false, "/data/e")))).commit()))
        .isInstanceOf(ApplyException.class).hasMessageContaining("has an empty name");
    assertThat(catchThrowable(() -> table.newLegacyTransaction(new UpdateBases(List.of(
        new BasePath(0, Optional.of(""), false, "/data/e")))).basePaths(allow).commit()))
        .isInstanceOf(ApplyException.class).hasMessageContaining("has an empty name");
    assertThat(files()).isEqualTo(before);
  }

  @Test
  void anAddFieldOfANonNullableFieldToATableWithDataIsRefusedWithoutItsData() throws Exception {
    ApplyException e = composite(s -> s.addField(0, Field.builder(0, "must", "int32").nullable(false).build()));
    assertThat(e.problem()).contains("has no data for non-nullable field 2 ('must')");
  }
}
