package dev.lancet.interop.legacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.operation.ManifestHistory;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.index.IndexOptions;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.operation.ReserveFragments;
import org.lance.schema.ColumnAlteration;
import org.lance.schema.SqlExpressions;

/**
 * lance-core as the oracle for {@link LegacyApply}: for every version N > 1 of a table
 * lance-core wrote, the transaction lance-core recorded for N, decoded and applied to manifest
 * N-1, must give manifest N.
 *
 * <p>Ignored, because the publisher stamps them: {@code timestamp}, {@code writer_version},
 * {@code transaction_file}, the section offsets ({@code index_section},
 * {@code transaction_section}: byte positions in the file) and {@code tag} (copied from the
 * transaction at publish). Feature flags are not compared as stored: the publisher derives
 * them ({@link FeatureFlags#derive}), so the derivation of our result must equal what
 * lance-core wrote. Index fragment bitmaps are compared as decoded sets (the Roaring bytes may
 * be laid out differently for the same set).
 */
class LegacyApplyOracleTest {

  /** Every operation the oracle saw, over all tables of this class (for the report). */
  private static final java.util.Set<String> SEEN = new java.util.concurrent.ConcurrentSkipListSet<>();

  @Test
  void everyVersionOfEverySharedFixtureIsReproduced() {
    int checked = 0;
    for (Map.Entry<String, Path> e : SharedFixtures.all().entrySet()) {
      checked += checkEveryVersion(e.getKey(), e.getValue());
    }
    assertThat(checked).isGreaterThan(15);
    System.out.println("legacy oracle: shared fixtures checked " + checked + " versions; operations " + SEEN);
  }

  /**
   * Extra versions written by lance-core on a copy of a fixture, covering operations the
   * shared fixtures do not: Rewrite (compaction), UpdateConfig, Merge (add column, cast),
   * Project (rename, drop), CreateIndex (create and drop), Delete, ReserveFragments, Append,
   * Restore, a truncation and an Overwrite.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void extraOperationsWrittenByLanceAreReproduced(boolean stableRowIds, @TempDir Path tmp) {
    Path dir = SharedFixtures.copy(stableRowIds ? "stable-row-ids-on" : "stable-row-ids-off", tmp);
    String uri = dir.toAbsolutePath().toString();
    try (BufferAllocator alloc = new RootAllocator()) {
      try (Dataset ds = Dataset.open(uri, alloc)) {
        ds.compact();
        ds.updateConfig(Map.of("lancet.oracle", "1"));
        ds.addColumns(new SqlExpressions.Builder().withExpression("plus", "id + 1").build(),
            Optional.empty());
        ds.alterColumns(List.of(new ColumnAlteration.Builder("plus").rename("plus_one").build()));
        ds.alterColumns(List.of(new ColumnAlteration.Builder("plus_one")
            .castTo(new ArrowType.Int(32, true)).build()));
        IndexParams ip = IndexParams.builder()
            .setScalarIndexParams(ScalarIndexParams.create("btree")).build();
        ds.createIndex(IndexOptions.builder(List.of("id"), IndexType.BTREE, ip)
            .withIndexName("oracle_idx").replace(true).build());
        ds.delete("id < 50");
        try (var txn = ds.newTransactionBuilder()
            .operation(ReserveFragments.builder().numFragments(3).build()).build()) {
          txn.commit().close();
        }
        ds.dropColumns(List.of("plus_one"));
      }
      LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 1000, 50);
      try (Dataset ds = Dataset.open(uri, alloc)) {
        ds.addColumns(List.of(Field.nullable("note", ArrowType.Utf8.INSTANCE)));
        ds.dropColumns(List.of("note"));
        ds.dropIndex("oracle_idx");
        ds.delete("id >= 1000");
      }
      try (Dataset ds = Dataset.open(uri, alloc); Dataset old = ds.checkoutVersion(4)) {
        old.restore();
      }
      try (Dataset ds = Dataset.open(uri, alloc)) {
        ds.truncateTable();
      }
      Dataset.create(alloc, uri, LanceFixtures.SIMPLE_SCHEMA,
          new WriteParams.Builder().withMode(WriteParams.WriteMode.OVERWRITE)
              .withEnableStableRowIds(stableRowIds).build()).close();
    }
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 2000, 10);
    int checked = checkEveryVersion("extra-" + (stableRowIds ? "on" : "off"), dir);
    assertThat(checked).isGreaterThanOrEqualTo(18);
    System.out.println("legacy oracle: operations seen so far " + SEEN);
  }

  // ---------------------------------------------------------------------------------------------

  private static int checkEveryVersion(String name, Path dir) {
    LocalObjectStore store = new LocalObjectStore(dir);
    ManifestHistory history = history(store);
    try {
      List<VersionEntry> entries = Versions.list(store);
      int checked = 0;
      for (VersionEntry entry : entries) {
        if (entry.version() <= 1) {
          continue;
        }
        Snapshot before = Snapshot.load(store, Versions.resolve(store, entry.version() - 1));
        Snapshot after = Snapshot.load(store, entry);
        TransactionProtos.Transaction txn = after.transaction().orElseThrow(() ->
            new AssertionError(name + " v" + entry.version() + " has no transaction"));
        LegacyOperation op = LegacyOperationCodec.decode(txn);
        SEEN.add(op.operationName());
        LegacyApply.Result result = LegacyApply.apply(before.manifest(), before.indices(), op,
            txn.getReadVersion(), history);
        String where = name + " v" + entry.version() + " (" + op.operationName() + ")";
        assertSameManifest(where, result.manifest(), result.indices(), after.manifest());
        assertThat(describe(result.indices())).as(where + " indices").isEqualTo(describe(after.indices()));
        checked++;
      }
      return checked;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertSameManifest(String where, Manifest actual, List<IndexSegment> indices,
      Manifest expected) {
    FeatureFlags.Pair derived = FeatureFlags.derive(actual, indices);
    assertThat(derived.reader()).as(where + " reader flags (derived)").isEqualTo(expected.readerFeatureFlags());
    assertThat(derived.writer() & ~FeatureFlags.DISABLE_TRANSACTION_FILE)
        .as(where + " writer flags (derived)")
        .isEqualTo(expected.writerFeatureFlags() & ~FeatureFlags.DISABLE_TRANSACTION_FILE);
    assertThat(unstamped(actual).fragments()).as(where + " fragments").isEqualTo(expected.fragments());
    assertThat(unstamped(actual).schema()).as(where + " schema").isEqualTo(expected.schema());
    assertThat(unstamped(actual)).as(where + " manifest").isEqualTo(unstamped(expected));
  }

  private static Manifest unstamped(Manifest m) {
    return m.toBuilder()
        .timestamp(Optional.empty())
        .writerVersion(Optional.empty())
        .transactionFile("")
        .indexSection(OptionalLong.empty())
        .transactionSection(OptionalLong.empty())
        .tag("")
        .readerFeatureFlags(0)
        .writerFeatureFlags(0)
        .build();
  }

  /** Index segments by uuid, with coverage decoded. */
  private static Map<UUID, String> describe(List<IndexSegment> indices) {
    Map<UUID, String> out = new TreeMap<>();
    for (IndexSegment s : indices) {
      TreeSet<Integer> covered = new TreeSet<>();
      s.coveredFragments().ifPresent(b -> b.forEach((int id) -> covered.add(id)));
      out.put(s.uuid(), s.name() + " fields=" + s.fields() + " covers=" + covered
          + " version=" + s.datasetVersion() + " details=" + s.detailsTypeUrl()
          + " indexVersion=" + s.indexVersion() + " createdAt=" + s.createdAt()
          + " base=" + s.baseId() + " files=" + s.files().size());
    }
    return out;
  }

  private static ManifestHistory history(LocalObjectStore store) {
    return new ManifestHistory() {
      @Override
      public Manifest manifestAt(long version) {
        return snapshot(version).manifest();
      }

      @Override
      public List<IndexSegment> indicesAt(long version) {
        return new ArrayList<>(snapshot(version).indices());
      }

      private Snapshot snapshot(long version) {
        try {
          return Snapshot.load(store, Versions.resolve(store, version));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }
}
