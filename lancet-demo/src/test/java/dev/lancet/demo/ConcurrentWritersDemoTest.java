package dev.lancet.demo;

import dev.lancet.datafile.lance.LanceDatasets;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitAttempt.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the demo once and checks what it did against numbers derived here, not by the demo. */
class ConcurrentWritersDemoTest {
  @TempDir static Path tmp;
  static DemoReport report;

  @BeforeAll
  static void runDemo() {
    report = ConcurrentWritersDemo.run(tmp.resolve("demo"));
  }

  @Test
  void everyCheckPassesAndNoWriterFailed() {
    assertThat(report.errors()).isEmpty();
    assertThat(report.checks()).isNotEmpty().allSatisfy(c -> assertThat(c.passed()).as(c.toString()).isTrue());
    assertThat(report.passed()).isTrue();
  }

  @Test
  void theCollidingWritersMeetExactlyOneConflictEachAndTheCommutingOnesNone() {
    Map<String, Long> conflicts = report.attempts().stream()
        .filter(a -> a.outcome() == Outcome.CONFLICT)
        .collect(Collectors.groupingBy(AttemptRecord::transaction, Collectors.counting()));
    assertThat(conflicts).isEqualTo(Map.of("B2", 1L, "G1", 1L));
    // The conflicting attempt names the key collision / the fragment's deletions.
    assertThat(report.attempts()).filteredOn(a -> a.outcome() == Outcome.CONFLICT)
        .allSatisfy(a -> assertThat(a.plan()).isEqualTo(1));
    // Each re-planned transaction landed as plan 2.
    assertThat(report.attempts()).filteredOn(a -> a.outcome() == Outcome.COMMITTED)
        .filteredOn(a -> a.transaction().equals("B2") || a.transaction().equals("G1"))
        .extracting(AttemptRecord::plan).containsExactly(2, 2);
  }

  @Test
  void everyAcknowledgedCommitIsInTheHistoryOnce() {
    assertThat(report.acknowledged()).extracting(Acknowledged::transaction)
        .containsExactlyInAnyOrder("A1", "B1", "B2", "C1", "D1", "E1", "F1", "G1");
    try (Table table = Table.open(report.table().toString())) {
      // v1 schema, v2 initial load, then one version per acknowledged transaction.
      assertThat(table.latest().version()).isEqualTo(2 + 8);
      for (Acknowledged ack : report.acknowledged()) {
        assertThat(table.version(ack.version()).transaction().orElseThrow().getUuid())
            .isEqualTo(ack.transactionUuid());
      }
      assertThat(report.acknowledged()).extracting(Acknowledged::version).doesNotHaveDuplicates();
    }
  }

  @Test
  void lanceCoreReadsTheRowsTheScenarioImplies() {
    long version = report.finalVersion();
    // 300 initial - 10 (D) - 20 (F 10, G 10 new + 1 shared) + 50 (A) + 50 (B1) + 49 (B2 without 1049)
    long expected = 300 - 10 - 20 + 50 + 50 + 49;
    assertThat(LanceDatasets.countRows(report.table().uri(), report.table().storageOptions(), version)).isEqualTo(expected);
    try (Table table = Table.open(report.table().toString())) {
      assertThat(table.latest().manifest().liveRows()).isEqualTo(expected);
    }
    List<LanceReads.Row> rows = LanceReads.scan(report.table(), version, Optional.empty());
    assertThat(rows).extracting(LanceReads.Row::id).doesNotHaveDuplicates().contains(1049L, 1050L, 1098L)
        .doesNotContain(0L, 10L, 101L, 102L, 111L);
    LanceReads.Row row5 = rows.stream().filter(r -> r.id() == 5).findFirst().orElseThrow();
    assertThat(row5.value()).contains("w-5");              // E's rewrite of fragment 0
    assertThat(row5.score()).hasValue(50);                 // C's column
    LanceReads.Row row150 = rows.stream().filter(r -> r.id() == 150).findFirst().orElseThrow();
    assertThat(row150.value()).contains("v-150");
    LanceReads.Row appended = rows.stream().filter(r -> r.id() == 1050).findFirst().orElseThrow();
    assertThat(appended.score()).isEmpty();                // appended without score data: null
    assertThat(LanceDatasets.columns(report.table().uri(), report.table().storageOptions(), version)).containsExactly("id", "value", "score");
  }
}
