package dev.lancet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.bench.CommitReads.Counts;
import dev.lancet.bench.CommitReads.Scenario;
import dev.lancet.core.store.FaultInjectingStore.Operation;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins how many store calls a commit makes when {@code k} versions landed since it last looked
 * (see BENCHMARKS.md, "Store reads per retry"). Each new winner must cost exactly one manifest
 * GET and one transaction-file GET (its composite transaction lives only in {@code _transactions/})
 * and nothing else; the rest is a constant:
 *
 * <ul>
 *   <li>finding the latest version: GET of the version hint, SIZE of the hinted manifest, EXISTS
 *       of the next one (absent);
 *   <li>the newest winner's manifest is that latest snapshot itself, so winners cost
 *       {@code 2k - 1} manifest and transaction GETs plus the hint GET: {@code GET = 2k + 1};
 *   <li>before publishing: SIZE of the new data file (it must exist with its recorded size;
 *       verified once, not again when the commit is retried);
 *   <li>publishing: PUT of the {@code .txn} file, PUT_IF_ABSENT of the manifest, PUT of the hint.
 * </ul>
 *
 * A lost race costs the same after the failed put-if-absent (the retry re-reads only the new
 * winners, and nothing is read to handle the failure itself).
 */
class CommitReadsTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} with {1} new winner(s)")
  @CsvSource({
    "STALE_READ, 1",
    "STALE_READ, 2",
    "STALE_READ, 7",
    "LOST_RACE, 1",
    "LOST_RACE, 2",
    "LOST_RACE, 7"
  })
  void eachNewWinnerIsReadOnceAndNothingElseGrows(Scenario scenario, int k) {
    CommitReads.createTable(dir);
    Counts c = CommitReads.measure(dir, scenario, k);

    assertThat(c.version()).as("our commit lands after the %d winners", k).isEqualTo(1 + k + 1);
    assertThat(c.attempts()).isEqualTo(scenario == Scenario.STALE_READ ? 1 : 2);
    assertThat(c.get(Operation.GET)).as("hint + (manifest + .txn) per winner - the latest manifest "
        + "counted once").isEqualTo(2L * k + 1);
    // The new data file is looked up before the first publish; a lost race counts from that
    // publish on, and the retry does not look the file up again.
    assertThat(c.get(Operation.SIZE)).as("the hinted manifest, plus the new data file on the "
        + "first attempt only").isEqualTo(scenario == Scenario.STALE_READ ? 2 : 1);
    assertThat(c.get(Operation.EXISTS)).as("one probe past the hint").isEqualTo(1);
    assertThat(c.get(Operation.LIST)).as("no listing while the hint is fresh").isZero();
    assertThat(c.get(Operation.GET_RANGE)).isZero();
    // A lost race does not rewrite the unchanged .txn file: only the version hint is put after it.
    assertThat(c.get(Operation.PUT)).as(scenario == Scenario.STALE_READ ? ".txn file + version hint"
        : "version hint only (the .txn file was written before the lost race)")
        .isEqualTo(scenario == Scenario.STALE_READ ? 2 : 1);
    assertThat(c.get(Operation.PUT_IF_ABSENT)).isEqualTo(1);
    assertThat(c.get(Operation.DELETE)).isZero();
  }

  @ParameterizedTest(name = "growth from {0} to {1} winners")
  @CsvSource({"1, 4", "2, 9"})
  void readsGrowByTwoGetsPerWinnerWhateverTheScenario(int small, int large) throws Exception {
    for (Scenario scenario : Scenario.values()) {
      Path a = dir.resolve(scenario + "-" + small);
      Path b = dir.resolve(scenario + "-" + large);
      CommitReads.createTable(a);
      CommitReads.createTable(b);
      Counts few = CommitReads.measure(a, scenario, small);
      Counts many = CommitReads.measure(b, scenario, large);
      assertThat(many.reads() - few.reads()).as(scenario.toString())
          .isEqualTo(2L * (large - small));
      for (Operation op : Operation.values()) {
        if (op != Operation.GET) {
          assertThat(many.get(op)).as("%s %s", scenario, op).isEqualTo(few.get(op));
        }
      }
    }
  }
}
