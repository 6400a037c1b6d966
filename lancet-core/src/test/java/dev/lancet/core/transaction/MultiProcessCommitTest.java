package dev.lancet.core.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Separate OS processes appending to one table through the commit loop: every acknowledged
 * commit is present exactly once, versions are distinct, and nothing else appeared.
 */
class MultiProcessCommitTest {
  private static final int WORKERS = 3;
  private static final int APPENDS = 6;

  @TempDir Path dir;

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void appendsFromSeveralProcessesAllLand() throws Exception {
    Path table = dir.resolve("table");
    Manifest v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 2, List.of(new DataFile("seed.lance", List.of(0), List.of(0), 2, 1, 10)))))
        .maxFragmentId(OptionalLong.of(0)).build();
    new LocalObjectStore(table).put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));

    try (WorkerProcesses workers = WorkerProcesses.startReady(dir, WORKERS,
        List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"), AppendWorkerMain.class,
        (w, ready, go) -> List.of(table.toString(), ready.toString(), go.toString(), "w" + w,
            String.valueOf(APPENDS)))) {
      workers.go();
      List<List<String>> outputs = workers.awaitSuccess(120, TimeUnit.SECONDS);

      Map<Long, String> acknowledged = new HashMap<>();
      for (List<String> lines : outputs) {
        assertThat(lines).endsWith("DONE").hasSize(APPENDS + 1);
        for (String line : lines.subList(0, APPENDS)) {
          String[] parts = line.split(" ");
          String previous = acknowledged.put(Long.parseLong(parts[1]), parts[2]);
          assertThat(previous).as("version %s acknowledged twice", parts[1]).isNull();
        }
      }
      // Independent model: the seed fragment plus exactly the acknowledged appends.
      try (Table t = Table.open(table.toString())) {
        Manifest latest = t.latest().manifest();
        assertThat(latest.version()).isEqualTo(1 + WORKERS * APPENDS);
        List<String> files = latest.fragments().stream()
            .flatMap(f -> f.files().stream()).map(DataFile::path).sorted().toList();
        List<String> expected = new ArrayList<>(acknowledged.values());
        expected.add("seed.lance");
        expected.sort(null);
        assertThat(files).isEqualTo(expected);
        for (Map.Entry<Long, String> e : acknowledged.entrySet()) {
          Manifest at = t.version(e.getKey()).manifest();
          assertThat(at.fragments().stream().flatMap(f -> f.files().stream()).map(DataFile::path))
              .as("version %d contains its own append", e.getKey()).contains(e.getValue());
        }
      }
    }
  }
}
