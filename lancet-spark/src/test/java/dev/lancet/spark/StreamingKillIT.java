package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.lancet.core.Table;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.spark.stream.LancetStreamingWrite;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.lance.ipc.ScanOptions;

/**
 * The exactly-once sink against real crashes: a streaming query runs in its own JVM
 * ({@link StreamingQueryProcess}) and is killed with SIGKILL three times at different points of
 * the stream, each time restarted from the same checkpoint in a new JVM, and finally left to
 * finish. Kill points, each an observed condition polled for with a deadline:
 *
 * <ol>
 *   <li>early: as soon as Spark has planned epoch 0 (its offset log entry exists), before or
 *       while the sink creates the table and writes the first files;</li>
 *   <li>right after a sink commit: as soon as the table has three more versions than at this
 *       run's start, when Spark has likely not yet written the epoch to its commit log (the
 *       epoch is then replayed and must be skipped);</li>
 *   <li>a commit in flight: as soon as a data file exists that no version references, after two
 *       more versions (tasks have written the epoch's files; the sink has not published them).</li>
 * </ol>
 *
 * The model is the input: every id once. The table must hold exactly those rows in Lancet's
 * scan and in lance-core 7.0.0's, one version per epoch of Spark's commit log with the
 * watermarks 0, 1, 2, ... in order (no epoch committed twice or skipped), and no file the killed
 * runs left unpublished may be referenced.
 */
class StreamingKillIT {
  private static final int FILES = 40;
  private static final int ROWS_PER_FILE = 50;
  private static final long IDS = (long) FILES * ROWS_PER_FILE;
  private static final long DEADLINE_MILLIS = TimeUnit.SECONDS.toMillis(90);

  private Path in;
  private Path checkpoint;
  private Path table;
  private Path dir;
  private int runs;

  @Test
  void killedWithSigkillAtThreePointsAndRestartedEveryIdLandsExactlyOnce() throws Exception {
    dir = Files.createTempDirectory("lancet-stream-kill");
    in = dir.resolve("in");
    checkpoint = dir.resolve("checkpoint");
    table = dir.resolve("t.lance");
    writeInput();
    Set<String> unpublishedByKilledRuns = new TreeSet<>();
    List<String> kills = new ArrayList<>();

    kills.add(killWhen("epoch 0 planned", () -> Files.exists(checkpoint.resolve("offsets/0")),
        unpublishedByKilledRuns));
    long start2 = manifests();
    kills.add(killWhen("3 versions committed", () -> manifests() >= start2 + 3,
        unpublishedByKilledRuns));
    long start3 = manifests();
    kills.add(killWhen("unpublished data file", () -> manifests() >= start3 + 2
        && publishing(), unpublishedByKilledRuns));

    Run last = launch();
    boolean finished = last.process.waitFor(DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
    if (!finished) {
      last.process.destroyForcibly().waitFor();
    }
    assertThat(finished).as("the last run finished within the deadline:\n%s", last.log()).isTrue();
    assertThat(last.process.exitValue()).as("the last run's exit code:\n%s", last.log()).isZero();
    assertThat(last.done).as("the last run processed every file:\n%s", last.log()).exists();
    System.out.println("StreamingKillIT kills: " + String.join("; ", kills)
        + "; epochs replayed and skipped after restart: " + skippedReplays());

    List<String> model = new ArrayList<>();
    LongStream.range(0, IDS).forEach(i -> model.add(i + ":n" + i));
    model.sort(null);
    List<String> lancet = lancetRows();
    assertThat(anomalies(lancet)).as("Lancet's scan: duplicate or missing ids").isEmpty();
    assertThat(lancet).as("Lancet's scan: every input row once").isEqualTo(model);
    List<String> lanceCore = lanceCoreRows();
    assertThat(anomalies(lanceCore)).as("lance-core's scan: duplicate or missing ids").isEmpty();
    assertThat(lanceCore).as("lance-core's scan: every input row once").isEqualTo(model);

    // One version per epoch in Spark's commit log, in order: none committed twice or lost.
    long lastEpoch = lastEntry(checkpoint.resolve("commits")).orElseThrow();
    String key = LancetStreamingWrite.WATERMARK_PREFIX + Files.readString(last.done).trim();
    List<String> watermarks = new ArrayList<>();
    try (Table t = Table.open(table.toString())) {
      for (VersionEntry v : t.versions()) {
        watermarks.add(t.version(v.version()).manifest().config().getOrDefault(key, "-"));
      }
    }
    List<String> expected = new ArrayList<>(List.of("-")); // version 1: the empty table
    LongStream.rangeClosed(0, lastEpoch).forEach(e -> expected.add(Long.toString(e)));
    assertThat(watermarks).as("the watermark of each version").isEqualTo(expected);
    assertThat(LanceDatasets.latestVersion(table)).isEqualTo(lastEpoch + 2);

    Set<String> referenced = TableFiles.referenced(table);
    assertThat(TableFiles.dataFiles(table)).as("every referenced data file exists")
        .containsAll(referenced);
    assertThat(referenced).as("files the killed runs left unpublished stay unreferenced")
        .doesNotContainAnyElementsOf(unpublishedByKilledRuns);
    assertThat(unpublishedByKilledRuns).as("the restarted runs leave no unreferenced file")
        .containsAll(TableFiles.orphans(table));
  }

  /** The input: JSON files of ids, each file published by an atomic rename. */
  private void writeInput() throws IOException {
    Files.createDirectories(in);
    for (int f = 0; f < FILES; f++) {
      StringBuilder s = new StringBuilder();
      for (long i = (long) f * ROWS_PER_FILE; i < (long) (f + 1) * ROWS_PER_FILE; i++) {
        s.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\"}\n");
      }
      Path tmp = dir.resolve("part.tmp");
      Files.writeString(tmp, s, StandardCharsets.UTF_8);
      Files.move(tmp, in.resolve(String.format("part-%03d.json", f)), StandardCopyOption.ATOMIC_MOVE);
    }
  }

  private record Run(Process process, Path logFile, Path done) {
    String log() {
      try {
        return Files.exists(logFile) ? Files.readString(logFile) : "(no output)";
      } catch (IOException e) {
        return "(output unreadable: " + e + ")";
      }
    }
  }

  private Run launch() throws IOException {
    runs++;
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(Arrays.asList(System.getProperty("lancet.spark.opens").trim().split("\\s+")));
    cmd.addAll(List.of("-Xmx768m", "-XX:TieredStopAtLevel=1", "-cp", cp,
        StreamingQueryProcess.class.getName(), in.toString(), checkpoint.toString(),
        table.toString(), dir.resolve("done-" + runs).toString()));
    Path log = dir.resolve("run-" + runs + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new Run(p, log, dir.resolve("done-" + runs));
  }

  /**
   * Starts a run, kills it with SIGKILL as soon as {@code when} holds, waits for it to be gone
   * and adds the data files it left unpublished to {@code unpublished}; returns what the kill
   * left behind, for the test's output.
   */
  private String killWhen(String point, BooleanSupplier when, Set<String> unpublished)
      throws Exception {
    Run run = launch();
    long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
    try {
      while (!when.getAsBoolean()) {
        if (!run.process.isAlive()) {
          fail("run %d ended (exit %d) before the kill point '%s':%n%s", runs,
              run.process.exitValue(), point, run.log());
        }
        if (System.currentTimeMillis() > deadline) {
          fail("run %d did not reach the kill point '%s' in %d s:%n%s", runs, point,
              DEADLINE_MILLIS / 1000, run.log());
        }
        Thread.sleep(2); // a polling interval: the condition above is the synchronisation
      }
    } finally {
      run.process.destroyForcibly(); // SIGKILL on Linux
      assertThat(run.process.waitFor(30, TimeUnit.SECONDS)).as("run %d gone", runs).isTrue();
    }
    Set<String> left = unpublished();
    unpublished.addAll(left);
    return String.format("run %d at '%s': %d versions, Spark offsets %s, commits %s, "
        + "%d unpublished data files", runs, point, manifests(),
        lastEntry(checkpoint.resolve("offsets")), lastEntry(checkpoint.resolve("commits")),
        left.size());
  }

  /** The table's manifests (its versions; nothing is cleaned up while the test runs). */
  private long manifests() {
    Path versions = table.resolve("_versions");
    if (!Files.isDirectory(versions)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(versions)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".manifest")).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final Set<String> published = new TreeSet<>();

  /**
   * Whether data/ holds a file the newest version does not reference: a batch's tasks have
   * written it and the sink has not committed it yet. Cheap while nothing new appeared (the
   * newest manifest is read only when data/ has a file not yet seen published).
   */
  private boolean publishing() {
    Set<String> files = TableFiles.dataFiles(table);
    if (published.containsAll(files)) {
      return false;
    }
    try (Table t = Table.open(table.toString())) {
      t.latest().manifest().fragments()
          .forEach(f -> f.files().forEach(df -> published.add(df.path())));
    }
    return !published.containsAll(files);
  }

  /** Data files (and temporary files) under data/ that no version references. */
  private Set<String> unpublished() {
    Set<String> files = TableFiles.dataFiles(table);
    if (files.isEmpty()) {
      return files;
    }
    files.removeAll(TableFiles.referenced(table));
    return files;
  }

  private static OptionalLong lastEntry(Path log) throws IOException {
    if (!Files.isDirectory(log)) {
      return OptionalLong.empty();
    }
    try (Stream<Path> s = Files.list(log)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d+"))
          .mapToLong(Long::parseLong).max();
    }
  }

  /** How many times a restarted run found its epoch already committed (from the runs' logs). */
  private long skippedReplays() throws IOException {
    long n = 0;
    for (int r = 1; r <= runs; r++) {
      Path log = dir.resolve("run-" + r + ".log");
      if (Files.exists(log)) {
        n += Files.readAllLines(log).stream().filter(l -> l.contains("already committed")).count();
      }
    }
    return n;
  }

  /** Ids seen more than once or never, against the model 0 .. IDS-1 (a short failure message). */
  private static List<String> anomalies(List<String> rows) {
    long[] seen = new long[(int) IDS];
    List<String> out = new ArrayList<>();
    for (String r : rows) {
      long id = Long.parseLong(r.substring(0, r.indexOf(':')));
      if (id < 0 || id >= IDS) {
        out.add("id " + id + " not in the input");
      } else {
        seen[(int) id]++;
      }
    }
    for (int i = 0; i < IDS; i++) {
      if (seen[i] != 1) {
        out.add("id " + i + " " + seen[i] + " times");
      }
    }
    return out;
  }

  private List<String> lancetRows() throws IOException {
    List<String> out = new ArrayList<>();
    try (LanceTable t = LanceTable.open(table.toString());
        BufferAllocator alloc = new RootAllocator();
        ArrowReader r = t.newScan().select("id", "name").open(alloc)) {
      while (r.loadNextBatch()) {
        collect(r.getVectorSchemaRoot(), out);
      }
    }
    out.sort(null);
    return out;
  }

  private List<String> lanceCoreRows() {
    return LanceDatasets.withDataset(table, Optional.empty(), ds -> {
      List<String> out = new ArrayList<>();
      LanceDatasets.scanBatches(ds, new ScanOptions.Builder().columns(List.of("id", "name")).build(),
          root -> collect(root, out));
      out.sort(null);
      return out;
    });
  }

  private static void collect(VectorSchemaRoot root, List<String> out) {
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector name = (VarCharVector) root.getVector("name");
    for (int i = 0; i < root.getRowCount(); i++) {
      out.add(id.get(i) + ":" + new String(name.get(i), StandardCharsets.UTF_8));
    }
  }
}
