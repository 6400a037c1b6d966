package dev.lancet.format.deletion;

import dev.lancet.format.model.DeletionFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeletionFileNamesTest {

  @Test
  void formatsAsLanceDoes() {
    assertThat(DeletionFileNames.fileName(21, 12, 42, DeletionFile.Kind.ARROW_ARRAY)).isEqualTo("21-12-42.arrow");
    assertThat(DeletionFileNames.relativePath(21, 12, 42, DeletionFile.Kind.BITMAP))
        .isEqualTo("_deletions/21-12-42.bin");
  }

  @Test
  void idIsUnsigned() {
    assertThat(DeletionFileNames.fileName(0, 0, -1L, DeletionFile.Kind.BITMAP))
        .isEqualTo("0-0-18446744073709551615.bin");
  }

  @Test
  void parsesWhatItFormats() {
    DeletionFileNames.Parts parts = new DeletionFileNames.Parts(3, 7, Long.MIN_VALUE, DeletionFile.Kind.ARROW_ARRAY);
    assertThat(DeletionFileNames.parse(parts.fileName())).isEqualTo(parts);
    assertThat(parts.relativePath()).isEqualTo("_deletions/3-7-9223372036854775808.arrow");
    assertThat(DeletionFileNames.parse("0-0-18446744073709551615.bin"))
        .isEqualTo(new DeletionFileNames.Parts(0, 0, -1L, DeletionFile.Kind.BITMAP));
  }

  @Test
  void newIdsDiffer() {
    assertThat(DeletionFileNames.newId()).isNotEqualTo(DeletionFileNames.newId());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1-2-3",
        "1-2-3.txt",
        "1-2.arrow",
        "1-2-3-4.arrow",
        "01-2-3.arrow",
        "a-2-3.bin",
        "-1-2-3.bin",
        "+1-2-3.bin",
        "1--3.bin",
        "1-2-18446744073709551616.bin",
        "_deletions/1-2-3.bin"
      })
  void rejectsMalformedNames(String name) {
    assertThatThrownBy(() -> DeletionFileNames.parse(name))
        .isInstanceOf(FormatException.class)
        .satisfies(e -> assertThat(((FormatException) e).file()).isEqualTo(name));
  }
}
