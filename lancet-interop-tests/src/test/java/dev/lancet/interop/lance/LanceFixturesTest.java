package dev.lancet.interop.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.interop.lance.LanceOracle.DataFileView;
import dev.lancet.interop.lance.LanceOracle.DeletionFileView;
import dev.lancet.interop.lance.LanceOracle.FieldView;
import dev.lancet.interop.lance.LanceOracle.FragmentView;
import dev.lancet.interop.lance.LanceOracle.IndexView;
import dev.lancet.interop.lance.LanceOracle.Row;
import dev.lancet.interop.lance.LanceOracle.RowIdentity;
import dev.lancet.interop.lance.LanceOracle.TableSnapshot;
import dev.lancet.interop.lance.LanceOracle.VersionView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.file.LanceFileReader;

/**
 * Builds every {@link LanceFixtures} table with lance-core and checks what {@link LanceOracle}
 * reports about it against the facts the fixtures are documented to produce.
 */
class LanceFixturesTest {

  @TempDir static Path root;

  static Map<String, Path> fixtures;

  @BeforeAll
  static void buildAll() {
    long t0 = System.nanoTime();
    fixtures = LanceFixtures.buildAll(root);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    System.out.println("LanceFixtures.buildAll: " + fixtures.size() + " tables in " + ms + " ms");
  }

  // ---------------------------------------------------------------------------------------------
  // Invariants over every fixture and every version
  // ---------------------------------------------------------------------------------------------

  @Test
  void everyVersionOfEveryFixtureIsSelfConsistent() throws IOException {
    for (var e : fixtures.entrySet()) {
      Path table = e.getValue();
      List<VersionView> versions = LanceOracle.versions(table);
      long latest = LanceOracle.latestVersion(table);
      assertThat(versions).as(e.getKey()).isNotEmpty();
      assertThat(versions.get(0).version()).as(e.getKey()).isEqualTo(1);
      assertThat(versions.get(versions.size() - 1).version()).as(e.getKey()).isEqualTo(latest);
      assertThat(versions.stream().map(VersionView::version).toList())
          .as(e.getKey() + " versions are 1..latest")
          .isEqualTo(LongStream.rangeClosed(1, latest).boxed().toList());
      for (int i = 1; i < versions.size(); i++) {
        assertThat(versions.get(i).timestamp())
            .as(e.getKey() + " timestamps never go back")
            .isAfterOrEqualTo(versions.get(i - 1).timestamp());
      }
      for (VersionView v : versions) {
        String what = e.getKey() + "@" + v.version();
        TableSnapshot s = LanceOracle.snapshot(table, v.version());
        assertThat(s.version()).as(what).isEqualTo(v.version());
        assertThat(s.timestamp()).as(what).isEqualTo(v.timestamp());
        assertThat(s.summary()).as(what).isEqualTo(v.metadata());
        assertThat(s.summary().get("total_rows")).as(what).isEqualTo(Long.toString(s.rowCount()));
        assertThat(s.summary().get("total_fragments"))
            .as(what)
            .isEqualTo(Integer.toString(s.fragments().size()));
        assertThat(s.transaction()).as(what + " has a transaction").isPresent();
        assertThat(s.transaction().get().readVersion()).as(what).isEqualTo(v.version() - 1);

        long sumNumRows = 0;
        for (FragmentView f : s.fragments()) {
          assertThat(f.numRows()).as(what).isEqualTo(f.physicalRows() - f.numDeletedRows());
          assertThat(f.liveRows()).as(what).isEqualTo(f.numRows());
          sumNumRows += f.numRows();
          assertThat(f.files()).as(what).isNotEmpty();
          for (DataFileView d : f.files()) {
            Path file = table.resolve("data").resolve(d.path());
            assertThat(file).as(what).isRegularFile();
            assertThat(d.fileSizeBytes()).as(what).hasValue(Files.size(file));
            assertThat(d.fields()).as(what).hasSameSizeAs(d.columnIndices());
          }
          if (f.deletionFile().isPresent()) {
            DeletionFileView del = f.deletionFile().get();
            assertThat(table.resolve(del.relativePath())).as(what).isRegularFile();
            assertThat(del.numDeletedRows()).as(what).hasValue(f.numDeletedRows());
            assertThat(del.readVersion()).as(what).isLessThan(v.version());
          } else {
            assertThat(f.numDeletedRows()).as(what).isZero();
          }
        }
        assertThat(s.rowCount()).as(what).isEqualTo(sumNumRows);
        List<Row> rows = LanceOracle.rows(table, v.version());
        assertThat(rows).as(what).hasSize((int) s.rowCount());
        assertThat(rows.stream().map(Row::id).distinct().count())
            .as(what + " ids are unique")
            .isEqualTo(s.rowCount());
      }
    }
  }

  @Test
  void lanceWritesV2ManifestNamesAndAHintByDefault() {
    for (String name : List.of("deletions", "storage-2.1", "tags", "manifest-v2")) {
      Path versions = fixtures.get(name).resolve("_versions");
      long latest = LanceOracle.latestVersion(fixtures.get(name));
      List<String> expected = new ArrayList<>();
      for (long v = 1; v <= latest; v++) {
        expected.add(Long.toUnsignedString(-1L - v) + ".manifest");
      }
      expected.add("latest_version_hint.json");
      expected.sort(null);
      assertThat(LanceFixtures.listNames(versions)).as(name).isEqualTo(expected);
      assertThat(LanceFixtures.listNames(fixtures.get(name).resolve("_transactions")))
          .as(name + " writes one .txn per version")
          .hasSize((int) latest)
          .allMatch(n -> n.matches("\\d+-[0-9a-f-]{36}\\.txn"));
    }
  }

  @Test
  void manifestV1Naming() throws IOException {
    Path v1 = fixtures.get("manifest-v1");
    assertThat(LanceFixtures.listNames(v1.resolve("_versions")))
        .containsExactly("1.manifest", "2.manifest", "3.manifest", "latest_version_hint.json");
    assertThat(Files.readString(v1.resolve("_versions/latest_version_hint.json")).strip())
        .isEqualTo("{\"version\":3}");
    assertThat(LanceOracle.latestVersion(v1)).isEqualTo(3);
    assertThat(LanceOracle.snapshot(v1).rowCount()).isEqualTo(300);
    assertThat(LanceOracle.snapshot(v1, 1).rowCount()).isEqualTo(100);
    Path v2 = fixtures.get("manifest-v2");
    assertThat(LanceOracle.versions(v2)).hasSize(3);
    assertThat(LanceOracle.rows(v2, 3)).isEqualTo(LanceOracle.rows(v1, 3));
  }

  // ---------------------------------------------------------------------------------------------
  // Data storage versions, schema shape and values
  // ---------------------------------------------------------------------------------------------

  @Test
  void dataStorageVersions() {
    for (String version : List.of("2.0", "2.1")) {
      Path table = fixtures.get("storage-" + version);
      TableSnapshot s = LanceOracle.snapshot(table);
      assertThat(s.version()).isEqualTo(2);
      assertThat(s.dataStorageVersion()).isEqualTo(version);
      assertThat(s.rowCount()).isEqualTo(500);
      assertThat(s.fragments()).extracting(FragmentView::id).containsExactly(0, 1, 2, 3, 4);
      assertThat(s.fragments()).allMatch(f -> f.physicalRows() == 100 && f.files().size() == 1);
      assertThat(s.stableRowIds()).isFalse();

      assertThat(s.fields())
          .extracting(FieldView::id, FieldView::parentId, FieldView::name, FieldView::logicalType)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(0, -1, "id", "int64"),
              org.assertj.core.groups.Tuple.tuple(1, -1, "name", "string"),
              org.assertj.core.groups.Tuple.tuple(2, -1, "props", "struct"),
              org.assertj.core.groups.Tuple.tuple(3, 2, "a", "int32"),
              org.assertj.core.groups.Tuple.tuple(4, 2, "b", "string"),
              org.assertj.core.groups.Tuple.tuple(5, -1, "vec", "fixed_size_list:float:4"));
      assertThat(s.field("id").nullable()).isFalse();
      assertThat(s.field("props.b").nullable()).isTrue();
      assertThat(s.dottedPath(s.field("props.a"))).isEqualTo("props.a");

      int minor = version.equals("2.0") ? 0 : 1;
      List<Integer> fileFields = version.equals("2.0") ? List.of(0, 1, 2, 3, 4, 5) : List.of(0, 1, 3, 4, 5);
      for (FragmentView f : s.fragments()) {
        DataFileView d = f.files().get(0);
        assertThat(d.fileMajorVersion()).isEqualTo(2);
        assertThat(d.fileMinorVersion()).isEqualTo(minor);
        assertThat(d.fields()).isEqualTo(fileFields);
        assertThat(d.columnIndices())
            .isEqualTo(LongStream.range(0, fileFields.size()).mapToObj(i -> (int) i).toList());
      }

      List<Row> rows = LanceOracle.rows(table, 2);
      assertThat(LanceOracle.columnNames(table, 2)).containsExactly("id", "name", "props", "vec");
      assertThat(rows).hasSize(500);
      for (int i = 0; i < rows.size(); i++) {
        long id = i;
        Row r = rows.get(i);
        assertThat(r.id()).isEqualTo(id);
        assertThat(r.values())
            .as("row " + id + " in " + version)
            .containsExactly(
                Long.toString(id), expectedName(id), expectedProps(id, version), expectedVec(id));
      }
    }
    Map<String, String> c20 = LanceOracle.columnChecksums(fixtures.get("storage-2.0"), 2);
    Map<String, String> c21 = LanceOracle.columnChecksums(fixtures.get("storage-2.1"), 2);
    assertThat(c20.keySet()).containsExactly("id", "name", "props", "vec");
    for (String col : List.of("id", "name", "vec")) {
      assertThat(c20.get(col)).as(col).isEqualTo(c21.get(col));
    }
    // File version 2.0 cannot represent a null struct (see LanceFixtures javadoc).
    assertThat(c20.get("props")).isNotEqualTo(c21.get("props"));
  }

  // ---------------------------------------------------------------------------------------------
  // Stable row ids
  // ---------------------------------------------------------------------------------------------

  @Test
  void stableRowIds() {
    for (boolean on : List.of(true, false)) {
      Path table = fixtures.get("stable-row-ids-" + (on ? "on" : "off"));
      TableSnapshot s = LanceOracle.snapshot(table);
      assertThat(s.version()).isEqualTo(3);
      assertThat(s.stableRowIds()).isEqualTo(on);
      assertThat(s.rowCount()).isEqualTo(360);
      assertThat(s.fragments()).hasSize(4);
      for (FragmentView f : s.fragments()) {
        assertThat(f.numDeletedRows()).isEqualTo(10);
        assertThat(f.deletionFile()).get().extracting(DeletionFileView::extension).isEqualTo("arrow");
        assertThat(f.rowIdMeta().isPresent()).isEqualTo(on);
      }
      if (on) {
        // RowIdSequence { segments: [ U64Segment { range: 0..100 } ] }
        byte[] seq0 = LanceOracle.inlineBytes(s.fragment(0).rowIdMeta().get()).orElseThrow();
        assertThat(seq0).containsExactly(0x0a, 0x04, 0x0a, 0x02, 0x10, 100);
        for (FragmentView f : s.fragments()) {
          assertThat(LanceOracle.inlineBytes(f.rowIdMeta().get())).isPresent();
        }
      }
      List<RowIdentity> ids = LanceOracle.rowIdentities(table, 3);
      assertThat(ids).hasSize(360);
      for (RowIdentity r : ids) {
        assertThat(r.id() % 10).isNotZero();
        assertThat(r.fragmentId()).isEqualTo((int) (r.id() / 100));
        assertThat(r.offset()).isEqualTo((int) (r.id() % 100));
        assertThat(r.rowId()).isEqualTo(on ? r.id() : r.rowAddress());
      }
      TableSnapshot v1 = LanceOracle.snapshot(table, 1);
      assertThat(v1.rowCount()).isEqualTo(300);
      assertThat(v1.fragments()).allMatch(f -> f.deletionFile().isEmpty());
      assertThat(v1.stableRowIds()).isEqualTo(on);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Deletions
  // ---------------------------------------------------------------------------------------------

  @Test
  void deletionFilesInBothForms() {
    Path table = fixtures.get("deletions");
    assertThat(LanceOracle.latestVersion(table)).isEqualTo(6);
    TableSnapshot s = LanceOracle.snapshot(table);
    assertThat(s.rowCount()).isEqualTo(LanceFixtures.DELETIONS_LIVE_ROWS);
    assertThat(s.fragments()).extracting(FragmentView::id).containsExactly(0, 1);

    FragmentView f0 = s.fragment(0);
    assertThat(f0.physicalRows()).isEqualTo(100);
    DeletionFileView d0 = f0.deletionFile().orElseThrow();
    assertThat(d0.type()).isEqualTo("ARROW_ARRAY");
    assertThat(d0.extension()).isEqualTo("arrow");
    assertThat(d0.readVersion()).isEqualTo(3);
    assertThat(d0.numDeletedRows()).hasValue(LanceFixtures.DELETIONS_ARROW_ROWS);
    assertThat(d0.numDeletedRows().getAsLong()).isLessThan(LanceFixtures.BITMAP_DELETION_THRESHOLD);
    assertThat(table.resolve(d0.relativePath())).isRegularFile();

    FragmentView f1 = s.fragment(1);
    assertThat(f1.physicalRows()).isEqualTo(8_000);
    DeletionFileView d1 = f1.deletionFile().orElseThrow();
    assertThat(d1.type()).isEqualTo("BITMAP");
    assertThat(d1.extension()).isEqualTo("bin");
    assertThat(d1.readVersion()).isEqualTo(4);
    assertThat(d1.numDeletedRows()).hasValue(LanceFixtures.DELETIONS_BITMAP_ROWS);
    assertThat(d1.numDeletedRows().getAsLong())
        .isGreaterThanOrEqualTo(LanceFixtures.BITMAP_DELETION_THRESHOLD);
    assertThat(table.resolve(d1.relativePath())).isRegularFile();

    List<String> onDisk = LanceFixtures.listNames(table.resolve("_deletions"));
    assertThat(onDisk).hasSize(2);
    assertThat(onDisk.stream().filter(n -> n.endsWith(".arrow")))
        .containsExactly(d0.relativePath().substring("_deletions/".length()));
    assertThat(onDisk.stream().filter(n -> n.endsWith(".bin")))
        .containsExactly(d1.relativePath().substring("_deletions/".length()));

    // History: no deletion files before v4; fragment 2 exists until v5 and is gone in v6.
    assertThat(LanceOracle.snapshot(table, 3).fragments())
        .hasSize(3)
        .allMatch(f -> f.deletionFile().isEmpty());
    TableSnapshot v4 = LanceOracle.snapshot(table, 4);
    assertThat(v4.fragment(0).deletionFile()).isPresent();
    assertThat(v4.fragment(1).deletionFile()).isEmpty();
    TableSnapshot v5 = LanceOracle.snapshot(table, 5);
    assertThat(v5.fragments()).extracting(FragmentView::id).containsExactly(0, 1, 2);
    assertThat(v5.fragment(2).deletionFile()).isEmpty();
    assertThat(v5.rowCount()).isEqualTo(LanceFixtures.DELETIONS_LIVE_ROWS + 50);
    assertThat(v5.transaction().get().operation()).isEqualTo("Delete");

    LongPredicate live = id -> id < 100 ? id % 10 != 0 : id < 8_100 && id % 8 == 0;
    assertThat(LanceOracle.rows(table, 6).stream().map(Row::id).toList())
        .isEqualTo(LongStream.range(0, 8_150).filter(live).boxed().toList());
    assertThat(LanceOracle.countRows(table, 6, "id >= 100")).isEqualTo(1_000);
  }

  // ---------------------------------------------------------------------------------------------
  // Schema evolution
  // ---------------------------------------------------------------------------------------------

  @Test
  void addedAndDroppedColumns() {
    Path table = fixtures.get("schema-evolution");
    assertThat(LanceOracle.latestVersion(table)).isEqualTo(4);
    assertThat(names(LanceOracle.snapshot(table, 1))).containsExactly("0:id", "1:name");
    assertThat(names(LanceOracle.snapshot(table, 2)))
        .containsExactly("0:id", "1:name", "2:double_id");
    assertThat(names(LanceOracle.snapshot(table, 3)))
        .containsExactly("0:id", "1:name", "2:double_id", "3:note");
    TableSnapshot s = LanceOracle.snapshot(table);
    assertThat(names(s)).containsExactly("0:id", "2:double_id", "3:note");
    assertThat(s.field("note").nullable()).isTrue();
    assertThat(s.transaction().get().operation()).isEqualTo("Project");

    for (FragmentView f : s.fragments()) {
      // The SQL column got its own data file per fragment; the all-null column got none; the
      // drop left the data files alone (they still list the dropped field id 1).
      assertThat(f.files()).hasSize(2);
      assertThat(f.files().get(0).fields()).containsExactly(0, 1);
      assertThat(f.files().get(1).fields()).containsExactly(2);
      assertThat(f.files().get(1).columnIndices()).containsExactly(0);
    }
    assertThat(LanceOracle.snapshot(table, 1).fragments()).allMatch(f -> f.files().size() == 1);

    assertThat(LanceOracle.columnNames(table, 4)).containsExactly("id", "double_id", "note");
    List<Row> rows = LanceOracle.rows(table, 4);
    assertThat(rows).hasSize(300);
    for (Row r : rows) {
      assertThat(r.values()).containsExactly(Long.toString(r.id()), Long.toString(2 * r.id()), "null");
    }
    List<Row> v1 = LanceOracle.rows(table, 1);
    assertThat(v1.get(3).values()).containsExactly("3", "null");
    assertThat(v1.get(4).values()).containsExactly("4", "name-4");
  }

  // ---------------------------------------------------------------------------------------------
  // Config and metadata
  // ---------------------------------------------------------------------------------------------

  @Test
  void configAndMetadata() {
    Path table = fixtures.get("config");
    assertThat(LanceOracle.latestVersion(table)).isEqualTo(4);
    TableSnapshot v1 = LanceOracle.snapshot(table, 1);
    assertThat(v1.config()).isEmpty();
    assertThat(v1.tableMetadata()).isEmpty();
    assertThat(v1.schemaMetadata()).isEmpty();
    assertThat(LanceOracle.snapshot(table, 2).config())
        .isEqualTo(Map.of(LanceFixtures.CONFIG_KEPT, "1", LanceFixtures.CONFIG_DELETED, "2"));
    assertThat(LanceOracle.snapshot(table, 3).config())
        .isEqualTo(Map.of(LanceFixtures.CONFIG_KEPT, "1"));
    TableSnapshot v4 = LanceOracle.snapshot(table, 4);
    assertThat(v4.config()).isEqualTo(Map.of(LanceFixtures.CONFIG_KEPT, "1"));
    assertThat(v4.tableMetadata())
        .isEqualTo(Map.of(LanceFixtures.TABLE_METADATA_KEY, LanceFixtures.TABLE_METADATA_VALUE));
    assertThat(v4.schemaMetadata())
        .isEqualTo(Map.of(LanceFixtures.SCHEMA_METADATA_KEY, LanceFixtures.SCHEMA_METADATA_VALUE));
    for (long v = 2; v <= 4; v++) {
      assertThat(LanceOracle.snapshot(table, v).transaction().get().operation())
          .isEqualTo("UpdateConfig");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Index
  // ---------------------------------------------------------------------------------------------

  @Test
  void scalarIndex() {
    Path table = fixtures.get("scalar-index");
    assertThat(LanceOracle.snapshot(table, 1).indices()).isEmpty();
    TableSnapshot v2 = LanceOracle.snapshot(table, 2);
    assertThat(v2.transaction().get().operation()).isEqualTo("CreateIndex");
    assertThat(v2.indices()).hasSize(1);
    IndexView idx = v2.indices().get(0);
    assertThat(idx.name()).isEqualTo(LanceFixtures.INDEX_NAME);
    assertThat(idx.fields()).containsExactly(0);
    assertThat(idx.fragments()).contains(List.of(0, 1, 2));
    assertThat(idx.datasetVersion()).isEqualTo(1);
    assertThat(idx.indexType()).isEqualTo("BTREE");
    assertThat(idx.detailsHex().orElseThrow())
        .contains(hex("/lance.table.BTreeIndexDetails"));
    assertThat(table.resolve("_indices").resolve(idx.uuid().toString())).isDirectory();

    TableSnapshot v3 = LanceOracle.snapshot(table);
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.fragments()).hasSize(4);
    assertThat(v3.indices()).containsExactly(idx);
  }

  // ---------------------------------------------------------------------------------------------
  // Tags
  // ---------------------------------------------------------------------------------------------

  @Test
  void tags() {
    Path table = fixtures.get("tags");
    assertThat(LanceOracle.tagVersions(table)).isEqualTo(LanceFixtures.TAGS);
    assertThat(LanceFixtures.listNames(table.resolve("_refs/tags")))
        .containsExactly("first.json", "head.json", "second.json");
    for (var e : LanceFixtures.TAGS.entrySet()) {
      TableSnapshot t = LanceOracle.snapshotAtTag(table, e.getKey());
      assertThat(t.version()).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(t.rowCount()).as(e.getKey()).isEqualTo(100 * e.getValue());
      assertThat(t).isEqualTo(LanceOracle.snapshot(table, e.getValue()));
    }
    assertThat(LanceOracle.tags(table).get("head").manifestSize()).isPositive();
    assertThat(LanceOracle.tags(table).get("first").branch()).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------
  // Standalone data files
  // ---------------------------------------------------------------------------------------------

  @Test
  @SuppressWarnings("try") // LanceFileReader.close() throws Exception
  void writeDataFile() throws Exception {
    Path dir = root.resolve("standalone");
    for (String version : new String[] {null, "2.0", "2.1"}) {
      Path file = dir.resolve("f-" + version + ".lance");
      long size;
      try (BufferAllocator alloc = new RootAllocator();
          VectorSchemaRoot data = LanceFixtures.rows(alloc, LanceFixtures.FULL_SCHEMA, 1000, 250)) {
        size = LanceFixtures.writeDataFile(file, data, version);
      }
      assertThat(size).isPositive().isEqualTo(Files.size(file));
      byte[] bytes = Files.readAllBytes(file);
      ByteBuffer tail = ByteBuffer.wrap(bytes, bytes.length - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
      int major = Short.toUnsignedInt(tail.getShort());
      int minor = Short.toUnsignedInt(tail.getShort());
      byte[] magic = new byte[4];
      tail.get(magic);
      assertThat(new String(magic, StandardCharsets.US_ASCII)).isEqualTo("LANC");
      // Lance v2 file footers: 2.0 is written as 0.3, 2.1+ as major.minor.
      String expected = "2.0".equals(version) ? "0.3" : "2.1";
      assertThat(major + "." + minor).as("footer of " + version).isEqualTo(expected);
      try (BufferAllocator alloc = new RootAllocator();
          LanceFileReader reader = LanceFileReader.open(file.toString(), alloc)) {
        assertThat(reader.numRows()).isEqualTo(250);
        assertThat(reader.schema().getFields().stream().map(f -> f.getName()).toList())
            .containsExactly("id", "name", "props", "vec");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers
  // ---------------------------------------------------------------------------------------------

  private static List<String> names(TableSnapshot s) {
    return s.fields().stream().map(f -> f.id() + ":" + f.name()).collect(Collectors.toList());
  }

  private static String expectedName(long id) {
    String n = LanceFixtures.name(id);
    return n == null ? "null" : n;
  }

  private static String expectedProps(long id, String storageVersion) {
    if (LanceFixtures.propsNull(id)) {
      return storageVersion.equals("2.0") ? "{}" : "null";
    }
    String b = LanceFixtures.propsB(id);
    return "{\"a\":" + LanceFixtures.propsA(id) + (b == null ? "" : ",\"b\":\"" + b + "\"") + "}";
  }

  private static String expectedVec(long id) {
    float[] v = LanceFixtures.vec(id);
    if (v == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      sb.append(i == 0 ? "" : ",").append(Float.toString(v[i]));
    }
    return sb.append(']').toString();
  }

  private static String hex(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      sb.append(String.format("%02x", b));
    }
    return sb.toString();
  }
}
