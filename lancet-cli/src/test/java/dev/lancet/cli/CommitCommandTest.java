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
    table = dir.resolve("t");
    assertThat(Cli.run("demo", table.toString()).exitCode()).isZero();
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
  void aStaleReadVersionExitsThree() throws Exception {
    Cli.Result r = Cli.run("commit", table.toString(), "--file", write("op.json", setKey("c")).toString(),
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
  void legacyOperationsAreRefusedForNow() throws Exception {
    Path file = dir.resolve("legacy.json");
    Files.writeString(file, "{\"readVersion\": \"2\", \"uuid\": \"x\", \"append\": {}}");
    Cli.Result r = Cli.run("commit", table.toString(), "--file", file.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("legacy append operation");
  }
}
