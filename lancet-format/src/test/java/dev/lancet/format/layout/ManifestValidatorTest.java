package dev.lancet.format.layout;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.format.FormatException;
import dev.lancet.format.ManifestSamples;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestValidatorTest {

  private static Manifest withFile(String path) {
    return ManifestSamples.manifest(2, 1).toBuilder()
        .fragments(List.of(Fragment.of(0, 10, List.of(ManifestSamples.dataFile(path, List.of(0))))))
        .build();
  }

  @Test
  void acceptsSamples() {
    assertThatCode(() -> ManifestValidator.validate(ManifestSamples.manifest(3, 30), "3.manifest"))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"../escape.lance", "/etc/passwd", "a/../../b.lance", "C:\\x.lance",
      "file:///etc/passwd", "a//b.lance", ""})
  void rejectsDataFilesOutsideTheTable(String path) {
    assertThatThrownBy(() -> ManifestValidator.validate(withFile(path), "2.manifest"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("2.manifest: fragment 0 data file");
  }

  @Test
  void rejectsUnknownBaseId() {
    DataFile f = new DataFile("x.lance", List.of(0), List.of(0), 2, 1, 1, java.util.OptionalInt.of(9),
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
    Manifest m = ManifestSamples.manifest(2, 1).toBuilder()
        .fragments(List.of(Fragment.of(0, 10, List.of(f)))).build();
    assertThatThrownBy(() -> ManifestValidator.validate(m, "2.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("base id 9");
  }

  @Test
  void rejectsTransactionFileWithDirectories() {
    Manifest m = ManifestSamples.manifest(2, 1).toBuilder().transactionFile("../../x.txn").build();
    assertThatThrownBy(() -> ManifestValidator.validate(m, "2.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("transaction_file");
  }

  @Test
  void rejectsDuplicateFragmentIds() {
    Fragment f = Fragment.of(3, 10, List.of(ManifestSamples.dataFile("a.lance", List.of(0))));
    Manifest m = ManifestSamples.manifest(2, 1).toBuilder().fragments(List.of(f, f)).build();
    assertThatThrownBy(() -> ManifestValidator.validate(m, "2.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("fragment id 3 appears twice");
  }

  @Test
  void rejectsUnassignedFieldSlot() {
    Manifest m = withFile("ok.lance").toBuilder()
        .fragments(List.of(Fragment.of(0, 1, List.of(ManifestSamples.dataFile("ok.lance", List.of(-1))))))
        .build();
    assertThatThrownBy(() -> ManifestValidator.validate(m, "2.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("unassigned (-1)");
  }

  @org.junit.jupiter.api.Test
  void indexFilePathsAreCheckedOnReadToo() {
    dev.lancet.format.model.IndexSegment s = ManifestSamples.indices().get(0);
    dev.lancet.format.model.IndexSegment bad = new dev.lancet.format.model.IndexSegment(s.uuid(), s.fields(),
        s.name(), s.datasetVersion(), s.fragmentBitmap(), s.indexDetails(), s.indexVersion(), s.createdAt(),
        s.baseId(), List.of(new dev.lancet.format.model.IndexSegment.IndexFile("../../etc/shadow", 10,
            com.google.protobuf.UnknownFieldSet.getDefaultInstance())), s.coveringFields(), s.unknownFields());
    Manifest m = ManifestSamples.manifest(2, 1);
    byte[] bytes = ManifestFile.write(m, List.of(bad), java.util.Optional.empty());
    ManifestFile.Contents contents = ManifestFile.read(bytes, "2.manifest");
    assertThatThrownBy(contents::indices)
        .isInstanceOf(FormatException.class)
        .hasMessageContaining("2.manifest: index")
        .hasMessageContaining("'../../etc/shadow'")
        .hasMessageContaining("'..' segments");
  }

  @org.junit.jupiter.api.Test
  void aDeletionFileInABaseThatIsNotADatasetRootIsRefused() {
    dev.lancet.format.model.DeletionFile d = new dev.lancet.format.model.DeletionFile(0, 1, 2, 1,
        java.util.OptionalInt.of(3), com.google.protobuf.UnknownFieldSet.getDefaultInstance());
    Manifest m = withFile("ok.lance").toBuilder()
        .basePaths(List.of(new dev.lancet.format.model.BasePath(3, java.util.Optional.empty(), false, "/x")))
        .fragments(List.of(Fragment.of(0, 10, List.of(ManifestSamples.dataFile("ok.lance", List.of(0))))
            .toBuilder().deletionFile(java.util.Optional.of(d)).build()))
        .build();
    assertThatThrownBy(() -> ManifestValidator.validate(m, "2.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("not a dataset root");
  }
}
