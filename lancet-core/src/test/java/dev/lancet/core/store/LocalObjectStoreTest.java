package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the store contract against {@link LocalObjectStore}, plus what only a filesystem can show. */
class LocalObjectStoreTest extends ObjectStoreContract {

  @TempDir Path sandbox;

  private Path root() {
    return sandbox.resolve("table");
  }

  @Override
  protected ObjectStore newStore() {
    return new LocalObjectStore(root());
  }

  @Test
  void objectsArePlainFilesUnderTheRoot() throws Exception {
    store.put("_versions/1.manifest", bytes("one"));
    store.putIfAbsent("data/abc.lance", bytes("abc"));

    assertThat(Files.readAllBytes(root().resolve("_versions/1.manifest"))).isEqualTo(bytes("one"));
    assertThat(Files.readAllBytes(root().resolve("data/abc.lance"))).isEqualTo(bytes("abc"));
  }

  @Test
  void theRootIsCreatedOnlyByTheFirstWrite() throws Exception {
    assertThat(store.list("")).isEmpty();
    assertThat(store.exists("x")).isFalse();
    assertThatThrownBy(() -> store.get("x")).isInstanceOf(NotFoundException.class);
    store.delete("x");
    assertThat(root()).doesNotExist();

    store.put("a/b/c", bytes("deep"));
    assertThat(root().resolve("a/b/c")).isRegularFile();
  }

  @Test
  void listSkipsTemporaryFilesDirectoriesAndUnnameableFiles() throws Exception {
    store.put("_versions/1.manifest", bytes("one"));
    Path versions = root().resolve("_versions");
    // What an in-flight or crashed write leaves behind, and things that are not objects.
    Files.write(versions.resolve(StorePath.TEMP_PREFIX + "0b1c2d3e"), bytes("half a manif"));
    Files.createDirectory(versions.resolve("subdir"));
    Files.write(versions.resolve("back\\slash"), bytes("?"));

    assertThat(store.list("_versions/")).containsExactly(new ObjectInfo("_versions/1.manifest", 3));
  }

  @Test
  void writesLeaveNoTemporaryFiles() throws Exception {
    store.put("_versions/1.manifest", bytes("one"));
    store.put("_versions/1.manifest", bytes("one again"));
    store.putIfAbsent("_versions/2.manifest", bytes("two"));
    assertThatThrownBy(() -> store.putIfAbsent("_versions/2.manifest", bytes("lost")))
        .isInstanceOf(AlreadyExistsException.class);

    assertThat(filesUnder(root())).containsExactlyInAnyOrder("_versions/1.manifest", "_versions/2.manifest");
  }

  @Test
  void directoriesAreNotObjects() throws Exception {
    store.put("data/x/y", bytes("y"));

    assertThat(store.exists("data/x")).isFalse();
    assertThatThrownBy(() -> store.get("data/x")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> store.size("data/x")).isInstanceOf(NotFoundException.class);
    store.delete("data/x");
    assertThat(store.get("data/x/y")).isEqualTo(bytes("y"));
  }

  @Test
  void escapeAttemptsTouchNothingOutsideTheRoot() throws Exception {
    store.put("inside", bytes("in"));
    for (String bad : List.of("../outside", "a/../../outside", "/tmp/outside", "..\\outside")) {
      assertThatThrownBy(() -> store.put(bad, bytes("x"))).isInstanceOf(InvalidStorePathException.class);
      assertThatThrownBy(() -> store.putIfAbsent(bad, bytes("x"))).isInstanceOf(InvalidStorePathException.class);
    }
    try (Stream<Path> siblings = Files.list(sandbox)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).containsExactly("table");
    }
  }

  @Test
  void aRootThatIsAFileIsRejected() throws Exception {
    Path file = Files.write(sandbox.resolve("plain-file"), bytes("x"));
    assertThatThrownBy(() -> new LocalObjectStore(file))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory");
  }

  @Test
  void theRootIsAbsoluteAndNormalized() {
    LocalObjectStore local = new LocalObjectStore(sandbox.resolve("x/../table"));
    assertThat(local.root()).isEqualTo(root().toAbsolutePath());
  }

  private static List<String> filesUnder(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .collect(Collectors.toList());
    }
  }
}
