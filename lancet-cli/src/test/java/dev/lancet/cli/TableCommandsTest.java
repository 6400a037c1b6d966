package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table verbs end to end on real Lance files, with their exit codes. */
class TableCommandsTest {
  @TempDir Path tmp;
  private static final ObjectMapper JSON = new ObjectMapper();

  private Path csv(String name, String text) throws Exception {
    Path p = tmp.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void csvCarriesTimestampsAndVectorsAndScansPrintThemAsIso() throws Exception {
    String t = tmp.resolve("ts").toString();
    Path rows = csv("ts.csv", "id,at,day,embedding\n"
        + "1,2024-05-01T12:00:00.5Z,2024-05-01,\"[0.5, 1, 2]\"\n"
        + "2,2024-05-02T00:00:00,,\n");
    Cli.Result created = Cli.run("create", t, "--from", rows.toString(), "--schema",
        "id:int64,at:timestamp:us:UTC,day:date32:day,embedding:fixed_size_list:float:3");
    assertThat(created.exitCode()).as(created.err()).isZero();
    JsonNode json = JSON.readTree(Cli.run("scan", t, "--json").out());
    assertThat(json.get(0).get("at").asText()).isEqualTo("2024-05-01T12:00:00.5Z");
    assertThat(json.get(1).get("at").asText()).isEqualTo("2024-05-02T00:00:00Z");
    assertThat(json.get(0).get("day").asText()).isEqualTo("2024-05-01");
    assertThat(json.get(1).get("day").isNull()).isTrue();
    assertThat(json.get(0).get("embedding").get(2).asDouble()).isEqualTo(2.0);
    assertThat(json.get(1).get("embedding").isNull()).isTrue();
    JsonNode raw = JSON.readTree(Cli.run("scan", t, "--json", "--raw-temporal").out());
    assertThat(raw.get(0).get("at").asLong()).isEqualTo(1714564800500000L);
    assertThat(raw.get(0).get("day").asLong()).isEqualTo(19844);
    assertThat(Cli.run("scan", t, "--format", "csv", "--columns", "at").out())
        .isEqualTo("at\r\n2024-05-01T12:00:00.5Z\r\n2024-05-02T00:00:00Z\r\n");
    assertThat(Cli.run("scan", t).out()).contains("2024-05-01T12:00:00.5Z");
    // Appending CSV converts to the table's types, vectors included.
    Cli.Result appended = Cli.run("append", t, "--from", csv("more.csv",
        "embedding,id,day,at\n\"[1,2,3]\",3,2024-06-01,2024-06-01T08:00:00Z\n").toString());
    assertThat(appended.exitCode()).as(appended.err()).isZero();
    Cli.Result wrongWidth = Cli.run("append", t, "--from", csv("bad.csv",
        "id,at,day,embedding\n4,2024-06-01T08:00:00Z,,\"[1,2]\"\n").toString());
    assertThat(wrongWidth.exitCode()).isEqualTo(2);
    assertThat(wrongWidth.err()).contains("line 2").contains("embedding").contains("2 items");
  }

  @Test
  void csvInputIsStrict() throws Exception {
    String t = tmp.resolve("strict").toString();
    Cli.Result ragged = Cli.run("create", t, "--from", csv("r.csv", "a,b\n1,2\n3\n4,5\n").toString());
    assertThat(ragged.exitCode()).isEqualTo(2);
    assertThat(ragged.err()).contains("line 3 has 1 field(s), but the header has 2");
    assertThat(java.nio.file.Files.exists(tmp.resolve("strict/_versions"))).isFalse();
    Cli.Result extra = Cli.run("create", t, "--from", csv("e.csv", "a,b\n1,2,3\n").toString());
    assertThat(extra.exitCode()).isEqualTo(2);
    assertThat(extra.err()).contains("line 2 has 3 field(s)");
    Path latin1 = tmp.resolve("l.csv");
    java.nio.file.Files.write(latin1, new byte[] {'a', '\n', (byte) 0xE9, '\n'});
    Cli.Result notUtf8 = Cli.run("create", t, "--from", latin1.toString());
    assertThat(notUtf8.exitCode()).isEqualTo(2);
    assertThat(notUtf8.err()).contains("is not UTF-8");
    // A byte-order mark is not part of the first column's name.
    Path bom = tmp.resolve("bom.csv");
    java.nio.file.Files.write(bom, ("\uFEFFid,name\n1,x\n")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Cli.Result created = Cli.run("create", t, "--from", bom.toString());
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(JSON.readTree(Cli.run("scan", t, "--json").out()).get(0).fieldNames())
        .toIterable().containsExactly("id", "name");
    // Integers too wide for 64 bits stay distinct (decimal), never one double.
    String w = tmp.resolve("wide").toString();
    Cli.Result wide = Cli.run("create", w, "--from", csv("w.csv",
        "id\n12345678901234567890\n12345678901234567891\n").toString());
    assertThat(wide.exitCode()).as(wide.err()).isZero();
    JsonNode ids = JSON.readTree(Cli.run("scan", w, "--json").out());
    assertThat(ids.get(0).get("id").asText()).isEqualTo("12345678901234567890");
    assertThat(ids.get(1).get("id").asText()).isEqualTo("12345678901234567891");
  }

  @Test
  void aFailedWriteOfTheOutputIsAnError() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(Path.of("/dev/full")));
    String t = tmp.resolve("full").toString();
    assertThat(Cli.run("create", t, "--from", csv("f.csv", "id\n1\n2\n").toString())
        .exitCode()).isZero();
    Cli.Result full = Cli.run("scan", t, "--output", "/dev/full", "--format", "csv");
    assertThat(full.exitCode()).isEqualTo(2);
    assertThat(full.err()).contains("/dev/full").contains("incomplete");
  }

  @Test
  void addColumnsComputedBySql() throws Exception {
    String t = tmp.resolve("sql").toString();
    Path rows = csv("s.csv", "id,score\n1,1.5\n2,\n3,0.25\n");
    assertThat(Cli.run("create", t, "--from", rows.toString()).exitCode()).isZero();
    Cli.Result added = Cli.run("add-columns", t, "--sql", "pct=score * 100", "--sql",
        "next=id + 1", "--json");
    assertThat(added.exitCode()).as(added.err()).isZero();
    JsonNode out = JSON.readTree(Cli.run("scan", t, "--format", "json").out());
    assertThat(out.get(0).get("pct").asDouble()).isEqualTo(150.0);
    assertThat(out.get(1).get("pct").isNull()).isTrue();
    assertThat(out.get(2).get("next").asLong()).isEqualTo(4);
    Cli.Result bad = Cli.run("add-columns", t, "--sql", "x=missing * 2");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("missing");
  }

  @Test
  void createAppendScanAndEvolveFromCsv() throws Exception {
    String t = tmp.resolve("t").toString();
    Path first = csv("a.csv", "id,name,score\n1,ann,1.5\n2,bob,\n3,\"c, d\",3.25\n");
    Cli.Result created = Cli.run("create", t, "--from", first.toString(), "--json");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(JSON.readTree(created.out()).get("rows").asLong()).isEqualTo(3);
    Cli.Result appended = Cli.run("append", t, "--from",
        csv("b.csv", "name,id,score\neve,4,4.0\n").toString(), "--json");
    assertThat(appended.exitCode()).as(appended.err()).isZero();
    JsonNode a = JSON.readTree(appended.out());
    assertThat(a.get("version").isIntegralNumber()).isTrue();
    assertThat(a.get("version").asLong()).isEqualTo(2);

    Cli.Result scan = Cli.run("scan", t, "--format", "json");
    assertThat(scan.exitCode()).as(scan.err()).isZero();
    JsonNode rows = JSON.readTree(scan.out());
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0).get("id").isIntegralNumber()).isTrue();
    assertThat(rows.get(2).get("name").asText()).isEqualTo("c, d");
    assertThat(rows.get(1).get("score").isNull()).isTrue();

    assertThat(Cli.run("scan", t, "--columns", "name", "--version", "1", "--format", "csv").out())
        .isEqualTo("name\r\nann\r\nbob\r\n\"c, d\"\r\n");
    Cli.Result table = Cli.run("scan", t, "--limit", "2", "--offset", "1", "--with-row-address");
    assertThat(table.out()).contains("_rowaddr").contains("bob").contains("2 row(s)")
        .doesNotContain("ann");

    assertThat(Cli.run("add-columns", t, "--null", "note:string").exitCode()).isZero();
    assertThat(Cli.run("alter-columns", t, "--rename", "name=label", "--cast", "score=float")
        .exitCode()).isZero();
    assertThat(Cli.run("drop-columns", t, "--columns", "note").exitCode()).isZero();
    assertThat(Cli.run("tag", t, "create", "release", "--version", "2").exitCode()).isZero();
    Cli.Result tags = Cli.run("tag", t, "list", "--json");
    assertThat(JSON.readTree(tags.out()).get(0).get("version").asLong()).isEqualTo(2);
    assertThat(Cli.run("scan", t, "--tag", "release", "--format", "json").out()).contains("\"name\"");
    Cli.Result latest = Cli.run("scan", t, "--format", "json");
    assertThat(JSON.readTree(latest.out()).get(0).fieldNames()).toIterable()
        .containsExactly("id", "label", "score");
    assertThat(Cli.run("restore", t, "--version", "1").exitCode()).isZero();
    Cli.Result dry = Cli.run("cleanup", t, "--older-than", "0s", "--dry-run", "--json");
    assertThat(dry.exitCode()).as(dry.err()).isZero();
    JsonNode d = JSON.readTree(dry.out());
    assertThat(d.get("dryRun").asBoolean()).isTrue();
    assertThat(d.get("versions")).isNotEmpty();
    Cli.Result none = Cli.run("cleanup", t, "--dry-run");
    assertThat(none.exitCode()).isNotZero();
    assertThat(none.err()).contains("--retain-last");
    JsonNode last2 = JSON.readTree(Cli.run("cleanup", t, "--retain-last", "2", "--dry-run",
        "--json").out());
    JsonNode below3 = JSON.readTree(Cli.run("cleanup", t, "--before-version", "3", "--dry-run",
        "--json").out());
    // --older-than 0s removes every version but the latest and the tagged 2; keeping the last
    // two spares the one before the latest as well.
    List<Long> all = new java.util.ArrayList<>();
    d.get("versions").forEach(v -> all.add(v.asLong()));
    assertThat(all).doesNotContain(2L);
    assertThat(last2.get("versions")).extracting(JsonNode::asLong)
        .containsExactlyElementsOf(all.subList(0, all.size() - 1));
    assertThat(below3.get("versions")).extracting(JsonNode::asLong).containsExactly(1L);
    assertThat(Cli.run("cleanup", t, "--older-than", "0s").out()).startsWith("removed");
    assertThat(JSON.readTree(Cli.run("scan", t, "--format", "json").out())).hasSize(3);
  }

  @Test
  void branchesCreateListReadWriteTagCleanAndDelete() throws Exception {
    String t = tmp.resolve("t").toString();
    assertThat(Cli.run("create", t, "--from", csv("a.csv", "id,name\n1,ann\n2,bob\n").toString())
        .exitCode()).isZero();
    assertThat(Cli.run("append", t, "--from", csv("b.csv", "id,name\n3,cy\n").toString())
        .exitCode()).isZero();
    Cli.Result created = Cli.run("branch", t, "create", "dev", "--version", "1", "--json");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(JSON.readTree(created.out()).get("parentVersion").asLong()).isEqualTo(1);
    Cli.Result appended = Cli.run("append", t, "--branch", "dev", "--from",
        csv("c.csv", "id,name\n10,dee\n").toString(), "--json");
    assertThat(appended.exitCode()).as(appended.err()).isZero();
    assertThat(JSON.readTree(appended.out()).get("version").asLong()).isEqualTo(2);
    assertThat(Cli.run("delete", t, "--branch", "dev", "--where", "id = 1").exitCode()).isZero();
    JsonNode dev = JSON.readTree(Cli.run("scan", t, "--branch", "dev", "--format", "json").out());
    assertThat(dev).extracting(r -> r.get("id").asLong()).containsExactlyInAnyOrder(2L, 10L);
    JsonNode main = JSON.readTree(Cli.run("scan", t, "--format", "json").out());
    assertThat(main).extracting(r -> r.get("id").asLong()).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(Cli.run("tag", t, "create", "dev-2", "--branch", "dev", "--version", "2")
        .exitCode()).isZero();
    JsonNode tags = JSON.readTree(Cli.run("tag", t, "list", "--json").out());
    assertThat(tags.get(0).get("branch").asText()).isEqualTo("dev");
    JsonNode atTag = JSON.readTree(Cli.run("scan", t, "--tag", "dev-2", "--format", "json").out());
    assertThat(atTag).extracting(r -> r.get("id").asLong()).containsExactlyInAnyOrder(1L, 2L, 10L);
    assertThat(Cli.run("log", t, "--branch", "dev").out()).contains("Delete").contains("Clone");
    JsonNode list = JSON.readTree(Cli.run("branch", t, "list", "--json").out());
    assertThat(list).extracting(b -> b.get("name").asText()).containsExactly("dev");
    JsonNode clean = JSON.readTree(Cli.run("cleanup", t, "--branch", "dev", "--retain-last", "1",
        "--json").out());
    assertThat(clean.get("versions")).extracting(JsonNode::asLong).containsExactly(1L);
    Cli.Result refused = Cli.run("branch", t, "delete", "dev");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains("dev-2");
    assertThat(Cli.run("tag", t, "delete", "dev-2").exitCode()).isZero();
    assertThat(Cli.run("branch", t, "delete", "dev").exitCode()).isZero();
    assertThat(Files.exists(tmp.resolve("t/_refs/branches/dev.json"))).isFalse();
    Cli.Result gone = Cli.run("scan", t, "--branch", "dev");
    assertThat(gone.exitCode()).isEqualTo(2);
    assertThat(gone.err()).contains("branch 'dev' does not exist");
  }

  @Test
  void arrowFilesInAndArrowStreamOut() throws Exception {
    String t = tmp.resolve("t").toString();
    Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("small", new ArrowType.Int(8, true)),
        Field.nullable("price", new ArrowType.Decimal(10, 2, 128))));
    Path file = tmp.resolve("in.arrow");
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, alloc)) {
      root.allocateNew();
      for (int i = 0; i < 5; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        ((TinyIntVector) root.getVector("small")).setSafe(i, i);
        ((DecimalVector) root.getVector("price")).setSafe(i, new java.math.BigDecimal(i + ".25"));
      }
      root.setRowCount(5);
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
        w.start();
        w.writeBatch();
        w.writeBatch();
        w.end();
      }
    }
    Cli.Result created = Cli.run("create", t, "--from", file.toString(), "--storage-version", "2.0",
        "--stable-row-ids");
    assertThat(created.exitCode()).as(created.err()).isZero();
    Path out = tmp.resolve("out.arrows");
    assertThat(Cli.run("scan", t, "--format", "arrow", "--with-row-id", "--output", out.toString())
        .exitCode()).isZero();
    try (BufferAllocator alloc = new RootAllocator();
        ArrowStreamReader r = new ArrowStreamReader(Files.newInputStream(out), alloc)) {
      long rows = 0;
      while (r.loadNextBatch()) {
        rows += r.getVectorSchemaRoot().getRowCount();
      }
      assertThat(rows).isEqualTo(10);
      assertThat(r.getVectorSchemaRoot().getSchema().getFields()).extracting(Field::getName)
          .containsExactly("id", "small", "price", "_rowid");
    }
    Cli.Result json = Cli.run("scan", t, "--format", "json", "--limit", "1");
    assertThat(JSON.readTree(json.out()).get(0).get("price").decimalValue())
        .isEqualByComparingTo("0.25");
  }

  @Test
  void badInputExitsTwoWithTheReasonAndCommitsNothing() throws Exception {
    String t = tmp.resolve("t").toString();
    assertThat(Cli.run("create", t, "--from", csv("a.csv", "id\n1\n").toString()).exitCode()).isZero();
    Path binary = tmp.resolve("x.bin");
    Files.write(binary, new byte[] {0, 1, 2, 3, 4, 5, 6, 7});
    Cli.Result notArrow = Cli.run("append", t, "--from", binary.toString());
    assertThat(notArrow.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(notArrow.err()).contains("neither an Arrow IPC file or stream nor CSV");
    Cli.Result wrongType = Cli.run("append", t, "--from", csv("b.csv", "id\nx\n").toString());
    assertThat(wrongType.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(wrongType.err()).contains("line 2").contains("'x'");
    Cli.Result exists = Cli.run("create", t, "--from", csv("c.csv", "id\n1\n").toString());
    assertThat(exists.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(exists.err()).contains("already exists");
    assertThat(Cli.run("tag", t, "create", "v", "--version", "1").exitCode()).isZero();
    assertThat(Cli.run("tag", t, "create", "v", "--version", "1").err()).contains("already exists");
    assertThat(Cli.run("restore", t, "--version", "9").exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(Cli.run("alter-columns", t, "--cast", "id=string").err()).contains("cannot cast");
    Cli.Result scan = Cli.run("scan", t, "--format", "json");
    assertThat(JSON.readTree(scan.out())).hasSize(1);
    ByteArrayOutputStream ignored = new ByteArrayOutputStream();
    assertThat(ignored.size()).isZero();
  }
}
