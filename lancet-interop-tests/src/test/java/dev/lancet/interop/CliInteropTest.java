package dev.lancet.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import dev.lancet.cli.Main;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceOracle;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The three inspection commands on tables real Lance created. */
class CliInteropTest {

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void inspectJsonIsTheManifestOfTheRequestedVersion() throws Exception {
    Path dir = SharedFixtures.get("deletions");
    long latest = LanceOracle.latestVersion(dir);
    Run r = run("inspect", dir.toString(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    TableProtos.Manifest.Builder m = TableProtos.Manifest.newBuilder();
    JsonFormat.parser().merge(r.out(), m);
    assertThat(m.getVersion()).isEqualTo(latest);
    assertThat(m.getFragmentsCount()).isEqualTo(LanceOracle.snapshot(dir).fragments().size());
    assertThat(m.getWriterVersion().getLibrary()).isEqualTo("lance");

    Run v1 = run("inspect", dir.toString(), "--version", "1", "--json");
    TableProtos.Manifest.Builder m1 = TableProtos.Manifest.newBuilder();
    JsonFormat.parser().merge(v1.out(), m1);
    assertThat(m1.getVersion()).isEqualTo(1);
  }

  @Test
  void inspectSummaryShowsSchemaFragmentsAndIndices() {
    Path dir = SharedFixtures.get("scalar-index");
    Run r = run("inspect", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("id", "name", "int64", "id_idx");
    for (LanceOracle.FragmentView f : LanceOracle.snapshot(dir).fragments()) {
      assertThat(r.out()).contains(String.valueOf(f.physicalRows()));
    }
  }

  @Test
  void logListsEveryVersionWithItsOperation() {
    Path dir = SharedFixtures.get("schema-evolution");
    Run r = run("log", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    for (LanceOracle.VersionView v : LanceOracle.versions(dir)) {
      LanceOracle.TransactionView t = LanceOracle.snapshot(dir, v.version()).transaction().orElseThrow();
      assertThat(r.out()).contains(t.uuid().substring(0, 8));
    }
    assertThat(r.out()).contains("Overwrite", "Merge", "Project");
    assertThat(r.out()).contains("create", "add columns", "change columns");
  }

  @Test
  void showTxnJsonIsTheTransaction() throws Exception {
    Path dir = SharedFixtures.get("config");
    Run r = run("show-txn", dir.toString(), "--version", "2", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    TransactionProtos.Transaction.Builder t = TransactionProtos.Transaction.newBuilder();
    JsonFormat.parser().merge(r.out(), t);
    LanceOracle.TransactionView expected = LanceOracle.snapshot(dir, 2).transaction().orElseThrow();
    assertThat(t.getUuid()).isEqualTo(expected.uuid());
    assertThat(t.getReadVersion()).isEqualTo(expected.readVersion());
    assertThat(t.getOperationCase()).isEqualTo(TransactionProtos.Transaction.OperationCase.UPDATE_CONFIG);
  }

  @Test
  void missingVersionExitsTwoWithOneLine() {
    Run r = run("show-txn", SharedFixtures.get("tags").toString(), "--version", "99");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().strip().lines()).hasSize(1);
    assertThat(r.err()).contains("99");
  }
}
