package dev.lancet.cli;

import static dev.lancet.cli.StrictJson.assertInteger;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scan --where, delete, update, merge-insert, compact and txn end to end, JSON read strictly. */
class StatementCommandsTest {
  @TempDir Path tmp;

  private Path csv(String name, String text) throws Exception {
    Path p = tmp.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private String table() throws Exception {
    String t = tmp.resolve("t").toString();
    StringBuilder sb = new StringBuilder("id,name,score\n");
    for (int i = 0; i < 20; i++) {
      sb.append(i).append(",n").append(i).append(',').append(i * 1.5).append('\n');
    }
    Cli.Result r = Cli.run("create", t, "--from", csv("a.csv", sb.toString()).toString(),
        "--max-rows-per-file", "5", "--stable-row-ids");
    assertThat(r.exitCode()).as(r.err()).isZero();
    return t;
  }

  private static JsonNode ok(Cli.Result r) {
    assertThat(r.exitCode()).as(r.err()).isZero();
    return StrictJson.parse(r.out());
  }

  @Test
  void deleteUpdateMergeInsertCompactAndTxnPrintCountsAndTheVersionAsExactJson() throws Exception {
    String t = table();
    JsonNode scan = ok(Cli.run("scan", t, "--where", "id % 5 = 0", "--columns", "id",
        "--format", "json"));
    assertThat(scan).hasSize(4);
    assertInteger(scan.get(1).get("id"), 5);

    JsonNode del = ok(Cli.run("delete", t, "--where", "id < 3", "--json"));
    assertThat(del.get("committed").asBoolean()).isTrue();
    assertInteger(del.get("version"), 2);
    assertInteger(del.get("rowsDeleted"), 3);
    assertInteger(del.get("plans"), 1);
    assertThat(del.get("attempts").get(0).get("outcome").asText()).isEqualTo("committed");

    JsonNode none = ok(Cli.run("delete", t, "--where", "id > 100", "--json"));
    assertThat(none.get("committed").asBoolean()).isFalse();
    assertThat(none.get("version").isNull()).isTrue();
    assertInteger(none.get("rowsDeleted"), 0);

    JsonNode upd = ok(Cli.run("update", t, "--where", "id >= 10", "--set", "score=score * 2",
        "--set", "name='big'", "--json"));
    assertInteger(upd.get("rowsUpdated"), 10);
    assertInteger(upd.get("version"), 3);

    Path src = csv("s.csv", "id,name,score\n19,upd,0.5\n30,new,1.0\n");
    JsonNode merge = ok(Cli.run("merge-insert", t, "--on", "id", "--from", src.toString(),
        "--when-matched", "update", "--json"));
    assertInteger(merge.get("rowsUpdated"), 1);
    assertInteger(merge.get("rowsInserted"), 1);
    assertInteger(merge.get("version"), 4);

    JsonNode compact = ok(Cli.run("compact", t, "--target-rows-per-fragment", "100", "--json"));
    assertThat(compact.get("committed").asBoolean()).isTrue();
    assertInteger(compact.get("rowsRewritten"), 18);
    assertInteger(compact.get("deletionsMaterialized"), 4); // 3 deleted + 1 moved by the merge

    Path more = csv("m.csv", "id,name,score\n40,x,1.0\n41,y,2.0\n");
    JsonNode txn = ok(Cli.run("txn", t, "--append", more.toString(), "--delete", "id = 41",
        "--update", "id = 40", "--set", "name='z'", "--set-config", "etl.run=7", "--json"));
    assertThat(txn.get("statements")).hasSize(4);
    assertInteger(txn.get("statements").get(1).get("rowsDeleted"), 1);
    assertInteger(txn.get("statements").get(2).get("rowsUpdated"), 1);
    assertThat(txn.get("reservationVersions")).hasSize(1);
    JsonNode rows = ok(Cli.run("scan", t, "--where", "id >= 40", "--format", "json"));
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("name").asText()).isEqualTo("z");
    assertThat(Cli.run("inspect", t).out()).contains("etl.run");

    Cli.Result text = Cli.run("delete", t, "--where", "id = 40");
    assertThat(text.out()).contains("1 deleted").contains("version");
  }

  /**
   * docs/decisions/0026: without stable row ids, fragments an index covers are skipped and
   * reported, unless --allow-index-coverage-loss (the index here is metadata only: the
   * compaction never reads index files).
   */
  @Test
  void compactSkipsTheFragmentsAnIndexCoversAndSaysSoUnlessLossIsAllowed() throws Exception {
    String t = tmp.resolve("indexed").toString();
    StringBuilder sb = new StringBuilder("id,name,score\n");
    for (int i = 0; i < 20; i++) {
      sb.append(i).append(",n").append(i).append(',').append(i * 1.5).append('\n');
    }
    ok(Cli.run("create", t, "--from", csv("b.csv", sb.toString()).toString(),
        "--max-rows-per-file", "5", "--json"));
    try (dev.lancet.core.Table kernel = dev.lancet.core.Table.open(t)) {
      kernel.newLegacyTransaction(new dev.lancet.core.operation.CreateIndex(
          java.util.List.of(TableFixture.idIndex(1, java.util.List.of(0L, 1L))),
          java.util.List.of())).commit();
    }
    Cli.Result text = Cli.run("compact", t, "--target-rows-per-fragment", "100");
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("compacted 2 fragment(s) into 1",
        "index 'id_idx': 2 fragment(s) skipped: the table has no stable row ids",
        "allowIndexCoverageLoss(true)");

    JsonNode again = ok(Cli.run("compact", t, "--target-rows-per-fragment", "100", "--json"));
    assertThat(again.get("committed").asBoolean()).isFalse();
    assertInteger(again.get("fragmentsSkipped"), 2);
    JsonNode skipped = again.get("indexCoverage").get(0);
    assertThat(skipped.get("index").asText()).isEqualTo("id_idx");
    assertThat(skipped.get("outcome").asText()).isEqualTo("skipped");
    assertInteger(skipped.get("fragments"), 2);

    JsonNode lost = ok(Cli.run("compact", t, "--target-rows-per-fragment", "100",
        "--allow-index-coverage-loss", "--json"));
    assertThat(lost.get("committed").asBoolean()).isTrue();
    // 0 and 1 together; the fragment compacted before is not covered, so it is not their group.
    assertInteger(lost.get("fragmentsRemoved"), 2);
    assertThat(lost.get("indexCoverage").get(0).get("outcome").asText()).isEqualTo("lost");
    assertInteger(lost.get("indexCoverage").get(0).get("fragments"), 2);
  }

  @Test
  void badStatementsExitTwoWithAJsonErrorNamingTheProblem() throws Exception {
    String t = table();
    Cli.Result bad = Cli.run("delete", t, "--where", "nope = 1", "--json");
    assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
    JsonNode e = StrictJson.parse(bad.out());
    assertThat(e.get("ok").asBoolean()).isFalse();
    assertThat(e.get("error").asText()).isEqualTo("invalid_input");
    assertThat(e.get("message").asText()).contains("nope");
    Cli.Result set = Cli.run("update", t, "--set", "score");
    assertThat(set.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(set.err()).contains("COLUMN=EXPRESSION");
    Cli.Result orphan = Cli.run("txn", t, "--set", "a=1");
    assertThat(orphan.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(orphan.err()).contains("--set belongs to a --update");
    Path dup = csv("d.csv", "id,name,score\n1,a,1\n1,b,2\n");
    Cli.Result twice = Cli.run("merge-insert", t, "--on", "id", "--from", dup.toString());
    assertThat(twice.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(twice.err()).contains("more than once");
  }

  /** The progress line's last state: what follows the last carriage return, trimmed. */
  private static String progressEnd(Cli.Result r) {
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err().chars().filter(c -> c == '\n').count())
        .as("one finished progress line in %s", r.err()).isEqualTo(1);
    return r.err().substring(r.err().lastIndexOf('\r') + 1).trim();
  }

  @Test
  void statementVerbsShowProgressOnStderrWhenAskedAndNothingInAPipe() throws Exception {
    String t = table();
    Path src = csv("s.csv", "id,name,score\n19,upd,0.5\n30,new,1.0\n");
    Path more = csv("m.csv", "id,name,score\n40,x,1.0\n");
    // Not a terminal (surefire's fork has no console): no progress unless --progress.
    Cli.Result quiet = Cli.run("delete", t, "--where", "id = 0", "--json");
    assertThat(quiet.exitCode()).as(quiet.err()).isZero();
    assertThat(quiet.err()).isEmpty();
    assertThat(progressEnd(Cli.run("delete", t, "--where", "id = 1", "--progress")))
        .startsWith("read 19 rows (");
    assertThat(progressEnd(Cli.run("update", t, "--where", "id = 2", "--set", "score=0",
        "--progress"))).startsWith("read 18 rows (");
    assertThat(progressEnd(Cli.run("merge-insert", t, "--on", "id", "--from", src.toString(),
        "--progress"))).startsWith("read 18 rows (");
    assertThat(progressEnd(Cli.run("txn", t, "--append", more.toString(), "--delete", "id = 3",
        "--progress"))).startsWith("read 20 rows (");
    assertThat(progressEnd(Cli.run("compact", t, "--target-rows-per-fragment", "100",
        "--progress"))).startsWith("rewrote ");
  }
}
