package dev.lancet.interop.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.datafile.lance.GeneratedRows;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.table.AlreadyExistsException;
import dev.lancet.table.CleanupReport;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.HistoryEntry;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.NotFoundException;
import dev.lancet.table.TagInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tags, history, restore, time travel and cleanup through the table API, with lance-core 7.0.0
 * reading the tags Lancet writes (and Lancet the ones lance-core writes), and opening every
 * version that a cleanup keeps.
 */
class VersionsInteropTest {
  @TempDir Path tmp;

  private Path table(String name) throws Exception {
    Path dir = tmp.resolve(name);
    try (BufferAllocator alloc = new RootAllocator();
        GeneratedRows v1 = new GeneratedRows(alloc, 0, 100, 100);
        LanceTable t = LanceTable.create(dir.toString(), v1, CreateOptions.defaults())) {
      for (int i = 1; i <= 3; i++) {
        try (GeneratedRows more = new GeneratedRows(alloc, i * 100L, 100, 100)) {
          t.append(more);
        }
      }
    }
    return dir;
  }

  @Test
  void tagsLancetWritesAreTheOnesLanceCoreReadsAndTheOtherWayRound() throws Exception {
    Path dir = table("tags");
    try (LanceTable t = LanceTable.open(dir.toString())) {
      t.tags().create("first", 1);
      t.tags().create("third", 3);
      t.tags().move("third", 2);
      assertThatThrownBy(() -> t.tags().create("first", 2))
          .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("already exists");
      assertThatThrownBy(() -> t.tags().create("nope", 99))
          .isInstanceOf(NotFoundException.class).hasMessageContaining("version 99");
      assertThatThrownBy(() -> t.tags().create("bad/name", 1))
          .isInstanceOf(InvalidInputException.class);
      assertThatThrownBy(() -> t.tags().delete("missing"))
          .isInstanceOf(NotFoundException.class).hasMessageContaining("first, third");
    }
    Map<String, Long> lance = LanceDatasets.withDataset(dir, Optional.empty(), ds -> {
      Map<String, Long> out = new TreeMap<>();
      ds.tags().list().forEach(tag -> out.put(tag.getName(), tag.getVersion()));
      ds.tags().create("by-lance", 4);
      try (var at = ds.checkoutTag("third")) {
        out.put("third@rows", at.countRows());
      }
      return out;
    });
    assertThat(lance).containsEntry("first", 1L).containsEntry("third", 2L)
        .containsEntry("third@rows", 200L);
    try (LanceTable t = LanceTable.open(dir.toString())) {
      assertThat(t.tags().list()).extracting(TagInfo::name).containsExactly("by-lance", "first", "third");
      assertThat(Rows.of(t.newScan().select("id").asOfTag("third").open())).hasSize(200);
      t.tags().delete("by-lance");
      assertThat(t.tags().get("by-lance")).isEmpty();
    }
  }

  @Test
  void historyRestoreAndTimeTravel() throws Exception {
    Path dir = table("history");
    try (LanceTable t = LanceTable.open(dir.toString())) {
      Instant afterV2 = t.history().get(1).timestamp().orElseThrow();
      t.tags().create("v3", 3);
      t.restore(2);
      List<HistoryEntry> h = t.history();
      assertThat(h).extracting(HistoryEntry::version).containsExactly(1L, 2L, 3L, 4L, 5L);
      // Appends on a table without lancet.write_form: Lance's own Append (decision 0022), the
      // statement's description kept as the transaction property lancet.step.
      assertThat(h).extracting(HistoryEntry::operation).containsExactly("Overwrite",
          "Append", "Append", "Append", "Restore");
      assertThat(h.get(1).steps()).containsExactly("append 100 rows");
      assertThat(h.get(1).readVersion()).contains(1L);
      assertThat(h.get(2).tags()).containsExactly("v3");
      assertThat(h.get(4).transactionUuid()).isPresent();
      assertThat(t.countRows()).isEqualTo(200);
      assertThat(Rows.of(t.newScan().select("id").asOfTimestamp(afterV2).open())).hasSize(200);
      assertThatThrownBy(() -> t.newScan().asOfTimestamp(Instant.EPOCH).open())
          .isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> t.restore(42)).isInstanceOf(NotFoundException.class);
    }
    assertThat(LanceDatasets.countRows(dir, 5)).isEqualTo(200);
  }

  @Test
  void cleanupRemovesOldVersionsAndOrphansButKeepsTaggedLatestAndInFlight() throws Exception {
    Path dir = table("cleanup");
    // An orphan of a killed writer: a data file no version references, and a temporary file.
    Files.write(dir.resolve("data/orphan.lance"), new byte[] {1, 2, 3});
    Files.write(dir.resolve("_versions/.lancet-tmp-killed"), new byte[] {4});
    try (LanceTable t = LanceTable.open(dir.toString())) {
      t.tags().create("keep", 2);
      CleanupReport none = t.cleanup().olderThan(Duration.ofDays(1)).dryRun();
      assertThat(none.versionsRemoved()).isEmpty();
      assertThat(none.filesRemoved()).isEmpty();
      try (BufferAllocator alloc = new RootAllocator();
          GeneratedRows one = new GeneratedRows(alloc, 7, 1, 1)) {
        t.overwrite(one);
      }
      CleanupReport dry = t.cleanup().olderThan(Duration.ZERO).dryRun();
      assertThat(dry.dryRun()).isTrue();
      assertThat(dry.versionsRemoved()).containsExactly(1L, 3L, 4L);
      assertThat(dry.filesRemoved()).contains("data/orphan.lance", "_versions/.lancet-tmp-killed");
      assertThat(dry.kept()).anyMatch(k -> k.contains("keep"));
      assertThat(Files.exists(dir.resolve("data/orphan.lance"))).isTrue();
      CleanupReport done = t.cleanup().olderThan(Duration.ZERO).commit();
      assertThat(done.filesRemoved()).isEqualTo(dry.filesRemoved());
      assertThat(done.bytesRemoved()).isPositive();
      assertThat(Files.exists(dir.resolve("data/orphan.lance"))).isFalse();
      assertThat(t.history()).extracting(HistoryEntry::version).containsExactly(2L, 5L);
      assertThat(Rows.of(t.newScan().select("id").asOfTag("keep").open())).hasSize(200);
    }
    // lance-core opens and scans both kept versions.
    assertThat(LanceDatasets.countRows(dir, 2)).isEqualTo(200);
    assertThat(LanceDatasets.countRows(dir, 5)).isEqualTo(1);
    TableInteropTest.assertSameScan(dir, 2);
    try (Stream<Path> files = Files.list(dir.resolve("data"))) {
      assertThat(files.count()).isEqualTo(3); // version 2's two files, version 5's one
    }
  }

  @Test
  void cleanupNeverRemovesTheFilesOfAWriteInFlight() throws Exception {
    Path dir = table("in-flight");
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable t = LanceTable.open(dir.toString())) {
      // The append's reader runs cleanup (threshold zero) after the data file of its first
      // batch exists, while the write is in flight.
      java.util.concurrent.atomic.AtomicReference<CleanupReport> during = new java.util.concurrent.atomic.AtomicReference<>();
      long[] seen = {0};
      try (GeneratedRows rows = new GeneratedRows(alloc, 400, 300, 100)) {
        t.newAppend().from(rows)
            .maxRowsPerFile(100)
            .onProgress(n -> {
              if (n == 200 && seen[0]++ == 0) {
                during.set(t.cleanup().olderThan(Duration.ZERO).commit());
              }
            })
            .commit();
      }
      assertThat(during.get().filesRemoved()).noneMatch(p -> p.startsWith("data/"));
      assertThat(Rows.of(t.newScan().select("id").open())).hasSize(700);
    }
    TableInteropTest.assertSameScan(dir, 5);
  }
}
