package dev.lancet.interop.v2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.core.conflict.legacy.CommittedVersions;
import dev.lancet.core.conflict.legacy.LegacyFootprints;
import dev.lancet.core.conflict.legacy.LegacyLowering;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.Versions;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Dataset;

/**
 * Issue 15 point 2, compaction: the lowering of lance-core 7.0.0's Rewrite to actions
 * ({@link LegacyLowering#rewrite}), applied with {@code CompositeApply} to the version it was
 * applied onto, gives the manifest {@code compact()} wrote: every fragment with its files,
 * deletion file, physical rows, row-id and row-version sequences; the counters; schema, config
 * and table metadata; the index segments. Beside {@link LanceMaintenanceInteropTest}, which
 * checks the Rewrite's footprint against composite commits.
 */
class LanceRewriteLoweringInteropTest {
  @TempDir Path tmp;

  /**
   * Two small trailing fragments, each with a row deleted by lance-core, compacted into one: the
   * deleted rows are gone from the new fragment and, with stable row ids, the survivors keep their
   * ids and versions (so the sequence is not the fresh range a plain AddFragment would get).
   */
  @ParameterizedTest
  @ValueSource(strings = {"stable-row-ids-off", "stable-row-ids-on"})
  void aLanceCompactionLoweredToActionsGivesTheManifestLanceWrote(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    String uri = dir.toAbsolutePath().toString();
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 10_000, 10);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 10_010, 10);
    try (BufferAllocator alloc = new RootAllocator(); Dataset ds = Dataset.open(uri, alloc)) {
      ds.delete("id = 10003 OR id = 10015");
    }
    long compacted;
    try (BufferAllocator alloc = new RootAllocator(); Dataset ds = Dataset.open(uri, alloc)) {
      ds.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(50)
          .withMaterializeDeletions(false).build());
      compacted = ds.latestVersion();
    }

    LocalObjectStore store = new LocalObjectStore(dir);
    Snapshot landed = Snapshot.load(store, Versions.resolve(store, compacted));
    Snapshot before = Snapshot.load(store, Versions.resolve(store, compacted - 1));
    var rewrite = landed.transaction().orElseThrow();
    assertThat(rewrite.hasRewrite()).as(rewrite.getOperationCase().name()).isTrue();
    Set<Long> beforeIds = ids(before.manifest());
    List<Fragment> minted = landed.manifest().fragments().stream().filter(f -> !beforeIds.contains(f.id())).toList();
    assertThat(minted).as("the compaction wrote new fragments").isNotEmpty();
    assertThat(minted.stream().mapToLong(Fragment::physicalRows).sum()).as("the deleted rows are gone").isEqualTo(18);
    boolean stable = before.manifest().usesStableRowIds();
    assertThat(stable).isEqualTo(fixture.endsWith("-on"));
    assertThat(minted).allMatch(f -> f.rowIds().isPresent() == stable);

    LegacyLowering.Result lowering = LegacyLowering.rewrite(rewrite, before.manifest(), before.indices(),
        landed.manifest(), landed.indices());
    CompositeOperation lowered = lowering.operation().orElseThrow(() -> new AssertionError(lowering.whyNot()));
    assertThat(lowered.actions()).as("compaction is no data change").noneMatch(Action::isDataChange);

    CompositeApply.Result result = CompositeApply.apply(before.manifest(), before.indices(), lowered, before.version());
    Manifest applied = result.manifest();
    Manifest lance = landed.manifest();
    assertThat(applied.fragments()).as("fragments (files, deletions, rows, row ids, row versions)")
        .isEqualTo(lance.fragments());
    assertThat(applied.maxFragmentId()).as("max fragment id").isEqualTo(lance.maxFragmentId());
    assertThat(applied.nextRowId()).as("next row id").isEqualTo(lance.nextRowId());
    assertThat(applied.schema()).as("schema").isEqualTo(lance.schema());
    assertThat(applied.config()).as("config").isEqualTo(lance.config());
    assertThat(applied.tableMetadata()).as("table metadata").isEqualTo(lance.tableMetadata());
    assertThat(applied.dataFormat()).as("data storage format").isEqualTo(lance.dataFormat());
    assertThat(applied.usesStableRowIds()).isEqualTo(lance.usesStableRowIds());
    assertThat(result.indices()).as("index segments").isEqualTo(landed.indices());

    // The footprint route claims at least what the lowering's actions claim, and no inserted rows.
    Footprint route = LegacyFootprints.ofCommitted(rewrite, new CommittedVersions(before.manifest(), before.indices(),
        lance, landed.indices(), Optional.of(before.manifest()))).footprint().orElseThrow();
    Footprint ofActions = Footprint.of(lowered);
    assertThat(route.regions().keySet()).containsAll(ofActions.regions().keySet());
    assertThat(ofActions.insertsRows()).isFalse();
    assertThat(route.insertsRows()).isFalse();
    // lance-core reads what it wrote (the oracle agrees on the rows the compared manifest holds).
    assertThat(LanceOracle.countRows(dir, compacted, "id >= 10000")).isEqualTo(18);
  }

  private static Set<Long> ids(Manifest m) {
    Set<Long> out = new HashSet<>();
    m.fragments().forEach(f -> out.add(f.id()));
    return out;
  }
}
