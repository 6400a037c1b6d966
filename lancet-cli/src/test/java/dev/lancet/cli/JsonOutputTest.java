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
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.conflict.ConfigMap;
import dev.lancet.core.conflict.Coordinate;
import dev.lancet.core.conflict.deletions.StoreDeletionVectors;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TableProtos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
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
    // Version 2 set lancet.demo; a writer that read version 1 sets it too, with no retries. As a
    // composite (a legacy UpdateConfig against a composite winner fails closed, untyped: 0022).
    Cli.Result r = Cli.run("commit", table.toString(), "--file",
        write("op.json", setKey("lancet.demo")).toString(), "--read-version", "1", "--json",
        "--write-form", "composite");
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
    // The same collision, typed: what collided and where, not only a sentence.
    assertThat(o.get("conflicts").isArray()).isTrue();
    assertThat(o.get("conflicts").size()).isEqualTo(o.get("collisions").size());
    JsonNode c = o.get("conflicts").get(0);
    assertThat(c.get("kind").textValue()).isEqualTo("CONFIG");
    assertThat(c.get("map").textValue()).isEqualTo("config");
    assertThat(c.get("key").textValue()).isEqualTo("lancet.demo");
    assertThat(o.get("collisions").get(0).textValue()).isEqualTo("CONFIG: " + c.get("description").textValue());
    assertThat(r.err()).startsWith("lancet: retryable conflict: ");
  }

  @Test
  void aRowLevelDeleteConflictNamesTheFragmentAndTheRowsAsIntegers() throws Exception {
    Path root = dir.resolve("rows");
    Schema schema = new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of());
    Fragment fragment = Fragment.of(0, 100, List.of(new DataFile("0.lance", List.of(0), List.of(0), 2, 1, 100)));
    // The commit checks that the data file exists with its recorded size.
    java.nio.file.Files.createDirectories(root.resolve("data"));
    java.nio.file.Files.write(root.resolve("data/0.lance"), new byte[100]);
    StoreDeletionVectors vectors = new StoreDeletionVectors(new LocalObjectStore(root));
    try (Table t = Table.create(root.toString(), new LocalObjectStore(root),
        new Overwrite(List.of(fragment), schema, Map.of(), List.of()), new DataStorageFormat("lance", "2.1"))) {
      DeletionFile first = FragmentCodec.fromProto(vectors.write(0, 1, DeletionVector.of(1, 2, 70)));
      t.newTransaction().readVersion(1).step("delete 1, 2, 70", s -> s.setDeletionFile(0, first)).commit();
    }
    DeletionFile second = FragmentCodec.fromProto(vectors.write(0, 1, DeletionVector.of(2, 5, 70)));
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("delete 2, 5, 70",
        List.of(new SetDeletionFile(0, Optional.of(second), true)))));

    Cli.Result r = Cli.run("commit", root.toString(), "--file", write("delete.json", op).toString(),
        "--read-version", "1", "--json");

    assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.RETRYABLE_CONFLICT);
    JsonNode o = StrictJson.parse(r.out());
    assertInteger(o.get("winnerVersion"), 2);
    JsonNode c = o.get("conflicts").get(0);
    assertThat(o.get("conflicts").size()).isEqualTo(1);
    assertThat(c.get("kind").textValue()).isEqualTo("FRAGMENT_DELETIONS");
    assertInteger(c.get("fragment"), 0);
    assertThat(c.get("rows").size()).isEqualTo(2);
    assertInteger(c.get("rows").get(0), 2);
    assertInteger(c.get("rows").get(1), 70);
    assertInteger(c.get("rowCount"), 2);
    assertThat(c.get("description").textValue()).contains("fragment 0").contains("[2, 70]");
  }

  @Test
  void everyKindOfCollisionPrintsItsTypedFieldsAsStrictJson() {
    List<Collision> all = List.of(
        new Collision.WholeTable("reset"),
        new Collision.Fragment(-1L, "the largest fragment id"),
        new Collision.FragmentDeletions(3, DeletionVector.ofRange(0, 1500), "many rows"),
        new Collision.RowVersions(4, "row versions"),
        new Collision.FieldData(5, 6, "field data"),
        new Collision.Schema(OptionalInt.of(7), Optional.empty(), "definition"),
        new Collision.Schema(OptionalInt.empty(), Optional.of("label"), "name"),
        new Collision.Base(Optional.of("archive"), Optional.of("/mnt/a"), "base"),
        new Collision.Config(ConfigMap.field(8), Optional.of("k"), "field metadata key"),
        new Collision.Config(ConfigMap.TABLE_METADATA, Optional.empty(), "whole map"),
        new Collision.UnenforcedKey(Coordinate.KeyKind.PRIMARY, "pk"),
        new Collision.Index(Optional.of("by_a"), Optional.of(new UUID(1, 2)), "index"),
        new Collision.KeyAssertion(List.of(Ref.committed(0), Ref.local(1)), List.of(-2L, 9L), "keys"),
        new Collision.Relocation(9, DeletionVector.of(4), "moved"),
        new Collision.CellsChanged(10, List.of(0, 1), DeletionVector.of(2, 3), "cells"),
        new Collision.Nullability(OptionalInt.of(11), "nullability"),
        new Collision.LegacyRule("Delete", "Rewrite", List.of(12L), "legacy"),
        new Collision.InvalidAfterRebase("invalid after the rebase"),
        new Collision.FailClosed("unreadable"));
    java.util.Set<Class<?>> kinds = new java.util.HashSet<>();
    all.forEach(c -> kinds.add(c.getClass()));
    assertThat(kinds).as("one sample of every collision record").containsExactlyInAnyOrder(
        Collision.class.getPermittedSubclasses());

    JsonNode json = StrictJson.parse(CliJson.print(ConflictJson.of(all)));

    assertThat(json.size()).isEqualTo(all.size());
    for (int i = 0; i < all.size(); i++) {
      assertThat(json.get(i).get("kind").textValue()).isEqualTo(all.get(i).kind().name());
      assertThat(json.get(i).get("description").textValue()).isEqualTo(all.get(i).description());
    }
    assertUnsigned(json.get(1).get("fragment"), -1L);
    assertThat(json.get(2).get("rows").size()).isEqualTo(ConflictJson.MAX_ROWS);
    assertInteger(json.get(2).get("rowCount"), 1500);
    assertInteger(json.get(4).get("field"), 6);
    assertInteger(json.get(5).get("field"), 7);
    assertThat(json.get(6).get("name").textValue()).isEqualTo("label");
    assertThat(json.get(8).get("map").textValue()).isEqualTo("field_metadata");
    assertInteger(json.get(8).get("field"), 8);
    assertThat(json.get(9).has("key")).isFalse();
    assertThat(json.get(10).get("key").textValue()).isEqualTo("primary");
    assertThat(json.get(11).get("segment").textValue()).isEqualTo(new UUID(1, 2).toString());
    assertInteger(json.get(12).get("keyFields").get(0).get("committed"), 0);
    assertInteger(json.get(12).get("keyFields").get(1).get("local"), 1);
    assertUnsigned(json.get(12).get("sharedKeyHashes").get(0), -2L);
    assertInteger(json.get(14).get("fields").get(1), 1);
    assertInteger(json.get(14).get("rows").get(1), 3);
    assertThat(json.get(16).get("theirOperation").textValue()).isEqualTo("Rewrite");
    assertInteger(json.get(16).get("fragments").get(0), 12);
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
    JsonNode c = o.get("conflicts").get(0);
    assertThat(c.get("kind").textValue()).isEqualTo("LEGACY_RULE");
    assertThat(c.get("ourOperation").textValue()).isEqualTo("Append");
    assertThat(c.get("theirOperation").textValue()).isEqualTo("Overwrite");
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
