package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.CleanupReport;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cleanup by count and by version number besides age (issue 22 point 11): a version goes when it
 * meets every criterion given; the files of removed versions go with them however new, files no
 * version ever referenced only once older than the age threshold (14 days by default).
 */
class CleanupRetentionInteropTest {
  @TempDir Path tmp;

  @Test
  void retainLastAndBeforeVersionCombineWithAgeAndTags() throws Exception {
    Path dir = tmp.resolve("t");
    try (BufferAllocator alloc = new RootAllocator();
        GeneratedRows v1 = new GeneratedRows(alloc, 0, 100, 100);
        LanceTable t = LanceTable.create(dir.toString(), v1, CreateOptions.defaults())) {
      for (int i = 1; i <= 4; i++) {
        try (GeneratedRows more = new GeneratedRows(alloc, i * 100L, 100, 100)) {
          t.append(more);
        }
      }
      assertThat(t.cleanup().retainLast(2).dryRun().versionsRemoved()).containsExactly(1L, 2L, 3L);
      assertThat(t.cleanup().beforeVersion(3).dryRun().versionsRemoved()).containsExactly(1L, 2L);
      assertThat(t.cleanup().retainLast(2).beforeVersion(2).dryRun().versionsRemoved())
          .containsExactly(1L);
      assertThat(t.cleanup().retainLast(1).olderThan(Duration.ofDays(1)).dryRun()
          .versionsRemoved()).isEmpty();
      assertThat(t.cleanup().dryRun().versionsRemoved()).as("14 days by default").isEmpty();
      assertThatThrownBy(() -> t.cleanup().retainLast(0)).isInstanceOf(InvalidInputException.class);
      assertThatThrownBy(() -> t.cleanup().beforeVersion(0)).isInstanceOf(InvalidInputException.class);

      t.tags().create("keep", 2);
      try (GeneratedRows one = new GeneratedRows(alloc, 7, 1, 1)) {
        t.overwrite(one); // v6: versions 3-5's files are referenced by removed versions only
      }
      Path fresh = dir.resolve("data/fresh-orphan.lance");
      Path old = dir.resolve("data/old-orphan.lance");
      Files.write(fresh, new byte[] {1});
      Files.write(old, new byte[] {2});
      Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(20))));
      CleanupReport done = t.cleanup().retainLast(1).commit();
      assertThat(done.versionsRemoved()).containsExactly(1L, 3L, 4L, 5L);
      assertThat(done.kept()).containsExactly("version 2 (tag keep)");
      assertThat(done.filesRemoved()).contains("data/old-orphan.lance")
          .doesNotContain("data/fresh-orphan.lance");
      // v3-v5 each added one data file that nothing kept references.
      assertThat(done.filesRemoved()).filteredOn(p -> p.startsWith("data/")).hasSize(4);
    }
    assertThat(LanceDatasets.countRows(dir, 2)).isEqualTo(200);
    assertThat(LanceDatasets.countRows(dir, 6)).isEqualTo(1);
    TableInteropTest.assertSameScan(dir, 2);
    TableInteropTest.assertSameScan(dir, 6);
  }
}
