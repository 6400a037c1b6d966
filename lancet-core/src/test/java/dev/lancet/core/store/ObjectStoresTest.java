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
    // No store module is on lancet-core's own test classpath: the error names the one to add.
    assertThatThrownBy(() -> ObjectStores.forUri("s3://bucket/table"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot open s3://bucket/table: no object store for 's3://' on the classpath; "
            + "add the module dev.lancet:lancet-store-s3");
    assertThatThrownBy(() -> ObjectStores.forUri("az://container/table", java.util.Map.of("azure_storage_use_emulator", "true")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("add the module dev.lancet:lancet-store-azure");
    assertThatThrownBy(() -> ObjectStores.forUri("gs://bucket/table"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gs://bucket/table")
        .hasMessageContaining("scheme 'gs'")
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
