package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectStoresTest {

  @TempDir Path dir;

  @Test
  void plainPathsAndFileUrisOpenLocalStores() {
    assertThat(ObjectStores.forUri(dir.toString()))
        .isInstanceOfSatisfying(LocalObjectStore.class, s -> assertThat(s.root()).isEqualTo(dir.toAbsolutePath()));
    assertThat(ObjectStores.forUri(dir.toUri().toString()))
        .isInstanceOfSatisfying(LocalObjectStore.class, s -> assertThat(s.root()).isEqualTo(dir.toAbsolutePath()));
    assertThat(ObjectStores.forUri("relative/table"))
        .isInstanceOfSatisfying(LocalObjectStore.class,
            s -> assertThat(s.root()).isEqualTo(Path.of("relative/table").toAbsolutePath()));
  }

  @Test
  void memoryUrisShareOneStorePerName() throws Exception {
    String name = "objectstores-test-" + System.nanoTime();
    try {
      ObjectStore first = ObjectStores.forUri("memory://" + name);
      first.put("a", "shared".getBytes(StandardCharsets.UTF_8));

      assertThat(ObjectStores.forUri("memory://" + name)).isSameAs(first);
      assertThat(ObjectStores.forUri("memory://" + name + "/").get("a")).asString(StandardCharsets.UTF_8).isEqualTo("shared");
      assertThat(ObjectStores.forUri("memory://" + name + "-other").exists("a")).isFalse();

      ObjectStores.dropMemory(name);
      assertThat(ObjectStores.forUri("memory://" + name).exists("a")).isFalse();
    } finally {
      ObjectStores.dropMemory(name);
      ObjectStores.dropMemory(name + "-other");
    }
  }

  @Test
  void unsupportedOrMalformedLocationsAreRejectedWithTheSupportedForms() {
    assertThatThrownBy(() -> ObjectStores.forUri("s3://bucket/table"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("s3://bucket/table")
        .hasMessageContaining("scheme 's3'")
        .hasMessageContaining("file:///")
        .hasMessageContaining("memory://name");
    assertThatThrownBy(() -> ObjectStores.forUri("")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memory://name");
    assertThatThrownBy(() -> ObjectStores.forUri("memory://")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ObjectStores.forUri("memory:name")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ObjectStores.forUri("memory://a/b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ObjectStores.forUri("file://host/share/t"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file://host/share/t");
    assertThatThrownBy(() -> ObjectStores.forUri("file:relative")).isInstanceOf(IllegalArgumentException.class);
  }
}
