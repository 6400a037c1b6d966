package dev.lancet.interop.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.cli.Main;
import dev.lancet.store.s3.S3ProxyServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on an {@code s3://} table that lance-core wrote, with {@code --storage-option}s. */
class S3CliTest {
  @TempDir Path dir;

  private record Result(int code, String out, String err) {}

  private static Result run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  private static com.fasterxml.jackson.databind.JsonNode json(Result r) throws java.io.IOException {
    return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
  }

  /** A new bucket holding a table of ids 0..19 in two fragments, written by lance-core. */
  private static String lanceTable(String bucket, Map<String, String> opts) {
    String uri = "s3://" + S3ProxyServer.shared().newBucket(bucket) + "/t";
    try (BufferAllocator alloc = new RootAllocator()) {
      LanceOnS3.create(uri, opts, alloc, 20, 10);
    }
    return uri;
  }

  private static List<String> withOptions(Map<String, String> options, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    options.forEach((k, v) -> {
      all.add("--storage-option");
      all.add(k + "=" + v);
    });
    return all;
  }

  @Test
  void inspectLogCommitAndShowTxnOnS3() throws Exception {
    Map<String, String> opts = S3ProxyServer.shared().storageOptions();
    String uri = lanceTable("cli", opts);
    Result inspect = run(withOptions(opts, "inspect", uri, "--json"));
    assertThat(inspect.code()).as(inspect.err()).isZero();
    assertThat(inspect.out()).contains("\"version\": 1,");

    Path op = Files.writeString(dir.resolve("op.json"), com.google.protobuf.util.JsonFormat.printer().print(
        dev.lancet.core.action.ActionCodec.encode(new dev.lancet.core.action.CompositeOperation(List.of(
            new dev.lancet.core.action.UserStep("cfg", List.of(dev.lancet.core.action.ConfigUpdate.ofConfig(
                dev.lancet.core.action.UpdateMap.set("k", "v")))))))));
    Result commit = run(withOptions(opts, "commit", uri, "--file", op.toString()));
    assertThat(commit.code()).as(commit.err()).isZero();
    assertThat(commit.out()).contains("committed version 2");

    Result log = run(withOptions(opts, "log", uri));
    assertThat(log.code()).as(log.err()).isZero();
    // A one-step config update on a table without lancet.write_form: Lance's UpdateConfig (0023).
    assertThat(log.out()).contains("Overwrite").contains("UpdateConfig");
    Result txn = run(withOptions(opts, "show-txn", uri, "--version", "2"));
    assertThat(txn.code()).as(txn.err()).isZero();
    assertThat(txn.out()).contains("cfg");
  }

  /** Every row-level command takes the table's storage options, as the others do. */
  @Test
  void rowLevelCommandsTakeStorageOptions() throws Exception {
    Map<String, String> opts = S3ProxyServer.shared().storageOptions();
    String uri = lanceTable("cli-rows", opts);
    java.util.SortedSet<Long> model = new java.util.TreeSet<>();
    for (long i = 0; i < 20; i++) {
      model.add(i);
    }
    Result delete = run(withOptions(opts, "delete", uri, "--where", "id < 2", "--json"));
    assertThat(delete.code()).as(delete.err()).isZero();
    assertThat(json(delete).get("rowsDeleted").asLong()).isEqualTo(2);
    model.removeAll(List.of(0L, 1L));

    Result update = run(withOptions(opts, "update", uri, "--where", "id = 5", "--set", "id=105"));
    assertThat(update.code()).as(update.err()).isZero();
    model.remove(5L);
    model.add(105L);

    Path source = Files.writeString(dir.resolve("s.csv"), "id\n3\n50\n");
    Result merge = run(withOptions(opts, "merge-insert", uri, "--on", "id", "--from", source.toString(),
        "--when-matched", "update", "--json"));
    assertThat(merge.code()).as(merge.err()).isZero();
    assertThat(json(merge).get("rowsInserted").asLong()).isEqualTo(1);
    assertThat(json(merge).get("rowsUpdated").asLong()).isEqualTo(1);
    model.add(50L);

    Result txn = run(withOptions(opts, "txn", uri, "--delete", "id = 7", "--set-config", "k=v"));
    assertThat(txn.code()).as(txn.err()).isZero();
    model.remove(7L);

    Result compact = run(withOptions(opts, "compact", uri, "--json"));
    assertThat(compact.code()).as(compact.err()).isZero();

    try (BufferAllocator alloc = new RootAllocator();
        org.lance.Dataset ds = LanceOnS3.open(uri, opts, alloc)) {
      assertThat(ds.getConfig()).containsEntry("k", "v");
      java.util.SortedSet<Long> ids = new java.util.TreeSet<>();
      try (org.lance.ipc.LanceScanner scan = ds.newScan();
          org.apache.arrow.vector.ipc.ArrowReader r = scan.scanBatches()) {
        while (r.loadNextBatch()) {
          org.apache.arrow.vector.BigIntVector v =
              (org.apache.arrow.vector.BigIntVector) r.getVectorSchemaRoot().getVector("id");
          for (int i = 0; i < v.getValueCount(); i++) {
            assertThat(ids.add(v.get(i))).as("id %d once", v.get(i)).isTrue();
          }
        }
      }
      assertThat(ids).isEqualTo(model);
    }
  }

  @Test
  void storeErrorsAreOneLineWithExitCode2() {
    S3ProxyServer server = S3ProxyServer.shared();
    Map<String, String> wrong = new java.util.HashMap<>(server.storageOptions());
    wrong.put("aws_secret_access_key", "wrong");
    Result r = run(withOptions(wrong, "log", "s3://" + server.newBucket("cli-err") + "/t"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip()).startsWith("lancet: S3 rejected the credentials for s3://").doesNotContain("\n");

    Result missing = run(withOptions(server.storageOptions(), "inspect", "s3://no-such-bucket-cli/t"));
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err().strip()).startsWith("lancet: S3 bucket 'no-such-bucket-cli' does not exist");

    Result noTable = run(withOptions(server.storageOptions(), "inspect", "s3://" + server.newBucket("cli-empty") + "/t"));
    assertThat(noTable.code()).isEqualTo(2);
    assertThat(noTable.err().strip()).contains("no Lance table at s3://");

    Result badOption = run(List.of("log", "s3://b/t", "--storage-option", "allow_http"));
    assertThat(badOption.code()).isEqualTo(2);
  }
}
