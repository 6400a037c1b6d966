package dev.lancet.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.Tag;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceOracle;
import dev.lancet.interop.lance.LanceOracle.DataFileView;
import dev.lancet.interop.lance.LanceOracle.FieldView;
import dev.lancet.interop.lance.LanceOracle.FragmentView;
import dev.lancet.interop.lance.LanceOracle.IndexView;
import dev.lancet.interop.lance.LanceOracle.TableSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Tables written by real Lance (lance-core 7.0.0) read by Lancet: every version of every
 * fixture agrees field by field with what lance-core reports.
 */
class ReadInteropTest {

  @TestFactory
  Stream<DynamicTest> everyVersionOfEveryFixtureAgreesWithLanceCore() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Map.Entry<String, Path> fixture : SharedFixtures.all().entrySet()) {
      Path dir = fixture.getValue();
      for (LanceOracle.VersionView v : LanceOracle.versions(dir)) {
        tests.add(DynamicTest.dynamicTest(fixture.getKey() + " v" + v.version(),
            () -> compareVersion(dir, v.version())));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> versionListsAndLatestAgree() {
    return SharedFixtures.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      try (Table table = Table.open(e.getValue().toString())) {
        assertThat(table.versions()).extracting(VersionEntry::version)
            .containsExactlyElementsOf(LanceOracle.versions(e.getValue()).stream()
                .map(LanceOracle.VersionView::version).toList());
        assertThat(table.latest().version()).isEqualTo(LanceOracle.latestVersion(e.getValue()));
      }
    }));
  }

  @Test
  void tagsResolveToTheSameVersions() {
    Path dir = SharedFixtures.get("tags");
    try (Table table = Table.open(dir.toString())) {
      Map<String, Long> ours = new HashMap<>();
      for (Tag t : table.tags()) {
        ours.put(t.name(), t.version());
      }
      assertThat(ours).isEqualTo(LanceOracle.tagVersions(dir));
      for (String tag : ours.keySet()) {
        assertThat(table.tag(tag).version()).isEqualTo(LanceOracle.snapshotAtTag(dir, tag).version());
      }
    }
  }

  @Test
  void bothDeletionFileFormsAreRead() {
    Path dir = SharedFixtures.get("deletions");
    try (Table table = Table.open(dir.toString())) {
      Manifest m = table.latest().manifest();
      List<DeletionFile.Kind> kinds = new ArrayList<>();
      for (Fragment f : m.fragments()) {
        f.deletionFile().ifPresent(d -> kinds.add(d.kind()));
      }
      assertThat(kinds).contains(DeletionFile.Kind.ARROW_ARRAY, DeletionFile.Kind.BITMAP);
      long bitmapRows = m.fragments().stream()
          .filter(f -> f.deletionFile().map(d -> d.kind() == DeletionFile.Kind.BITMAP).orElse(false))
          .mapToLong(Fragment::numDeletedRows).sum();
      assertThat(bitmapRows).isGreaterThanOrEqualTo(5_000);
    }
  }

  @Test
  void stableRowIdSequencesMatchTheRowIdsLanceScans() {
    Path dir = SharedFixtures.get("stable-row-ids-on");
    try (Table table = Table.open(dir.toString())) {
      for (VersionEntry v : table.versions()) {
        Manifest m = table.version(v.version()).manifest();
        Map<Long, dev.lancet.format.rowids.RowIdSequence> sequences = new HashMap<>();
        for (Fragment f : m.fragments()) {
          StoredSequence.Inline inline = (StoredSequence.Inline) f.rowIds().orElseThrow();
          sequences.put(f.id(), dev.lancet.format.rowids.RowIdSequence.decode(
              inline.bytes().toByteArray(), "fragment " + f.id()));
          assertThat(sequences.get(f.id()).length()).isEqualTo(f.physicalRows());
        }
        List<LanceOracle.RowIdentity> rows = LanceOracle.rowIdentities(dir, v.version());
        assertThat(rows).hasSize((int) m.liveRows());
        for (LanceOracle.RowIdentity r : rows) {
          assertThat(sequences.get((long) r.fragmentId()).get(r.offset()))
              .as("row id of row %d at version %d", r.id(), v.version()).isEqualTo(r.rowId());
        }
        assertThat(m.nextRowId()).isEqualTo(sequences.values().stream()
            .mapToLong(s -> s.length()).sum());
      }
    }
  }

  private static void compareVersion(Path dir, long version) throws Exception {
    TableSnapshot lance = LanceOracle.snapshot(dir, version);
    try (Table table = Table.open(dir.toString())) {
      Snapshot ours = table.version(version);
      Manifest m = ours.manifest();

      assertThat(m.version()).isEqualTo(lance.version());
      assertThat(m.timestamp()).hasValue(lance.timestamp());
      assertThat(m.liveRows()).as("live rows").isEqualTo(lance.rowCount());
      assertThat(m.dataFormat().orElseThrow().version()).isEqualTo(lance.dataStorageVersion());
      assertThat(m.usesStableRowIds()).isEqualTo(lance.stableRowIds());
      assertThat(m.config()).isEqualTo(lance.config());
      assertThat(m.tableMetadata()).isEqualTo(lance.tableMetadata());
      Map<String, String> schemaMetadata = new HashMap<>();
      m.schema().metadata().forEach((k, v) -> schemaMetadata.put(k, v.toString(StandardCharsets.UTF_8)));
      assertThat(schemaMetadata).isEqualTo(lance.schemaMetadata());

      compareFields(m.schema().fields(), lance.fields());
      assertThat(m.fragments()).extracting(Fragment::id)
          .containsExactlyElementsOf(lance.fragments().stream().map(f -> (long) f.id()).toList());
      for (FragmentView lf : lance.fragments()) {
        compareFragment(table, m.fragment(lf.id()).orElseThrow(), lf);
      }
      compareIndices(ours.indices(), lance.indices());

      Optional<TransactionProtos.Transaction> txn = ours.transaction();
      assertThat(txn.isPresent()).isEqualTo(lance.transaction().isPresent());
      if (txn.isPresent()) {
        LanceOracle.TransactionView lt = lance.transaction().get();
        assertThat(txn.get().getReadVersion()).isEqualTo(lt.readVersion());
        assertThat(txn.get().getUuid()).isEqualTo(lt.uuid());
        assertThat(dev.lancet.format.layout.TransactionFile.operationName(txn.get()).toLowerCase()).isEqualTo(lt.operation().toLowerCase());
        assertThat(txn.get().getTransactionPropertiesMap()).isEqualTo(lt.properties());
      }
    }
  }

  private static void compareFields(List<Field> ours, List<FieldView> lance) {
    assertThat(ours).hasSameSizeAs(lance);
    for (int i = 0; i < ours.size(); i++) {
      Field f = ours.get(i);
      FieldView l = lance.get(i);
      assertThat(f.id()).as("field %d id", i).isEqualTo(l.id());
      assertThat(f.parentId()).as("field %s parent", l.name()).isEqualTo(l.parentId());
      assertThat(f.name()).isEqualTo(l.name());
      assertThat(f.logicalType()).as("field %s type", l.name()).isEqualTo(l.logicalType());
      assertThat(f.nullable()).as("field %s nullable", l.name()).isEqualTo(l.nullable());
      Map<String, String> md = new HashMap<>();
      f.metadata().forEach((k, v) -> md.put(k, v.toString(StandardCharsets.UTF_8)));
      assertThat(md).as("field %s metadata", l.name()).isEqualTo(l.metadata());
    }
  }

  private static void compareFragment(Table table, Fragment f, FragmentView l) throws Exception {
    String where = "fragment " + f.id();
    assertThat(f.physicalRows()).as(where + " physical rows").isEqualTo(l.physicalRows());
    assertThat(f.numDeletedRows()).as(where + " deleted rows").isEqualTo(l.numDeletedRows());
    assertThat(f.liveRows()).as(where + " live rows").isEqualTo(l.liveRows());
    assertThat(f.files()).hasSameSizeAs(l.files());
    for (int i = 0; i < f.files().size(); i++) {
      DataFile d = f.files().get(i);
      DataFileView ld = l.files().get(i);
      assertThat(d.path()).isEqualTo(ld.path());
      assertThat(d.fields()).as(where + " fields").isEqualTo(ld.fields());
      assertThat(d.columnIndices()).as(where + " column indices").isEqualTo(ld.columnIndices());
      assertThat(d.fileMajorVersion()).isEqualTo(ld.fileMajorVersion());
      assertThat(d.fileMinorVersion()).isEqualTo(ld.fileMinorVersion());
      if (ld.fileSizeBytes().isPresent()) {
        assertThat(d.fileSizeBytes()).isEqualTo(ld.fileSizeBytes().getAsLong());
      }
      assertThat(d.baseId().isPresent()).isEqualTo(ld.baseId().isPresent());
    }
    assertThat(f.deletionFile().isPresent()).as(where + " has deletion file").isEqualTo(l.deletionFile().isPresent());
    if (f.deletionFile().isPresent()) {
      DeletionFile d = f.deletionFile().get();
      LanceOracle.DeletionFileView ld = l.deletionFile().get();
      assertThat(d.kind().name()).isEqualTo(ld.type());
      assertThat(d.readVersion()).isEqualTo(ld.readVersion());
      assertThat(d.id()).isEqualTo(ld.id());
      assertThat("_deletions/" + d.fileName(f.id())).isEqualTo(ld.relativePath());
      // Read the file itself and check its contents agree with the recorded count.
      byte[] bytes = table.store().get("_deletions/" + d.fileName(f.id()));
      DeletionVector dv = DeletionFileFormat.read(bytes,
          d.kind(), d.fileName(f.id()));
      assertThat(dv.cardinality()).as(where + " deletion vector size").isEqualTo(d.numDeletedRows());
      assertThat(java.util.Arrays.stream(dv.toArray()).allMatch(o -> o >= 0 && o < f.physicalRows())).isTrue();
    }
    assertThat(inline(f.rowIds())).as(where + " row ids").isEqualTo(l.rowIdMeta().flatMap(LanceOracle::inlineBytes).map(HexFormat.of()::formatHex));
    assertThat(inline(f.createdAtVersions())).as(where + " created-at").isEqualTo(l.createdAtVersionMeta().flatMap(LanceOracle::inlineBytes).map(HexFormat.of()::formatHex));
    assertThat(inline(f.lastUpdatedAtVersions())).as(where + " last-updated").isEqualTo(l.lastUpdatedAtVersionMeta().flatMap(LanceOracle::inlineBytes).map(HexFormat.of()::formatHex));
  }

  private static Optional<String> inline(Optional<StoredSequence> s) {
    return s.filter(StoredSequence.Inline.class::isInstance)
        .map(x -> HexFormat.of().formatHex(((StoredSequence.Inline) x).bytes().toByteArray()));
  }

  private static void compareIndices(List<IndexSegment> ours, List<IndexView> lance) {
    assertThat(ours).hasSameSizeAs(lance);
    for (IndexView l : lance) {
      IndexSegment s = ours.stream().filter(x -> x.uuid().equals(l.uuid())).findFirst().orElseThrow();
      assertThat(s.name()).isEqualTo(l.name());
      assertThat(s.fields()).isEqualTo(l.fields());
      assertThat(s.datasetVersion()).isEqualTo(l.datasetVersion());
      assertThat(s.indexVersion().orElse(0)).isEqualTo(l.indexVersion());
      if (l.fragments().isPresent()) {
        List<Integer> covered = new ArrayList<>();
        s.coveredFragments().orElseThrow().forEach((int id) -> covered.add(id));
        assertThat(covered).isEqualTo(l.fragments().get());
      }
      l.createdAt().ifPresent(t -> assertThat(s.createdAt()).hasValue(t.toEpochMilli()));
      l.detailsHex().ifPresent(hex ->
          assertThat(HexFormat.of().formatHex(s.indexDetails().orElseThrow().toByteArray())).isEqualTo(hex));
    }
  }
}
