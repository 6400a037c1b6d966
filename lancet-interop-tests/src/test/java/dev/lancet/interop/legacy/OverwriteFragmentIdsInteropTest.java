package dev.lancet.interop.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.operation.ManifestHistory;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.FragmentOperation;
import org.lance.WriteParams;

/**
 * Pins how lance-core 7.0.0 numbers the fragments of a legacy Overwrite, and that Lancet
 * numbers them alike.
 *
 * <p>The rule: the counter starts at 0 (for a new table and for an existing one alike); a
 * fragment whose id is 0 in the transaction takes the next counter value, in the transaction's
 * order; an id the writer set is kept; the manifest lists the fragments by id. {@code
 * max_fragment_id} becomes the larger of the previous one and the largest new id (never
 * lowered). With stable row ids the row-id counter continues from the previous {@code
 * next_row_id}. lance-core records the transaction with the ids as given (0 stays 0).
 *
 * <p>The base table has fragments 0..3 (high-water mark 3) and row ids 0..399.
 */
class OverwriteFragmentIdsInteropTest {
  @TempDir Path tmp;

  /** Ids the writer sets (0: left for the commit to assign) and the ids lance-core publishes. */
  @ParameterizedTest(name = "ids {0} -> {1}, max {2}, stable row ids {3}")
  @CsvSource({
      "0,        0,     3, false",
      "0 0 0,    0 1 2, 3, false",
      "7 0 0,    0 1 7, 7, false",
      "9 8,      8 9,   9, false",
      "0 5,      0 5,   5, false",
      "0 0 0,    0 1 2, 3, true",
      "7 0 0,    0 1 7, 7, true",
  })
  void anOverwriteOfATableWithFragmentsNumbersAsLanceCoreDoes(String given, String published,
      long maxFragmentId, boolean stableRowIds) throws IOException {
    Path dir = LanceFixtures.stableRowIds(tmp, stableRowIds);
    Snapshot before = latest(dir);
    assertThat(before.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L, 3L);

    List<FragmentMetadata> fragments = fragmentsWithIds(dir, ids(given));
    LanceOracle.withDataset(dir, OptionalLong.empty(), ds -> {
      org.lance.operation.Overwrite op = org.lance.operation.Overwrite.builder()
          .fragments(fragments).schema(LanceFixtures.SIMPLE_SCHEMA).build();
      try (var txn = ds.newTransactionBuilder().operation(op).build()) {
        txn.commit().close();
      }
      return null;
    });
    Snapshot after = latest(dir);

    assertThat(recordedIds(after)).as("ids lance-core recorded in the transaction").isEqualTo(ids(given));
    assertThat(after.manifest().fragments()).extracting(Fragment::id).isEqualTo(ids(published));
    assertThat(after.manifest().maxFragmentId()).hasValue(maxFragmentId);
    if (stableRowIds) {
      long rows = 10L * fragments.size();
      assertThat(after.manifest().nextRowId()).isEqualTo(before.manifest().nextRowId() + rows);
    }
    assertLancetReproduces(dir, before, after);
  }

  /** {@code Dataset.write} in overwrite mode leaves every id 0, so they become 0, 1, 2. */
  @ParameterizedTest(name = "stable row ids {0}")
  @ValueSource(booleans = {false, true})
  void aDatasetWriteInOverwriteModeNumbersFromZero(boolean stableRowIds) throws IOException {
    Path dir = LanceFixtures.stableRowIds(tmp, stableRowIds);
    Snapshot before = latest(dir);
    writeOverwrite(dir, 250, stableRowIds);
    Snapshot after = latest(dir);

    assertThat(recordedIds(after)).containsExactly(0L, 0L, 0L);
    assertThat(after.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 2L);
    assertThat(after.manifest().maxFragmentId()).hasValue(3);
    assertThat(after.manifest().nextRowId())
        .isEqualTo(stableRowIds ? before.manifest().nextRowId() + 250 : 0);
    assertLancetReproduces(dir, before, after);
  }

  /** A new table: lance-core's first version and Lancet's {@code Table.create} agree. */
  @Test
  void aNewTableKeepsSetIdsAndNumbersTheRestFromZero() throws IOException {
    Path theirs = Files.createDirectories(tmp.resolve("theirs"));
    try (BufferAllocator alloc = new RootAllocator()) {
      new FragmentOperation.Overwrite(fragmentsWithIds(theirs, List.of(7L, 0L, 0L)),
          LanceFixtures.SIMPLE_SCHEMA).commit(alloc, theirs.toString(), Optional.empty(), Map.of()).close();
    }
    Snapshot lance = latest(theirs);
    assertThat(lance.version()).isEqualTo(1);
    assertThat(lance.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 1L, 7L);
    assertThat(lance.manifest().maxFragmentId()).hasValue(7);

    Path ours = Files.createDirectories(tmp.resolve("ours"));
    copyData(theirs, ours);
    Overwrite op = (Overwrite) LegacyOperationCodec.decode(lance.transaction().orElseThrow());
    try (Table t = Table.create(ours.toString(), new LocalObjectStore(ours), op,
        lance.manifest().dataFormat().orElseThrow())) {
      assertThat(t.latest().version()).isEqualTo(1);
    }
    Snapshot lancet = latest(ours);
    assertThat(unstamped(lancet.manifest())).isEqualTo(unstamped(lance.manifest()));
    assertThat(lancet.manifest().readerFeatureFlags()).isEqualTo(lance.manifest().readerFeatureFlags());
    // lance-core reads Lancet's table with the same row addresses.
    assertThat(LanceOracle.rowIdentities(ours, 1)).isEqualTo(LanceOracle.rowIdentities(theirs, 1));
  }

  /**
   * A set id the numbering of the 0 ids reaches: lance-core publishes a manifest listing
   * fragment 1 twice; Lancet refuses the operation instead (a deliberate difference: no reader
   * accepts such a manifest, Lancet's included).
   */
  @Test
  void aSetIdTheNumberingReachesIsDuplicatedByLanceCoreAndRefusedByLancet() throws IOException {
    Path dir = LanceFixtures.stableRowIds(tmp, false);
    Snapshot before = latest(dir);
    List<FragmentMetadata> fragments = fragmentsWithIds(dir, List.of(1L, 0L, 0L));
    LanceOracle.withDataset(dir, OptionalLong.empty(), ds -> {
      org.lance.operation.Overwrite op = org.lance.operation.Overwrite.builder()
          .fragments(fragments).schema(LanceFixtures.SIMPLE_SCHEMA).build();
      try (var txn = ds.newTransactionBuilder().operation(op).build()) {
        txn.commit().close();
      }
      return null;
    });
    assertThat(LanceOracle.snapshot(dir).fragments()).extracting(LanceOracle.FragmentView::id)
        .containsExactly(0, 1, 1);

    LegacyOperation op = new Overwrite(
        List.of(fragment(1), fragment(0), fragment(0)), before.manifest().schema(), Map.of(), List.of());
    assertThatThrownBy(() -> LegacyApply.apply(before.manifest(), before.indices(), op,
        before.version(), ManifestHistory.none()))
        .isInstanceOf(ApplyException.class).hasMessageContaining("fragment id 1");
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Lancet applies the Overwrite lance-core recorded for {@code after} to {@code before}'s
   * manifest and gets lance-core's manifest (stamped fields aside, flags as the publisher
   * derives them).
   */
  private static void assertLancetReproduces(Path dir, Snapshot before, Snapshot after) {
    TransactionProtos.Transaction txn = after.transaction().orElseThrow();
    LegacyOperation op = LegacyOperationCodec.decode(txn);
    assertThat(op).isInstanceOf(Overwrite.class);
    LegacyApply.Result result = LegacyApply.apply(before.manifest(), before.indices(), op, txn.getReadVersion(),
        ManifestHistory.none());
    Manifest ours = result.manifest();
    assertThat(ours.fragments()).extracting(Fragment::id)
        .isEqualTo(after.manifest().fragments().stream().map(Fragment::id).toList());
    assertThat(ours.maxFragmentId()).isEqualTo(after.manifest().maxFragmentId());
    assertThat(ours.nextRowId()).isEqualTo(after.manifest().nextRowId());
    assertThat(FeatureFlags.derive(ours, result.indices()).reader()).isEqualTo(after.manifest().readerFeatureFlags());
    assertThat(unstamped(ours)).as("%s v%d", dir, after.version()).isEqualTo(unstamped(after.manifest()));
  }

  private static Manifest unstamped(Manifest m) {
    return m.toBuilder().timestamp(Optional.empty()).writerVersion(Optional.empty())
        .transactionFile("").indexSection(OptionalLong.empty()).transactionSection(OptionalLong.empty())
        .tag("").readerFeatureFlags(0).writerFeatureFlags(0).build();
  }

  private static Snapshot latest(Path dir) throws IOException {
    return Snapshot.latest(new LocalObjectStore(dir), dir.toString());
  }

  private static List<Long> recordedIds(Snapshot s) {
    List<Long> ids = new ArrayList<>();
    s.transaction().orElseThrow().getOverwrite().getFragmentsList().forEach(f -> ids.add(f.getId()));
    return ids;
  }

  private static List<Long> ids(String spaced) {
    return Arrays.stream(spaced.trim().split("\\s+")).map(Long::valueOf).toList();
  }

  /** A fragment of Lancet's model with {@code id} (enough for the apply to number it). */
  private static Fragment fragment(long id) {
    return Fragment.of(id, 10, List.of(new dev.lancet.format.model.DataFile("x.lance",
        List.of(0, 1), List.of(0, 1), 2, 0, 100)));
  }

  /** One 10-row fragment per entry of {@code ids}, written by lance-core, with that id set. */
  private static List<FragmentMetadata> fragmentsWithIds(Path dir, List<Long> ids) {
    List<FragmentMetadata> out = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      for (int k = 0; k < ids.size(); k++) {
        try (VectorSchemaRoot root = LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA, 7_000 + 10L * k, 10)) {
          FragmentMetadata f = org.lance.Fragment.create(dir.toString(), alloc, root,
              new WriteParams.Builder().build()).get(0);
          out.add(new FragmentMetadata((int) (long) ids.get(k), f.getFiles(), f.getPhysicalRows(),
              f.getDeletionFile(), f.getRowIdMeta()));
        }
      }
    }
    return out;
  }

  /** {@code Dataset.create} in overwrite mode with {@code rows} new rows, 100 per fragment. */
  @SuppressWarnings("deprecation")
  private static void writeOverwrite(Path dir, int rows, boolean stableRowIds) {
    try (BufferAllocator alloc = new RootAllocator()) {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      try (VectorSchemaRoot root = LanceFixtures.rows(alloc, LanceFixtures.SIMPLE_SCHEMA, 5_000, rows);
          ArrowStreamWriter w = new ArrowStreamWriter(root, null, bos)) {
        w.start();
        w.writeBatch();
        w.end();
      }
      try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bos.toByteArray()), alloc);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
        Data.exportArrayStream(alloc, reader, stream);
        Dataset.create(alloc, stream, dir.toString(), new WriteParams.Builder()
            .withMode(WriteParams.WriteMode.OVERWRITE).withMaxRowsPerFile(100)
            .withEnableStableRowIds(stableRowIds).build()).close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies the data files lance-core wrote (the Overwrite's input) into another table root. */
  private static void copyData(Path from, Path to) throws IOException {
    Path data = Files.createDirectories(to.resolve("data"));
    try (var files = Files.list(from.resolve("data"))) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.copy(p, data.resolve(p.getFileName().toString()));
      }
    }
  }
}
