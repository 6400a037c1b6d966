package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.pb.TableProtos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectCommandTest {
  @TempDir
  Path dir;

  TableFixture table;

  @BeforeEach
  void setUp() {
    table = TableFixture.history(dir.resolve("t"));
  }

  @Test
  void summaryShowsHeaderSchemaFragmentsIndicesAndConfig() {
    Cli.Result r = Cli.run("inspect", table.location());

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    List<String> lines = r.outLines();
    assertThat(lines).anyMatch(l -> l.matches("table:\\s+" + java.util.regex.Pattern.quote(table.location())));
    assertThat(lines).anyMatch(l -> l.matches("version:\\s+7"));
    assertThat(lines).anyMatch(l -> l.matches("timestamp:\\s+2024-05-01T12:07:00Z"));
    assertThat(lines).anyMatch(l -> l.matches("writer version:\\s+lancet 0\\.1\\.0"));
    assertThat(lines).anyMatch(l -> l.matches("data storage format:\\s+lance 2\\.1"));
    assertThat(lines).anyMatch(l -> l.matches("reader feature flags:\\s+deletion_files"));
    assertThat(lines).anyMatch(l -> l.matches("writer feature flags:\\s+deletion_files, table_config"));
    assertThat(lines).anyMatch(l -> l.matches("fragments:\\s+3"));
    assertThat(lines).anyMatch(l -> l.matches("live rows:\\s+165"));
    assertThat(lines).anyMatch(l -> l.matches("physical rows:\\s+175"));
    assertThat(lines).anyMatch(l -> l.matches("deleted rows:\\s+10"));
    assertThat(lines).anyMatch(l -> l.matches("max fragment id:\\s+2"));
    assertThat(lines).anyMatch(l -> l.matches("config entries:\\s+2"));

    assertThat(lines).contains("SCHEMA (5 fields)");
    assertThat(lines).anyMatch(l -> l.matches("\\s*0\\s+-\\s+id\\s+int64\\s+no\\s+yes \\(1\\)"));
    assertThat(lines).anyMatch(l -> l.matches("\\s*2\\s+1\\s+point\\.x\\s+float\\s+yes"));
    assertThat(lines).anyMatch(l -> l.matches("\\s*3\\s+1\\s+point\\.y\\s+float\\s+yes"));

    assertThat(lines).contains("FRAGMENTS (3)");
    assertThat(lines).anyMatch(l -> l.matches("\\s*0\\s+100\\s+10\\s+90\\s+1\\s+0-2-123\\.arrow\\s+no"));
    assertThat(lines).anyMatch(l -> l.matches("\\s*1\\s+50\\s+0\\s+50\\s+1\\s+-\\s+no"));

    assertThat(lines).contains("INDICES (1 segment)");
    assertThat(lines).anyMatch(l -> l.matches("id_idx\\s+" + TableFixture.INDEX_UUID
        + "\\s+\\[id\\]\\s+3\\s+2\\s+/lance\\.table\\.BTreeIndexDetails"));

    assertThat(lines).contains("CONFIG (2 entries)");
    assertThat(lines).anyMatch(l -> l.matches("owner\\s+alice"));
    assertThat(lines).contains("TABLE METADATA (0 entries)", "BASE PATHS (0)");
  }

  @Test
  void selectsAnOlderVersion() {
    Cli.Result r = Cli.run("inspect", table.location(), "--version", "1");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).anyMatch(l -> l.matches("version:\\s+1"));
    assertThat(r.outLines()).contains("FRAGMENTS (1)", "INDICES (0 segments)");
  }

  @Test
  void selectsAVersionByTag() throws Exception {
    Path tags = dir.resolve("t/_refs/tags");
    Files.createDirectories(tags);
    Files.writeString(tags.resolve("first.json"), "{\"version\": 2, \"manifestSize\": 10}");

    Cli.Result r = Cli.run("inspect", table.location(), "--tag", "first");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).anyMatch(l -> l.matches("version:\\s+2"));
  }

  @Test
  void jsonParsesBackIntoExactlyTheManifestMessage() throws Exception {
    Cli.Result r = Cli.run("inspect", table.location(), "--version", "4", "--json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    TableProtos.Manifest.Builder parsed = TableProtos.Manifest.newBuilder();
    JsonFormat.parser().merge(r.out(), parsed);
    try (Table t = Table.open(table.location())) {
      Snapshot s = t.version(4);
      assertThat(parsed.build()).isEqualTo(ManifestCodec.toProto(s.manifest()));
    }
  }

  @Test
  void indicesJsonIsTheIndexSection() throws Exception {
    Cli.Result r = Cli.run("inspect", table.location(), "--indices", "--json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"@type\": \"" + TableFixture.BTREE_DETAILS + "\"");
    try (Table t = Table.open(table.location())) {
      TableProtos.IndexSection expected = IndexCodec.toProto(t.latest().indices());
      TableProtos.IndexSection.Builder parsed = TableProtos.IndexSection.newBuilder();
      JsonFormat.parser().usingTypeRegistry(ProtoJson.registryFor(expected)).merge(r.out(), parsed);
      assertThat(parsed.build()).isEqualTo(expected);
      assertThat(parsed.getIndicesCount()).isEqualTo(1);
    }
  }

  @Test
  void indicesWithoutJsonPrintOnlyTheIndexTable() {
    Cli.Result r = Cli.run("inspect", table.location(), "--indices");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).contains("INDICES (1 segment)");
    assertThat(r.out()).contains("id_idx").doesNotContain("SCHEMA").doesNotContain("FRAGMENTS (");
  }

  @Test
  void filesListsEveryDataFile() {
    Cli.Result r = Cli.run("inspect", table.location(), "--files");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).contains("DATA FILES (3)");
    assertThat(r.outLines()).anyMatch(l -> l.matches(
        "\\s*2\\s+data/f2\\.lance\\s+\\[0, 1, 2, 3, 4\\]\\s+\\[0, 1, 2, 3, 4\\]\\s+2\\.1\\s+4096\\s+-"));
  }

  @Test
  void longFragmentListsAreCutUnlessAll() {
    TableFixture many = TableFixture.manyFragments(dir.resolve("many"), 63);

    Cli.Result cut = Cli.run("inspect", many.location());
    assertThat(cut.exitCode()).as(cut.err()).isZero();
    assertThat(fragmentRows(cut)).hasSize(50);
    assertThat(cut.outLines()).contains("... 13 more (use --all)");

    Cli.Result all = Cli.run("inspect", many.location(), "--all");
    assertThat(all.exitCode()).as(all.err()).isZero();
    assertThat(fragmentRows(all)).hasSize(63);
    assertThat(all.out()).doesNotContain("more (use --all)");
  }

  /** The data rows of the FRAGMENTS table: between its rule line and the next blank line. */
  private static List<String> fragmentRows(Cli.Result r) {
    List<String> lines = r.outLines();
    int start = lines.indexOf("FRAGMENTS (63)") + 3;
    int end = start;
    while (end < lines.size() && !lines.get(end).isEmpty() && !lines.get(end).startsWith("...")) {
      end++;
    }
    return lines.subList(start, end);
  }

  @Test
  void acceptsAFileUri() {
    Cli.Result r = Cli.run("inspect", dir.resolve("t").toUri().toString(), "--version", "2");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).anyMatch(l -> l.matches("fragments:\\s+2"));
  }
}
