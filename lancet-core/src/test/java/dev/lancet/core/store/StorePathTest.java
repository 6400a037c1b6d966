package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StorePathTest {

  @ParameterizedTest
  @ValueSource(strings = {"_versions/1.manifest", "data/abc.lance", "a", "a/b/c/d", "_indices/9f/index.idx",
      "..a", "a..", ".hidden", "x/.../y", "name with spaces", "ünïcödé/ok", "ab:c", "x/a:b"})
  void acceptsRelativePaths(String path) {
    assertThat(StorePath.validate(path)).isEqualTo(path);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "../x                | '..' segments are not allowed",
      "a/../../b           | '..' segments are not allowed",
      "/etc/passwd         | absolute paths are not allowed",
      "a//b                | empty segment",
      "a/./b               | '.' segments are not allowed",
      "a/                  | must not end with '/'",
      "a\\b                | backslash at index 1",
      "C:/x                | drive letter",
      ".lancet-tmp-1234    | reserved temporary-file prefix",
  })
  void rejectsWithTheReason(String path, String reason) {
    assertThatThrownBy(() -> StorePath.validate(path))
        .isInstanceOf(InvalidStorePathException.class)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + path + "\"")
        .hasMessageContaining(reason);
  }

  @Test
  void rejectsEmptyAndControlCharactersAndShowsThemEscaped() {
    assertThatThrownBy(() -> StorePath.validate("")).hasMessage("Invalid store path \"\": the path is empty");
    assertThatThrownBy(() -> StorePath.validate("a\u0000b"))
        .isInstanceOf(InvalidStorePathException.class)
        .hasMessage("Invalid store path \"a\\u0000b\": NUL character at index 1");
    assertThatThrownBy(() -> StorePath.validate("a\tb")).hasMessageContaining("control character at index 1");
  }

  @Test
  void prefixesAreCanonicalDirectories() {
    assertThat(StorePath.validatePrefix("")).isEmpty();
    assertThat(StorePath.validatePrefix("_versions")).isEqualTo("_versions/");
    assertThat(StorePath.validatePrefix("_versions/")).isEqualTo("_versions/");
    assertThat(StorePath.validatePrefix("a/b/")).isEqualTo("a/b/");
    assertThatThrownBy(() -> StorePath.validatePrefix("/")).isInstanceOf(InvalidStorePathException.class);
    assertThatThrownBy(() -> StorePath.validatePrefix("a//")).isInstanceOf(InvalidStorePathException.class);
    assertThatThrownBy(() -> StorePath.validatePrefix("../"))
        .isInstanceOf(InvalidStorePathException.class).hasMessageContaining("\"../\"");
  }

  @Test
  void helpers() {
    assertThat(StorePath.join("_versions", "1.manifest")).isEqualTo("_versions/1.manifest");
    assertThatThrownBy(() -> StorePath.join("_versions", "..")).isInstanceOf(InvalidStorePathException.class);
    assertThat(StorePath.parent("_versions/1.manifest")).isEqualTo("_versions/");
    assertThat(StorePath.parent("top")).isEmpty();
    assertThat(StorePath.name("a/b/c.lance")).isEqualTo("c.lance");
    assertThat(StorePath.isTemporaryName(StorePath.TEMP_PREFIX + "x")).isTrue();
    assertThat(StorePath.isTemporaryName("1.manifest")).isFalse();
  }

  @Test
  void nullIsRejected() {
    assertThatThrownBy(() -> StorePath.validate(null)).isInstanceOf(NullPointerException.class);
  }
}
