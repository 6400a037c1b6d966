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
    S3ProxyServer server = S3ProxyServer.shared();
    String uri = "s3://" + server.newBucket("cli") + "/t";
    Map<String, String> opts = server.storageOptions();
    try (BufferAllocator alloc = new RootAllocator()) {
      LanceOnS3.create(uri, opts, alloc, 20, 10);
    }
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
    // A one-step config update on a table without lancet.write_form: Lance's UpdateConfig (0022).
    assertThat(log.out()).contains("Overwrite").contains("UpdateConfig");
    Result txn = run(withOptions(opts, "show-txn", uri, "--version", "2"));
    assertThat(txn.code()).as(txn.err()).isZero();
    assertThat(txn.out()).contains("cfg");
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
