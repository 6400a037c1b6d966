package dev.lancet.core.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.store.MemoryObjectStore;
import dev.lancet.format.FormatException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Branch metadata files as lance-core 7.0.0 writes them (bytes copied from its output). */
class BranchesTest {
  // What lance-core 7.0.0 wrote for Dataset.createBranch("child", Ref.ofBranch("feat/x", 4)).
  private static final String CHILD = """
      {
        "parentBranch": "feat/x",
        "identifier": {
          "version_mapping": [
            [2, "bf8b30b2c0f74a35a492dc99cf01c68c"],
            [4, "f5a6d71b60a74b0fa35142344eae11e5"]
          ]
        },
        "parentVersion": 4,
        "createAt": 1796320208,
        "manifestSize": 556,
        "metadata": {}
      }""";
  private static final String FROM_MAIN = """
      {"parentBranch": null, "identifier": {"version_mapping": [[2, "bf8b30b2c0f74a35a492dc99cf01c68c"]]},
       "parentVersion": 2, "createAt": 1796320207, "manifestSize": 379, "metadata": {"k": "v"}}""";

  @Test
  void readsWhatLanceCoreWrites() throws Exception {
    MemoryObjectStore store = new MemoryObjectStore();
    store.put("_refs/branches/child.json", CHILD.getBytes(StandardCharsets.UTF_8));
    store.put("_refs/branches/feat%2Fx.json", FROM_MAIN.getBytes(StandardCharsets.UTF_8));
    List<Branch> all = Branches.list(store);
    assertThat(all).extracting(Branch::name).containsExactly("child", "feat/x");
    Branch child = all.get(0);
    assertThat(child.parentBranch()).contains("feat/x");
    assertThat(child.parentVersion()).isEqualTo(4);
    assertThat(child.lineage()).extracting(Branch.Fork::version).containsExactly(2L, 4L);
    assertThat(child.directory()).isEqualTo("tree/child/");
    Branch fx = Branches.get(store, "feat/x");
    assertThat(fx.parentBranch()).isEmpty();
    assertThat(fx.metadata()).isEqualTo(Map.of("k", "v"));
    assertThat(fx.directory()).isEqualTo("tree/feat/x/");
    assertThat(Branches.metadataPath("feat/x")).isEqualTo("_refs/branches/feat%2Fx.json");
    assertThat(Branches.find(store, "nope")).isEqualTo(Optional.empty());
    assertThatThrownBy(() -> Branches.get(store, "nope")).isInstanceOf(VersionNotFoundException.class)
        .hasMessageContaining("child, feat/x");
  }

  @Test
  void aBranchFileLancetCannotReadIsAnErrorNotASkip() throws Exception {
    MemoryObjectStore store = new MemoryObjectStore();
    store.put("_refs/branches/b.json", "{\"parentVersion\": \"two\", \"createAt\": 1, \"manifestSize\": 1}"
        .getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Branches.list(store)).isInstanceOf(FormatException.class)
        .hasMessageContaining("_refs/branches/b.json").hasMessageContaining("parentVersion");
    store.put("_refs/branches/b.json", "{\"createAt\": 1, \"manifestSize\": 1}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Branches.list(store)).isInstanceOf(FormatException.class)
        .hasMessageContaining("needs parentVersion");
    store.put("_refs/branches/b.json", "[1]".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Branches.list(store)).isInstanceOf(FormatException.class);
    store.delete("_refs/branches/b.json");
    store.put("_refs/branches/a%2.json", FROM_MAIN.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> Branches.list(store)).isInstanceOf(FormatException.class)
        .hasMessageContaining("escape");
  }

  @Test
  void namesFollowLancesRule() {
    for (String ok : List.of("feature/login", "bugfix/issue-123", "release/v1.2.3", "with.dot",
        "user/someone/my-feature", "café")) {
      assertThat(Branches.problem(ok)).as(ok).isNull();
    }
    for (String bad : List.of("", "main", "/a", "a/", "a//b", "a..b", "a\\b", "x.lock", "a b",
        "a*", "a:b")) {
      assertThat(Branches.problem(bad)).as(bad).isNotNull();
    }
  }

  @Property(tries = 300)
  void metadataFileNamesRoundTrip(@ForAll("names") String name) {
    String stem = Branches.encodeFileName(name);
    assertThat(stem).doesNotContain("/");
    assertThat(Branches.decodeFileName(stem, "x")).isEqualTo(name);
  }

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> segment = Arbitraries.strings().withChars("abcXYZ019._-éß中")
        .ofMinLength(1).ofMaxLength(6).filter(s -> !s.contains(".."));
    return segment.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join("/", l))
        .filter(n -> Branches.problem(n) == null);
  }
}
