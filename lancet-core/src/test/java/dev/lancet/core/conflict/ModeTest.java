package dev.lancet.core.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The directional pair table of v2-semantics §4.3 and the mode order. */
class ModeTest {

  @ParameterizedTest(name = "{0} committing after {1}: {2}")
  @CsvSource({
      "WRITES, WRITES, true",
      "WRITES, PARTIAL_WRITE, true",
      "WRITES, REQUIRES, false",
      "PARTIAL_WRITE, WRITES, true",
      "PARTIAL_WRITE, PARTIAL_WRITE, false",
      "PARTIAL_WRITE, REQUIRES, false",
      "REQUIRES, WRITES, true",
      "REQUIRES, PARTIAL_WRITE, false",
      "REQUIRES, REQUIRES, false",
      // A row-level delete is a full write (decision 0016); two of them are a row check, not a
      // collision, which Conflicts decides (Mode.rowByRow).
      "WRITES_ROWS, WRITES_ROWS, true",
      "WRITES_ROWS, WRITES, true",
      "WRITES, WRITES_ROWS, true",
      "WRITES_ROWS, REQUIRES, false",
      "REQUIRES, WRITES_ROWS, true",
      "PARTIAL_WRITE, WRITES_ROWS, true"})
  void pairTable(Mode committing, Mode committed, boolean conflicts) {
    assertThat(Mode.pairConflicts(committing, committed)).isEqualTo(conflicts);
  }

  @Test
  void modesAreOrderedWeakestFirst() {
    assertThat(Mode.values()).containsExactly(Mode.REQUIRES, Mode.PARTIAL_WRITE, Mode.WRITES_ROWS, Mode.WRITES);
    // A clear and a new deletion file of one fragment in one set: a plain write.
    assertThat(Mode.WRITES_ROWS.strongest(Mode.WRITES)).isEqualTo(Mode.WRITES);
    assertThat(Mode.rowByRow(Mode.WRITES_ROWS, Mode.WRITES_ROWS)).isTrue();
    assertThat(Mode.rowByRow(Mode.WRITES_ROWS, Mode.WRITES)).isFalse();
    assertThat(Mode.REQUIRES.strongest(Mode.PARTIAL_WRITE)).isEqualTo(Mode.PARTIAL_WRITE);
    assertThat(Mode.WRITES.strongest(Mode.PARTIAL_WRITE)).isEqualTo(Mode.WRITES);
    assertThat(Mode.PARTIAL_WRITE.strongest(Mode.REQUIRES)).isEqualTo(Mode.PARTIAL_WRITE);
  }
}
