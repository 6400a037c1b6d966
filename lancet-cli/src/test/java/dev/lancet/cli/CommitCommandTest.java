package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.pb.TransactionProtos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitCommandTest {
  @TempDir Path dir;
  Path table;

  @BeforeEach
  void createTable() {
    table = TableFixture.createSmallTable(dir.resolve("t"));
  }

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
  void commitsACompositeOperationAndPrintsTheVersion() throws Exception {
    Cli.Result r = Cli.run("commit", table.toString(), "--file", write("op.json", setKey("a")).toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("committed version 3");
    try (Table t = Table.open(table.toString())) {
      assertThat(t.latest().manifest().config()).containsEntry("a", "yes");
    }
  }

  @Test
  void acceptsAWholeTransactionAndKeepsItsUuid() throws Exception {
    TransactionProtos.Transaction txn = TransactionProtos.Transaction.newBuilder()
        .setUuid("11111111-2222-3333-4444-555555555555").setReadVersion(2)
        .setCompositeOperation(ActionCodec.encode(setKey("b"))).build();
    Path file = dir.resolve("txn.json");
    Files.writeString(file, JsonFormat.printer().print(txn));
    Cli.Result r = Cli.run("commit", table.toString(), "--file", file.toString(), "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("11111111-2222-3333-4444-555555555555");
    try (Table t = Table.open(table.toString())) {
      assertThat(t.latest().transaction().orElseThrow().getUuid()).isEqualTo("11111111-2222-3333-4444-555555555555");
    }
  }

  @Test
  void aCompositeIsWrittenInTheTablesWriteFormUnlessTold() throws Exception {
    // No lancet.write_form on the table: legacy_when_exact (docs/decisions/0022).
    Cli.Result r = Cli.run("commit", table.toString(), "--file", write("op.json", setKey("a")).toString(),
        "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out()).get("writtenAs")
        .asText()).isEqualTo("UpdateConfig");
    try (Table t = Table.open(table.toString())) {
      assertThat(t.latest().transaction().orElseThrow().getOperationCase())
          .isEqualTo(TransactionProtos.Transaction.OperationCase.UPDATE_CONFIG);
    }
    r = Cli.run("commit", table.toString(), "--file", write("op2.json", setKey("b")).toString(),
        "--write-form", "composite");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("written as CompositeOperation");
    try (Table t = Table.open(table.toString())) {
      assertThat(t.latest().transaction().orElseThrow().getOperationCase())
          .isEqualTo(TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION);
    }
    r = Cli.run("commit", table.toString(), "--file", write("op3.json", setKey("c")).toString(),
        "--write-form", "sometimes");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("--write-form must be 'composite' or 'legacy_when_exact'");
  }

  @Test
  void aStaleReadVersionExitsThree() throws Exception {
    // Version 2 set lancet.demo; a writer that read version 1 sets it too.
    Cli.Result r = Cli.run("commit", table.toString(), "--file", write("op.json", setKey("lancet.demo")).toString(),
        "--read-version", "1");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.RETRYABLE_CONFLICT);
    assertThat(r.err()).contains("retryable conflict");
  }

  @Test
  void invalidInputExitsTwoAndCommitsNothing() throws Exception {
    CompositeOperation bad = new CompositeOperation(List.of(new UserStep("drop",
        List.of(new RemoveFragment(Ref.committed(9), true)))));
    Cli.Result r = Cli.run("commit", table.toString(), "--file", write("bad.json", bad).toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("RemoveFragment targets fragment 9");
    Path garbage = dir.resolve("garbage.json");
    Files.writeString(garbage, "{\"nope\": 1}");
    assertThat(Cli.run("commit", table.toString(), "--file", garbage.toString()).exitCode()).isEqualTo(2);
    try (Table t = Table.open(table.toString())) {
      assertThat(t.latest().version()).isEqualTo(2);
    }
  }

  @Test
  void aLegacyAppendCommitsAsLanceWouldAndIsStoredInline() throws Exception {
    // The data file the Append names must exist (its size is not recorded, so any size does).
    Files.createDirectories(table.resolve("data"));
    Files.write(table.resolve("data/x.lance"), new byte[16]);
    Path file = dir.resolve("legacy.json");
    Files.writeString(file, "{\"uuid\": \"9d2f0e2c-0000-4000-8000-000000000001\", \"append\": {\"fragments\": [{"
        + "\"id\": \"0\", \"physicalRows\": \"5\", \"files\": [{\"path\": \"x.lance\", \"fields\": [0], "
        + "\"columnIndices\": [0], \"fileMajorVersion\": 2, \"fileMinorVersion\": 1}]}]}}");
    Cli.Result r = Cli.run("commit", table.toString(), "--file", file.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("committed version 3").contains("1 attempt(s)");
    try (Table t = Table.open(table.toString())) {
      TransactionProtos.Transaction stored = t.latest().transaction().orElseThrow();
      assertThat(stored.hasAppend()).isTrue();
      assertThat(stored.getUuid()).isEqualTo("9d2f0e2c-0000-4000-8000-000000000001");
      assertThat(t.latest().manifest().fragments()).extracting(f -> f.physicalRows()).contains(5L);
    }
  }

  @Test
  void aMalformedLegacyOperationExitsTwoAndNamesTheField() throws Exception {
    Path file = dir.resolve("legacy.json");
    Files.writeString(file, "{\"readVersion\": \"2\", \"uuid\": \"x\", \"rewrite\": {\"groups\": [{}]}}");
    Cli.Result r = Cli.run("commit", table.toString(), "--file", file.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("Rewrite");
    try (Table t = Table.open(table.toString())) {
      assertThat(t.latest().version()).isEqualTo(2);
    }
  }

  @Test
  void aLegacyAppendAfterAConcurrentOverwriteExitsFour() throws Exception {
    Path overwrite = dir.resolve("overwrite.json");
    Files.writeString(overwrite, "{\"overwrite\": {\"schema\": [{\"name\": \"id\", \"id\": 0, "
        + "\"parentId\": -1, \"logicalType\": \"int64\", \"type\": \"LEAF\"}]}}");
    assertThat(Cli.run("commit", table.toString(), "--file", overwrite.toString()).exitCode()).isZero();
    Path append = dir.resolve("append.json");
    Files.writeString(append, "{\"readVersion\": \"2\", \"append\": {}}");
    Cli.Result r = Cli.run("commit", table.toString(), "--file", append.toString());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.INCOMPATIBLE);
    assertThat(r.err()).contains("incompatible transaction").contains("Overwrite");
  }

}
