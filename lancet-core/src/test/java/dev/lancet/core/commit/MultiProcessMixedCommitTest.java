package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.transaction.MixedWorkerMain;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate OS processes ({@link MixedWorkerMain}) committing a mixed, mutually disjoint
 * workload to one local table: appends, config updates, new columns with data and row
 * deletions. Everything lands; every acknowledged commit is in the history exactly once and
 * nothing else is; the table equals an independent replay of its history and the content
 * each worker wrote.
 */
class MultiProcessMixedCommitTest {
  private static final int WORKERS = 3;
  private static final int COMMITS = 8;

  @TempDir Path dir;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void mixedDisjointWorkFromSeveralProcessesAllLands() throws Exception {
    Path table = dir.resolve("table");
    LocalObjectStore store = new LocalObjectStore(table);
    TortureTables.seed(store, WORKERS, 10);
    try (WorkerProcesses workers = WorkerProcesses.startReady(dir, WORKERS,
        // Arrow writes the .arrow deletion files.
        List.of("-Xmx128m", "-XX:TieredStopAtLevel=1", "--add-opens=java.base/java.nio=ALL-UNNAMED"),
        MixedWorkerMain.class,
        (w, ready, go) -> List.of(table.toString(), ready.toString(), go.toString(), String.valueOf(w),
            String.valueOf(COMMITS)))) {
      workers.go();
      List<List<String>> outputs = workers.awaitSuccess(150, TimeUnit.SECONDS);

      Ledger ledger = new Ledger();
      for (List<String> lines : outputs) {
        assertThat(lines).endsWith("DONE").hasSize(COMMITS + 1);
        for (String line : lines.subList(0, COMMITS)) {
          String[] parts = line.split(" ");
          ledger.acknowledge(parts[2], Long.parseLong(parts[1]), 1);
        }
      }
      assertThat(ledger.surprises()).isEmpty();

      History history = History.read(store, 1);
      history.checkAgainst(ledger);
      ModelState last = history.replayAndCompare();
      Manifest latest = history.latest();
      assertThat(latest.version()).isEqualTo(1 + WORKERS * COMMITS);
      List<String> paths = latest.fragments().stream().flatMap(f -> f.files().stream()).map(DataFile::path).toList();
      int deletesPerWorker = 0;
      for (int i = 0; i < COMMITS; i++) {
        deletesPerWorker += i % 4 == 3 ? 1 : 0;
      }
      long appended = 0;
      for (int w = 0; w < WORKERS; w++) {
        for (int i = 0; i < COMMITS; i++) {
          switch (i % 4) {
            case 0 -> {
              assertThat(paths).contains("w" + w + "-" + i + ".lance");
              appended += 2;
            }
            case 1 -> assertThat(latest.config()).containsEntry("proc.w" + w + "." + i, String.valueOf(i));
            case 2 -> {
              assertThat(latest.schema().topLevel()).extracting(Field::name).contains("p" + w + "_" + i);
              assertThat(latest.fragment(w).orElseThrow().files()).extracting(DataFile::path).contains("p" + w + "_" + i + ".lance");
            }
            default -> { }
          }
        }
        assertThat(latest.fragment(w).orElseThrow().numDeletedRows()).isEqualTo(deletesPerWorker);
      }
      assertThat(last.liveRows()).isEqualTo(WORKERS * 10L - WORKERS * deletesPerWorker + appended);
    }
  }
}
