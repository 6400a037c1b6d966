package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.AddIndexSegment;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveIndexSegment;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feature bit 128 is FLAG_COVERED_INDEX_METADATA (lance-format/lance
 * rust/lance-table/src/feature_flags.rs @08ea21b2): set for readers and writers exactly while some
 * index declares covering fields, so a build that does not know covering indices refuses the
 * table, and cleared again when the last one goes. It no longer means MemWAL index catch-up.
 */
class CoveredIndexMetadataTest {
  private static final CommitPolicy FAST = new CommitPolicy(3, Duration.ofSeconds(10), Duration.ofMillis(1));
  private static final UUID SEGMENT = new UUID(7, 7);

  @TempDir Path dir;

  @Test
  void aCoveringIndexSetsBit128ForReadersAndWritersWhileItExists() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    Manifest v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "k", "int64").build(), Field.builder(1, "v", "int64").build()),
            Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of(new DataFile("a.lance", List.of(0, 1), List.of(0, 1), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(0))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));

    AddIndexSegment covering = new AddIndexSegment(SEGMENT, "k_idx", List.of(Ref.committed(0)),
        Optional.empty(), OptionalInt.of(0), Optional.of(List.of(Ref.committed(0))), List.of(), false,
        Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), List.of(Ref.committed(1)));
    new TransactionBuilder(store, dir.toString(), 1).policy(FAST)
        .step("build a covering index", s -> s.action(covering)).commit();

    Snapshot v2 = Snapshot.latest(store, dir.toString());
    assertThat(v2.indices()).singleElement().satisfies(s -> {
      assertThat(s.fields()).containsExactly(0, 1);
      assertThat(s.coveringFields()).containsExactly(1);
    });
    assertThat(v2.manifest().readerFeatureFlags() & FeatureFlags.COVERED_INDEX_METADATA).isNotZero();
    assertThat(v2.manifest().writerFeatureFlags() & FeatureFlags.COVERED_INDEX_METADATA).isNotZero();

    new TransactionBuilder(store, dir.toString(), 2).policy(FAST)
        .step("drop it", s -> s.action(new RemoveIndexSegment(SEGMENT, "k_idx", false))).commit();
    Snapshot v3 = Snapshot.latest(store, dir.toString());
    assertThat(v3.indices()).isEmpty();
    assertThat(v3.manifest().readerFeatureFlags() & FeatureFlags.COVERED_INDEX_METADATA).isZero();
    assertThat(v3.manifest().writerFeatureFlags() & FeatureFlags.COVERED_INDEX_METADATA).isZero();
  }
}
