package dev.lancet.cli;

import static dev.lancet.cli.StrictJson.assertInteger;
import static dev.lancet.cli.StrictJson.assertUnsigned;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.pb.TableProtos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code --json} output parses with a strict JSON parser, and its numbers are JSON
 * integers equal to what the table holds (a version printed as {@code 10.0} or {@code "10"}
 * fails here).
 */
class JsonOutputTest {
  @TempDir Path dir;

  private Path write(String name, CompositeOperation op) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, JsonFormat.printer().print(ActionCodec.encode(op)));
    return file;
  }

  private static CompositeOperation setKey(String key) {
    return new CompositeOperation(List.of(new UserStep("set " + key,
        List.of(ConfigUpdate.ofConfig(UpdateMap.set(key, "yes"))))));
  }

  @Test
  void logPrintsVersionsAndReadVersionsAsIntegers() {
    TableFixture table = TableFixture.history(dir.resolve("t"));
    Cli.Result r = Cli.run("log", table.location(), "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();

    JsonNode log = StrictJson.parse(r.out());
    assertThat(log.isArray()).isTrue();
    try (Table t = Table.open(table.location())) {
      List<Long> versions = new ArrayList<>();
      t.versions().forEach(v -> versions.add(0, v.version()));
      assertThat(log.size()).isEqualTo(versions.size());
      for (int i = 0; i < versions.size(); i++) {
        JsonNode entry = log.get(i);
        assertInteger(entry.get("version"), versions.get(i));
        JsonNode read = entry.get("readVersion");
        if (!read.isNull()) {
          assertInteger(read, t.version(versions.get(i)).transaction().orElseThrow().getReadVersion());
        }
      }
    }
    assertThat(r.out()).doesNotContain(".0,").doesNotContain(".0\n");
  }

  @Test
  void commitPrintsTheVersionAndAttemptsAsIntegers() throws Exception {
    Path table = TableFixture.createSmallTable(dir.resolve("t"));
    Cli.Result r = Cli.run("commit", table.toString(), "--file", write("op.json", setKey("a")).toString(), "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();

    JsonNode o = StrictJson.parse(r.out());
    assertThat(o.get("ok").booleanValue()).isTrue();
    assertInteger(o.get("exitCode"), 0);
    assertInteger(o.get("attempts"), 1);
    try (Table t = Table.open(table.toString())) {
      assertInteger(o.get("version"), t.latest().version());
      assertThat(o.get("uuid").textValue()).isEqualTo(t.latest().transaction().orElseThrow().getUuid());
    }
  }

  @Test
  void aRetryableConflictIsAJsonObjectNamingTheWinnerAndTheCollisions() throws Exception {
    Path table = TableFixture.createSmallTable(dir.resolve("t"));
    // Version 2 set lancet.demo; a writer that read version 1 sets it too, with no retries.
    Cli.Result r = Cli.run("commit", table.toString(), "--file",
        write("op.json", setKey("lancet.demo")).toString(), "--read-version", "1", "--json");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.RETRYABLE_CONFLICT);

    JsonNode o = StrictJson.parse(r.out());
    assertThat(o.get("ok").booleanValue()).isFalse();
    assertInteger(o.get("exitCode"), ExitCodes.RETRYABLE_CONFLICT);
    assertThat(o.get("error").textValue()).isEqualTo("retryable_conflict");
    assertInteger(o.get("winnerVersion"), 2);
    assertThat(o.get("winnerOperation").textValue()).isNotBlank();
    assertThat(o.get("collisions").isArray()).isTrue();
    assertThat(o.get("collisions").size()).isPositive();
    assertThat(o.get("collisions").get(0).textValue()).contains("lancet.demo");
    assertThat(r.err()).startsWith("lancet: retryable conflict: ");
  }

  @Test
  void anIncompatibleTransactionIsAJsonObjectWithExitCodeFour() throws Exception {
    Path table = TableFixture.createSmallTable(dir.resolve("t"));
    Path overwrite = dir.resolve("overwrite.json");
    Files.writeString(overwrite, "{\"overwrite\": {\"schema\": [{\"name\": \"id\", \"id\": 0, "
        + "\"parentId\": -1, \"logicalType\": \"int64\", \"type\": \"LEAF\"}]}}");
    assertThat(Cli.run("commit", table.toString(), "--file", overwrite.toString()).exitCode()).isZero();
    Path append = dir.resolve("append.json");
    Files.writeString(append, "{\"readVersion\": \"2\", \"append\": {}}");

    Cli.Result r = Cli.run("commit", table.toString(), "--file", append.toString(), "--json");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.INCOMPATIBLE);
    JsonNode o = StrictJson.parse(r.out());
    assertInteger(o.get("exitCode"), ExitCodes.INCOMPATIBLE);
    assertThat(o.get("error").textValue()).isEqualTo("incompatible");
    assertInteger(o.get("winnerVersion"), 3);
    assertThat(o.get("winnerOperation").textValue()).isEqualTo("Overwrite");
  }

  @Test
  void invalidInputAndBadArgumentsAreJsonObjectsWithExitCodeTwo() throws Exception {
    Path table = TableFixture.createSmallTable(dir.resolve("t"));
    CompositeOperation bad = new CompositeOperation(List.of(new UserStep("drop",
        List.of(new RemoveFragment(Ref.committed(9), true)))));
    Cli.Result invalid = Cli.run("commit", table.toString(), "--file", write("bad.json", bad).toString(), "--json");
    assertThat(invalid.exitCode()).isEqualTo(ExitCodes.USAGE);
    JsonNode o = StrictJson.parse(invalid.out());
    assertThat(o.get("error").textValue()).isEqualTo("invalid_input");
    assertInteger(o.get("exitCode"), ExitCodes.USAGE);
    assertThat(o.get("message").textValue()).contains("RemoveFragment targets fragment 9");

    Cli.Result usage = Cli.run("commit", table.toString(), "--file", "x.json", "--max-retries", "lots", "--json");
    assertThat(usage.exitCode()).isEqualTo(ExitCodes.USAGE);
    JsonNode u = StrictJson.parse(usage.out());
    assertThat(u.get("error").textValue()).isEqualTo("usage");
    assertThat(u.get("message").textValue()).contains("--max-retries");
  }

  @Test
  void inspectAndShowTxnPrint64BitIntegersAsNumbersAndStillParseAsProtobufJson() throws Exception {
    TableFixture table = TableFixture.history(dir.resolve("t"));
    Cli.Result inspect = Cli.run("inspect", table.location(), "--version", "4", "--json");
    assertThat(inspect.exitCode()).as(inspect.err()).isZero();
    JsonNode manifest = StrictJson.parse(inspect.out());
    assertInteger(manifest.get("version"), 4);
    JsonNode fragment = manifest.get("fragments").get(0);
    try (Table t = Table.open(table.location())) {
      assertInteger(fragment.get("physicalRows"), t.version(4).manifest().fragments().get(0).physicalRows());
    }
    assertNoStringIntegers(manifest);
    TableProtos.Manifest.Builder parsed = TableProtos.Manifest.newBuilder();
    JsonFormat.parser().merge(inspect.out(), parsed);
    assertThat(parsed.getVersion()).isEqualTo(4);

    Cli.Result txn = Cli.run("show-txn", table.location(), "--version", "4", "--json");
    assertThat(txn.exitCode()).as(txn.err()).isZero();
    JsonNode t = StrictJson.parse(txn.out());
    assertInteger(t.get("readVersion"), 3);
    assertNoStringIntegers(t);
  }

  @Test
  void theLargestUnsignedVersionPrintsExactly() {
    JsonNode manifest = ProtoJson.toJson(TableProtos.Manifest.newBuilder().setVersion(-1L).build());
    assertUnsigned(manifest.get("version"), -1L);
    assertThat(CliJson.print(manifest)).contains("18446744073709551615");
  }

  @Test
  void aMessageWithFieldsThisBuildDoesNotKnowIsRefusedNotPrintedAsEmpty() {
    // The older V2 layout kept the steps in CompositeOperation field 3; protobuf JSON would
    // print such an operation as {} and lose them.
    var oldLayout = dev.lancet.format.pb.ActionProtos.CompositeOperation.newBuilder()
        .setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder()
            .addField(3, com.google.protobuf.UnknownFieldSet.Field.newBuilder()
                .addLengthDelimited(com.google.protobuf.ByteString.copyFromUtf8("step")).build())
            .build())
        .build();
    var txn = dev.lancet.format.pb.TransactionProtos.Transaction.newBuilder()
        .setReadVersion(3).setCompositeOperation(oldLayout).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProtoJson.toJson(txn))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("field 3 of Transaction.composite_operation");
  }

  /** Fields that are map<string, string>: their values are strings whatever they spell. */
  private static final java.util.Set<String> STRING_MAPS = java.util.Set.of(
      "config", "tableMetadata", "metadata", "schemaMetadata", "transactionProperties",
      "upsertValues", "configUpsertValues", "configUpdates");

  /** No value anywhere is a string of digits (the proto3 spelling of a 64-bit integer). */
  private static void assertNoStringIntegers(JsonNode node) {
    assertNoStringIntegers(node, "$");
  }

  private static void assertNoStringIntegers(JsonNode node, String path) {
    if (node.isTextual()) {
      assertThat(node.textValue()).as("%s: a 64-bit integer printed as a string", path)
          .doesNotMatch("-?[0-9]+");
    }
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        assertNoStringIntegers(node.get(i), path + "[" + i + "]");
      }
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!STRING_MAPS.contains(name)) {
        assertNoStringIntegers(node.get(name), path + "." + name);
      }
    }
  }
}
