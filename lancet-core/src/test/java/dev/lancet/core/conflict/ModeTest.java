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
      "REQUIRES, REQUIRES, false"})
  void pairTable(Mode committing, Mode committed, boolean conflicts) {
    assertThat(Mode.pairConflicts(committing, committed)).isEqualTo(conflicts);
  }

  @Test
  void modesAreOrderedWeakestFirst() {
    assertThat(Mode.values()).containsExactly(Mode.REQUIRES, Mode.PARTIAL_WRITE, Mode.WRITES);
    assertThat(Mode.REQUIRES.strongest(Mode.PARTIAL_WRITE)).isEqualTo(Mode.PARTIAL_WRITE);
    assertThat(Mode.WRITES.strongest(Mode.PARTIAL_WRITE)).isEqualTo(Mode.WRITES);
    assertThat(Mode.PARTIAL_WRITE.strongest(Mode.REQUIRES)).isEqualTo(Mode.PARTIAL_WRITE);
  }
}
