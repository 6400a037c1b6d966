package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.sampleManifest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.Manifest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AddBaseTest {

  private static AddBase named(int token, String name, String path) {
    return new AddBase(token, new BasePath(0, Optional.of(name), false, path));
  }

  private static AddBase unnamed(int token, String path) {
    return new AddBase(token, new BasePath(0, Optional.empty(), false, path));
  }

  private static Manifest withBases(BasePath... bases) {
    return sampleManifest().toBuilder().basePaths(List.of(bases)).build();
  }

  @Test
  void test_add_base_mints_an_id_and_rejects_duplicates() {
    Manifest next = apply(sampleManifest(), named(0, "a", "s3://bucket/a"));

    assertThat(next.basePaths()).containsExactly(
        new BasePath(1, Optional.of("a"), false, "s3://bucket/a"));

    ApplyException e = failure(next, named(0, "b", "s3://bucket/a"));
    assertThat(e.problem()).contains("base path at 's3://bucket/a' already exists")
        .contains("id 1");
    assertThat(e.where()).contains("action 1 (AddBase)");
  }

  @Test
  void test_unnamed_bases_do_not_collide_with_each_other() {
    Manifest next = apply(withBases(new BasePath(1, Optional.empty(), false, "s3://x")),
        unnamed(0, "s3://y"), unnamed(1, "s3://z"));

    assertThat(next.basePaths()).extracting(BasePath::id).containsExactly(1, 2, 3);
    assertThat(next.basePaths()).extracting(BasePath::path)
        .containsExactly("s3://x", "s3://y", "s3://z");
    assertThat(next.basePaths()).allSatisfy(b -> assertThat(b.name()).isEmpty());
  }

  @Test
  void test_two_add_bases_in_one_operation_see_each_other() {
    ApplyException e = failure(sampleManifest(),
        named(0, "a", "s3://bucket/a"), named(1, "a", "s3://bucket/other"));

    assertThat(e.problem()).contains("base path named \"a\" already exists")
        .contains("id 1").contains("'s3://bucket/a'");
    assertThat(e.where()).contains("action 2 (AddBase)");
  }

  @Test
  void two_bases_at_the_same_path_in_one_operation_collide() {
    ApplyException e = failure(sampleManifest(),
        unnamed(0, "s3://bucket/a"), unnamed(1, "s3://bucket/a"));

    assertThat(e.problem()).contains("base path at 's3://bucket/a' already exists");
  }

  @Test
  void test_apply_mints_first_id_on_empty_base_map() {
    Manifest next = apply(sampleManifest(), named(5, "a", "/mnt/a"));

    assertThat(next.basePaths()).extracting(BasePath::id).containsExactly(1);
  }

  @Test
  void test_apply_mints_above_existing_max() {
    Manifest m = withBases(new BasePath(1, Optional.of("one"), false, "/one"),
        new BasePath(7, Optional.of("seven"), true, "/seven"));

    Manifest next = apply(m, named(0, "eight", "/eight"));

    assertThat(next.basePaths()).extracting(BasePath::id).containsExactly(1, 7, 8);
    assertThat(next.basePaths().get(2)).isEqualTo(
        new BasePath(8, Optional.of("eight"), false, "/eight"));
  }

  @Test
  void test_two_actions_mint_distinct_ids_and_bind_both() {
    Manifest next = apply(sampleManifest(), named(0, "a", "/a"), named(1, "b", "/b"));

    assertThat(next.basePaths()).extracting(BasePath::id).containsExactly(1, 2);
    assertThat(next.basePaths()).extracting(b -> b.name().orElseThrow()).containsExactly("a", "b");
  }

  @Test
  void the_bases_own_id_is_ignored_and_its_other_parts_kept() {
    AddBase add = new AddBase(0, new BasePath(42, Optional.of("root"), true, "/mnt/root"));

    Manifest next = apply(sampleManifest(), add);

    assertThat(next.basePaths()).containsExactly(
        new BasePath(1, Optional.of("root"), true, "/mnt/root"));
  }

  @Test
  void test_apply_rejects_duplicate_name() {
    Manifest m = withBases(new BasePath(3, Optional.of("a"), false, "/a"));

    ApplyException e = failure(m, named(0, "a", "/elsewhere"));

    assertThat(e.problem()).contains("base path named \"a\" already exists").contains("id 3");
    assertThat(m.basePaths()).containsExactly(new BasePath(3, Optional.of("a"), false, "/a"));
  }

  @Test
  void test_apply_rejects_duplicate_path() {
    Manifest m = withBases(new BasePath(3, Optional.of("a"), false, "/a"));

    ApplyException e = failure(m, unnamed(0, "/a"));

    assertThat(e.problem()).contains("base path at '/a' already exists").contains("id 3");
  }

  @Test
  void a_duplicate_base_token_is_rejected() {
    ApplyException e = failure(sampleManifest(), named(0, "a", "/a"), named(0, "b", "/b"));

    assertThat(e.problem()).contains("local base token 0").contains("minted more than once");
  }

  @Test
  void adding_a_base_is_not_a_data_change() {
    assertThat(named(0, "a", "/a").isDataChange()).isFalse();
  }
}
