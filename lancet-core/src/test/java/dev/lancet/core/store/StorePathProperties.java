package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of path validation over adversarial strings. */
class StorePathProperties {

  private static final Path ROOT = Path.of("/tables/t").toAbsolutePath();

  /** Strings over the characters that matter for escaping: dots, both slashes, colons, NUL. */
  @Provide
  Arbitrary<String> adversarialPaths() {
    return Arbitraries.strings().withChars('a', 'b', '.', '/', '\\', ':', '\u0000', 'C').ofMaxLength(12);
  }

  @Property(tries = 3000)
  void everyAcceptedPathStaysStrictlyInsideTheRootAndIsCanonical(@ForAll("adversarialPaths") String path) {
    boolean accepted;
    try {
      StorePath.validate(path);
      accepted = true;
    } catch (InvalidStorePathException e) {
      assertThat(e.path()).isEqualTo(path);
      accepted = false;
    }
    if (accepted) {
      Path resolved = ROOT.resolve(path);
      // Normalizing changes nothing, so the same string always names the same object in every store.
      assertThat(resolved.normalize()).isEqualTo(resolved);
      assertThat(resolved.startsWith(ROOT)).isTrue();
      assertThat(resolved).isNotEqualTo(ROOT);
      assertThat(ROOT.relativize(resolved).toString()).isEqualTo(path);
    }
  }

  @Property(tries = 500)
  void pathsJoinedFromOrdinarySegmentsAreAccepted(
      @ForAll("segments") String first, @ForAll("segments") String second) {
    assertThat(StorePath.join(first, second)).isEqualTo(first + "/" + second);
  }

  @Provide
  Arbitrary<String> segments() {
    return Arbitraries.strings().alpha().numeric().withChars('_', '-', '.').ofMinLength(1).ofMaxLength(10)
        .filter(s -> !s.equals(".") && !s.equals("..") && !s.startsWith(StorePath.TEMP_PREFIX)
            && !(s.length() >= 2 && s.charAt(1) == ':'));
  }
}
