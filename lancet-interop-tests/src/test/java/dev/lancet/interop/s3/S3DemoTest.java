package dev.lancet.interop.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.cli.Main;
import dev.lancet.store.s3.S3ProxyServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code lancet demo s3://…} against s3proxy with the documented storage options: seven
 * writers on a table of real Lance files written by lance-core straight to S3, every check
 * passing (Lancet's and lance-core's reads of the final table, the model, the history).
 */
class S3DemoTest {
  @Test
  void theDemoRunsOnS3() {
    S3ProxyServer server = S3ProxyServer.shared();
    String uri = "s3://" + server.newBucket("demo") + "/demo-table";
    List<String> args = new ArrayList<>(List.of("demo", uri, "--json"));
    for (Map.Entry<String, String> e : server.storageOptions().entrySet()) {
      args.add("--storage-option");
      args.add(e.getKey() + "=" + e.getValue());
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args.toArray(String[]::new));
    assertThat(code).as("exit code; stderr: %s; stdout: %s", err, out).isZero();
    assertThat(out.toString()).contains("\"passed\": true").contains("\"table\": \"" + uri + "\"");

    // A second run on the same location refuses: a table is already there.
    StringWriter err2 = new StringWriter();
    int again = Main.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(err2, true))
        .execute(args.toArray(String[]::new));
    assertThat(again).isEqualTo(2);
    assertThat(err2.toString()).contains("already holds a table or data files");
  }
}
