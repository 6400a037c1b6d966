package dev.lancet.interop.branch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.table.CleanupReport;
import dev.lancet.table.LanceTable;
import dev.lancet.table.LanceTableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;
import org.lance.cleanup.CleanupPolicy;

/**
 * Lancet's cleanup on a table where lance-core 7.0.0 created branches and tags on them
 * (docs/decisions/0027): a branch shares its parent's data files through a base path, so main's
 * cleanup must keep every file any version of any branch references and the version each branch
 * starts from, and must read a tag's branch. lance-core then reads every version of every branch
 * and every tag, with the same rows as before the cleanup.
 */
class BranchCleanupInteropTest {
  @TempDir Path tmp;

  /**
   * main (lance-core): v1 empty, v2..v4 ids 0-9, 10-19, 20-29, one fragment each; branch feat/x
   * from main v3, appended to (ids 100-104, v4) and deleted from (id 1, v5) by lance-core;
   * feat/x/deeper from feat/x v5 (its directory lies inside feat/x's); b2 from tag m1 (main v2);
   * tags m1 (main v2) and fx-4 (feat/x v4: a tag on a branch's version 4 while main also has a
   * version 4). Then Lancet deletes ids below 20 on main (v5): main's newest version no longer
   * references the data files of fragments 0 and 1, which the branches do.
   */
  static Path table(Path tmp) {
    Path dir = tmp.resolve("t");
    LanceBranches.create(dir, LanceFixtures.SIMPLE_SCHEMA);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 0, 10);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 10, 10);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 20, 10);
    assertThat(LanceBranches.createBranch(dir, "feat/x", Ref.ofMain(3))).isEqualTo(3);
    assertThat(LanceBranches.appendToBranch(dir, "feat/x", LanceFixtures.SIMPLE_SCHEMA, 100, 5))
        .isEqualTo(4);
    assertThat(LanceBranches.deleteOnBranch(dir, "feat/x", "id = 1")).isEqualTo(5);
    LanceBranches.withTable(dir, ds -> {
      ds.tags().create("m1", 2);
      ds.tags().create("fx-4", Ref.ofBranch("feat/x", 4));
      return null;
    });
    assertThat(LanceBranches.createBranch(dir, "feat/x/deeper", Ref.ofBranch("feat/x", 5)))
        .isEqualTo(5);
    assertThat(LanceBranches.createBranch(dir, "b2", Ref.ofTag("m1"))).isEqualTo(2);
    try (LanceTable t = LanceTable.open(dir.toString())) {
      assertThat(t.delete("id < 20").version()).hasValue(5);
    }
    return dir;
  }

  @Test
  void cleanupOfMainKeepsWhatBranchesAndTagsOnBranchesNeed() throws Exception {
    Path dir = table(tmp);
    Map<String, List<Long>> before = LanceBranches.everything(dir);
    assertThat(before).containsKeys("feat/x@3", "feat/x@4", "feat/x@5", "feat/x/deeper@5",
        "b2@2", "tag:fx-4", "tag:m1", "main@4");
    assertThat(before.get("feat/x@5")).hasSize(24).doesNotContain(1L).contains(104L);

    CleanupReport report;
    try (LanceTable t = LanceTable.open(dir.toString())) {
      CleanupReport dry = t.cleanup().olderThan(Duration.ZERO).dryRun();
      report = t.cleanup().olderThan(Duration.ZERO).commit();
      assertThat(report.filesRemoved()).isEqualTo(dry.filesRemoved());
    }
    // Version 4 of main goes although tag fx-4 names a version 4 (of feat/x); version 3 stays
    // because feat/x starts there, version 2 for its tag and for b2.
    assertThat(report.versionsRemoved()).containsExactly(1L, 4L);
    assertThat(report.kept()).contains("version 3 (branch feat/x starts here)")
        .anyMatch(k -> k.startsWith("version 2 (") && k.contains("tag m1")
            && k.contains("branch b2 starts here"));
    assertThat(report.filesRemoved()).noneMatch(p -> p.startsWith("tree/") || p.startsWith("_refs/"));

    Map<String, List<Long>> after = LanceBranches.everything(dir);
    Map<String, List<Long>> expected = new TreeMap<>(before);
    expected.remove("main@1");
    expected.remove("main@4");
    assertThat(after).isEqualTo(expected);

    // lance-core's own cleanup of main afterwards still finds feat/x through the version it
    // starts from (kept above) and keeps what it reads.
    LanceBranches.withTable(dir, ds -> ds.cleanupWithPolicy(CleanupPolicy.builder()
        .withBeforeTimestampMillis(System.currentTimeMillis() + 1000)
        .withErrorIfTaggedOldVersions(false).withDeleteUnverified(true).build()));
    assertThat(LanceBranches.ids(dir, Ref.ofBranch("feat/x", 5))).isEqualTo(before.get("feat/x@5"));
    assertThat(LanceBranches.ids(dir, Ref.ofBranch("feat/x/deeper", 5)))
        .isEqualTo(before.get("feat/x/deeper@5"));
  }

  /**
   * lance-core creates a branch in two steps, the branch's first manifest (under tree/) and then
   * its metadata file, so a cleanup can run between them and see no branch starting from main's
   * version. The branch's manifest alone must keep main's files it names through its base path.
   */
  @Test
  void aBranchBeingCreatedKeepsMainsFilesThroughItsManifest() throws Exception {
    Path dir = tmp.resolve("half");
    LanceBranches.create(dir, LanceFixtures.SIMPLE_SCHEMA);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 0, 10);
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 10, 10);
    assertThat(LanceBranches.createBranch(dir, "z", Ref.ofMain(2))).isEqualTo(2);
    List<Long> branchRows = LanceBranches.ids(dir, Ref.ofBranch("z", 2));
    assertThat(branchRows).hasSize(10);
    Path branchFile = dir.resolve("_refs/branches/z.json");
    String metadata = Files.readString(branchFile);
    Files.delete(branchFile);
    try (LanceTable t = LanceTable.open(dir.toString())) {
      t.delete("id >= 0");
      CleanupReport report = t.cleanup().olderThan(Duration.ZERO).commit();
      assertThat(report.versionsRemoved()).containsExactly(1L, 2L, 3L);
      // Ids 10-19 were appended after the branch point: only their file goes.
      assertThat(report.filesRemoved()).filteredOn(p -> p.startsWith("data/")).hasSize(1);
    }
    Files.writeString(branchFile, metadata);
    assertThat(LanceBranches.ids(dir, Ref.ofBranch("z", 2))).isEqualTo(branchRows);
  }

  @Test
  void cleanupRefusesAReferenceLayoutItDoesNotKnowAndRemovesNothing() throws Exception {
    Path dir = table(tmp);
    List<String> files = LanceBranches.files(dir);
    Files.createDirectories(dir.resolve("_refs/clones"));
    Files.writeString(dir.resolve("_refs/clones/elsewhere.json"), "{}");
    try (LanceTable t = LanceTable.open(dir.toString())) {
      assertThatThrownBy(() -> t.cleanup().olderThan(Duration.ZERO).commit())
          .isInstanceOf(LanceTableException.class)
          .hasMessageContaining("refuses to run").hasMessageContaining("_refs/clones/elsewhere.json");
      Files.delete(dir.resolve("_refs/clones/elsewhere.json"));
      Files.delete(dir.resolve("_refs/clones"));
      Path branchFile = dir.resolve("_refs/branches/b2.json");
      String b2 = Files.readString(branchFile);
      Files.writeString(branchFile, "{\"parentVersion\": \"one\"}");
      assertThatThrownBy(() -> t.cleanup().olderThan(Duration.ZERO).dryRun())
          .isInstanceOf(LanceTableException.class)
          .hasMessageContaining("refuses to run").hasMessageContaining("b2.json");
      Files.writeString(branchFile, b2);
    }
    assertThat(LanceBranches.files(dir)).isEqualTo(files);
  }
}
