package dev.lancet.format.layout;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one path rule the object store and the manifest validator share. */
class RelativePathTest {
  @ParameterizedTest
  @ValueSource(strings = {"a", "data/x.lance", "..a", "a..", ".hidden", "x/.../y", "ab:c", "ünï/çödé"})
  void acceptsPathsThatStayInside(String path) {
    assertThat(RelativePath.problem(path)).isNull();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "../x      | '..' segments",
      "a/../b    | '..' segments",
      "/etc/x    | absolute paths",
      "a//b      | empty segment",
      "a/./b     | '.' segments",
      "a/        | must not end with '/'",
      "a\\b      | backslash at index 1",
      "C:/x      | drive letter",
      "c:        | drive letter",
  })
  void refusesPathsThatCouldLeave(String path, String why) {
    assertThat(RelativePath.problem(path)).contains(why);
  }

  @ParameterizedTest
  @ValueSource(ints = {4097, 100_000})
  void refusesOverlongPathsWithoutQuotingThem(int length) {
    assertThat(RelativePath.problem("a".repeat(length))).isEqualTo("the path is " + length
        + " characters long, more than 4096");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a\u0000b", "a\nb", "a\u007fb"})
  void refusesEmptyAndControlCharacters(String path) {
    assertThat(RelativePath.problem(path)).containsAnyOf("empty", "NUL", "control character");
  }
}
