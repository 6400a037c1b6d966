package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.Table;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShowTxnCommandTest {
  @TempDir
  Path dir;

  TableFixture table;

  @BeforeEach
  void setUp() {
    table = TableFixture.history(dir.resolve("t"));
  }

  private Transaction stored(long version) {
    try (Table t = Table.open(table.location())) {
      return t.version(version).transaction().orElseThrow();
    }
  }

  @Test
  void jsonRoundTripsTheTransaction() throws Exception {
    for (long version : new long[] {1, 2, 3, 4}) {
      Cli.Result r = Cli.run("show-txn", table.location(), "--version", Long.toString(version), "--json");

      assertThat(r.exitCode()).as(r.err()).isZero();
      Transaction.Builder parsed = Transaction.newBuilder();
      JsonFormat.parser().merge(r.out(), parsed);
      assertThat(parsed.build()).as("version %d", version).isEqualTo(stored(version));
    }
  }

  @Test
  void compositeOperationListsStepsAndActions() {
    Cli.Result r = Cli.run("show-txn", table.location(), "--version", "4");

    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.outLines();
    assertThat(lines).anyMatch(l -> l.matches("read version:\\s+3"));
    assertThat(lines).anyMatch(l -> l.matches("uuid:\\s+" + TableFixture.uuid(4)));
    assertThat(lines).anyMatch(l -> l.matches("operation:\\s+CompositeOperation"));
    assertThat(lines).containsSubsequence(
        "2 steps, 3 actions",
        "step 1: append batch 7",
        "  1. AddFragment id=local:0 rows=25",
        "  2. AddDataFile fragment=local:0 path=data/f2.lance fields=[0, 1, 2, 3, 4]",
        "step 2: set owner",
        "  1. ConfigUpdate config {owner=alice, -stale}");
  }

  @Test
  void deleteShowsPredicateAndUpdatedFragments() {
    Cli.Result r = Cli.run("show-txn", table.location(), "--version", "3");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).anyMatch(l -> l.matches("operation:\\s+Delete"));
    assertThat(r.outLines()).contains("predicate: id < 10", "removed fragments: []", "UPDATED FRAGMENTS (1)");
    assertThat(r.outLines()).anyMatch(l -> l.matches("\\s*0\\s+100\\s+10\\s+1\\s+0-2-123\\.arrow\\s+\\[data/f0\\.lance\\]"));
  }

  @Test
  void inlineAppendShowsItsFragments() {
    Cli.Result r = Cli.run("show-txn", table.location(), "--version", "2");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).anyMatch(l -> l.matches("operation:\\s+Append"));
    assertThat(r.outLines()).contains("NEW FRAGMENTS (1)");
    assertThat(r.outLines()).anyMatch(l -> l.matches("\\s*0\\s+50\\s+0\\s+1\\s+-\\s+\\[data/f1\\.lance\\]"));
  }

  @Test
  void aVersionWithoutTransactionIsAnError() {
    Cli.Result r = Cli.run("show-txn", table.location(), "--version", "5");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).containsExactly(
        "lancet: version 5 has no transaction recorded (its manifest names no transaction file "
            + "and carries none inline)");
  }

  @Test
  void anUndecodableTransactionIsAnError() {
    Cli.Result r = Cli.run("show-txn", table.location());

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines().get(0)).startsWith("lancet: _transactions/6-").contains("not a valid Transaction");
  }
}
