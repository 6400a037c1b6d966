package dev.lancet.cli;

import static dev.lancet.cli.TextTable.Column.left;
import static dev.lancet.cli.TextTable.Column.right;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void alignsNumbersRightAndTextLeft() {
    TextTable t = TextTable.of(right("ID"), left("NAME"), right("ROWS"))
        .row(1, "alpha", 100)
        .row(12, "b", 5);

    assertThat(t.toString().lines()).containsExactly(
        "ID  NAME   ROWS",
        "--  -----  ----",
        " 1  alpha   100",
        "12  b         5");
  }

  @Test
  void capsLongCellsWithAnEllipsis() {
    TextTable t = TextTable.of(left("PATH").maxWidth(10), left("X"))
        .row("abcdefghijklmnop", "y")
        .row("short", null);

    assertThat(t.toString().lines()).containsExactly(
        "PATH        X",
        "----------  -",
        "abcdefg...  y",
        "short");
  }

  @Test
  void neverSplitsASurrogatePair() {
    String cell = "abcdef\uD83D\uDE00xyz"; // the emoji straddles the cut
    assertThat(TextTable.fit(cell, 10)).isEqualTo("abcdef...");
  }

  @Test
  void keepsEveryRowOnOneLine() {
    TextTable t = TextTable.of(left("A")).row("one\ntwo\tthree");

    assertThat(t.toString().lines()).containsExactly("A", "-------------", "one two three");
  }

  @Test
  void rejectsRowsOfTheWrongWidth() {
    TextTable t = TextTable.of(left("A"), left("B"));
    assertThatThrownBy(() -> t.row("only one")).isInstanceOf(IllegalArgumentException.class);
  }
}
