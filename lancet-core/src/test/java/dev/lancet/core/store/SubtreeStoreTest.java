package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SubtreeStoreTest {
  @Test
  void aViewOfADirectoryReadsWritesAndListsInsideItOnly() throws Exception {
    MemoryObjectStore parent = new MemoryObjectStore();
    parent.put("_versions/1.manifest", new byte[] {1});
    SubtreeStore branch = new SubtreeStore(parent, "tree/a/b");
    branch.putIfAbsent("_versions/1.manifest", new byte[] {2});
    branch.put("data/x.lance", "x".getBytes(StandardCharsets.UTF_8));
    assertThat(parent.get("tree/a/b/_versions/1.manifest")).containsExactly(2);
    assertThat(branch.get("_versions/1.manifest")).containsExactly(2);
    assertThat(branch.list("_versions/")).extracting(ObjectInfo::path).containsExactly("_versions/1.manifest");
    assertThat(branch.list("")).isEmpty();
    assertThat(branch.exists("data/x.lance")).isTrue();
    assertThatThrownBy(() -> branch.putIfAbsent("_versions/1.manifest", new byte[] {3}))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> branch.get("../../_versions/1.manifest"))
        .isInstanceOf(InvalidStorePathException.class);
    assertThatThrownBy(() -> new SubtreeStore(parent, "")).isInstanceOf(IllegalArgumentException.class);
    branch.delete("data/x.lance");
    assertThat(parent.exists("tree/a/b/data/x.lance")).isFalse();
  }
}
