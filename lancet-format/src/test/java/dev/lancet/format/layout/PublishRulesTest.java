package dev.lancet.format.layout;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The publishing rules are checked on what a commit changes: a table another writer left with
 * something Lancet would refuse today is not refused for what it already was.
 */
class PublishRulesTest {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.builder(0, "id", "int64").nullable(false).build(),
      Field.builder(2, "name", "string").build()), Map.of());

  private static DataFile file(String path, Integer... fields) {
    List<Integer> columns = new java.util.ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      columns.add(i);
    }
    return new DataFile(path, List.of(fields), columns, 2, 1, 100);
  }

  private static Manifest v1() {
    // Fragment 0 still stores field 1, dropped since: its id stays in the file's slot.
    return Manifest.builder().version(1).schema(SCHEMA)
        .fragments(List.of(Fragment.of(0, 10, List.of(file("a.lance", 0, 1, 2))))).build();
  }

  private static void check(Manifest previous, Manifest next) {
    ManifestValidator.validateNext(previous, List.of(), next, List.of(), BasePathPolicy.denyAll());
  }

  @Test
  void anUnchangedFragmentIsNotCheckedAgainAndADroppedIdInAnOldFileIsFine() {
    Manifest next = v1().toBuilder().version(2)
        .fragments(List.of(v1().fragments().get(0), Fragment.of(1, 5, List.of(file("b.lance", 0, 2)))))
        .build();
    assertThatCode(() -> check(v1(), next)).doesNotThrowAnyException();
  }

  @Test
  void aNewFileStoringADroppedOrUnknownIdIsRefused() {
    Manifest next = v1().toBuilder().version(2)
        .fragments(List.of(v1().fragments().get(0), Fragment.of(1, 5, List.of(file("b.lance", 0, 1)))))
        .build();
    assertThatThrownBy(() -> check(v1(), next)).isInstanceOf(InvalidManifestException.class)
        .hasMessageContaining("fragment 1 data file 'b.lance' stores field id 1, which the schema does not have")
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((InvalidManifestException) e).subject())
            .isEqualTo(InvalidManifestException.Subject.file(1, "b.lance")));
  }

  @Test
  void aFieldBackedTwiceInOneFragmentIsRefusedForANewFile() {
    Fragment twice = Fragment.of(0, 10, List.of(file("a.lance", 0, 1, 2), file("dup.lance", 2)));
    Manifest next = v1().toBuilder().version(2).fragments(List.of(twice)).build();
    assertThatThrownBy(() -> check(v1(), next)).hasMessageContaining("stores field 2, which another data file")
        .hasMessageContaining("TombstoneFieldData");
  }

  @Test
  void makingAFieldNonNullableChecksEveryFragmentEvenUnchangedOnes() {
    Schema required = new Schema(List.of(SCHEMA.fields().get(0),
        SCHEMA.fields().get(1).toBuilder().nullable(false).build()), Map.of());
    Manifest v1 = v1().toBuilder().fragments(List.of(v1().fragments().get(0),
        Fragment.of(1, 5, List.of(file("b.lance", 0))))).build();
    Manifest next = v1.toBuilder().version(2).schema(required).build();
    assertThatThrownBy(() -> check(v1, next))
        .hasMessageContaining("fragment 1 has no data for non-nullable field 2 ('name')")
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((InvalidManifestException) e).subject())
            .isEqualTo(InvalidManifestException.Subject.field(2)));
  }

  @Test
  void aNullableStructMayBeAbsentWithItsRequiredMembers() {
    Schema nested = new Schema(List.of(SCHEMA.fields().get(0),
        Field.builder(3, "point", "struct").nullable(true).build(),
        Field.builder(4, "x", "float").parentId(3).nullable(false).build()), Map.of());
    Manifest v1 = v1().toBuilder().schema(nested).build();
    Manifest next = v1.toBuilder().version(2)
        .fragments(List.of(v1.fragments().get(0), Fragment.of(1, 5, List.of(file("b.lance", 0))))).build();
    assertThatCode(() -> check(v1, next)).doesNotThrowAnyException();
  }

  @Test
  void aNewVersionMustFollowThePreviousOne() {
    assertThatThrownBy(() -> check(v1(), v1().toBuilder().version(7).build()))
        .hasMessageContaining("publishes version 2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/data/extra", "s3://bucket/extra", "file:///data/extra", "s3://bucket", "/data/x/"})
  void wellFormedBasePathsPassTheSyntaxRules(String path) {
    org.assertj.core.api.Assertions.assertThat(PublishRules.basePathProblem(path)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "extra", "./extra", "/data/../etc", "/data/./x", "/data//x", "C:\\x", "C:/x",
      "s3://bucket/a/../b", "/a\u0000b", "s3://"})
  void malformedBasePathsAreRefused(String path) {
    org.assertj.core.api.Assertions.assertThat(PublishRules.basePathProblem(path)).isNotNull();
  }

  @Test
  void thePolicyAllowsLocationsSegmentWise() {
    BasePathPolicy p = BasePathPolicy.allowUnder(List.of("/data/x", "s3://b/t/"));
    org.assertj.core.api.Assertions.assertThat(p.allows("/data/x")).isTrue();
    org.assertj.core.api.Assertions.assertThat(p.allows("/data/x/y")).isTrue();
    org.assertj.core.api.Assertions.assertThat(p.allows("/data/xy")).isFalse();
    org.assertj.core.api.Assertions.assertThat(p.allows("s3://b/t/u")).isTrue();
    org.assertj.core.api.Assertions.assertThat(BasePathPolicy.denyAll().allows("/data/x")).isFalse();
  }

  @Test
  void anExistingBaseIsNotRecheckedAgainstThePolicy() {
    Manifest v1 = v1().toBuilder().basePaths(List.of(new BasePath(1, Optional.of("old"), false, "/old"))).build();
    Manifest next = v1.toBuilder().version(2).build();
    assertThatCode(() -> check(v1, next)).doesNotThrowAnyException();
  }
}
