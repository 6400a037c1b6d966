package dev.lancet.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Worker JVMs on the test classpath, released together: each worker is started with its ready
 * file and the shared go file as its first two arguments after the table, creates the ready
 * file once warmed up, and starts its work when the go file appears (a file-based barrier, no
 * sleeps). Output goes to {@code out-N} / {@code err-N} in the working directory.
 */
public final class WorkerProcesses implements AutoCloseable {
  /** The arguments of worker {@code w}, given the ready and go files it must use. */
  @FunctionalInterface
  public interface Arguments {
    List<String> of(int worker, Path ready, Path go);
  }

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final Path go;

  private WorkerProcesses(Path dir) throws IOException {
    this.dir = dir;
    this.go = Files.createDirectories(dir.resolve("signals")).resolve("go");
  }

  /** Starts {@code count} workers running {@code main} with {@code jvmOptions}, and waits until all are ready. */
  public static WorkerProcesses startReady(Path dir, int count, List<String> jvmOptions, Class<?> main,
      Arguments arguments) throws Exception {
    WorkerProcesses workers = new WorkerProcesses(dir);
    try {
      for (int w = 0; w < count; w++) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(arguments.of(w, workers.ready(w), workers.go));
        workers.processes.add(new ProcessBuilder(command)
            .redirectOutput(dir.resolve("out-" + w).toFile())
            .redirectError(dir.resolve("err-" + w).toFile())
            .start());
      }
      workers.awaitReady();
    } catch (Exception | AssertionError e) {
      workers.close();
      throw e;
    }
    return workers;
  }

  private Path ready(int w) {
    return go.resolveSibling("ready-" + w);
  }

  private void awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int w = 0; w < processes.size(); w++) {
      while (!Files.exists(ready(w))) {
        assertThat(processes.get(w).isAlive()).as("worker %d alive; stderr: %s", w, stderr(w)).isTrue();
        assertThat(System.nanoTime()).as("worker %d ready in time", w).isLessThan(deadline);
        processes.get(w).waitFor(5, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Worker side: says it is ready, then waits (at most 60 s) for the go file. */
  public static void readyThenAwaitGo(Path ready, Path go) throws IOException {
    Files.createFile(ready);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(go)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no go signal within 60 s");
      }
      Thread.onSpinWait();
    }
  }

  /** Releases every worker at once. */
  public void go() throws IOException {
    Files.createFile(go);
  }

  /** Waits for every worker to exit successfully; returns each worker's stdout lines. */
  public List<List<String>> awaitSuccess(long timeout, TimeUnit unit) throws Exception {
    List<List<String>> out = new ArrayList<>();
    for (int w = 0; w < processes.size(); w++) {
      assertThat(processes.get(w).waitFor(timeout, unit)).as("worker %d finished in time", w).isTrue();
      assertThat(processes.get(w).exitValue()).as("worker %d exit code; stderr: %s", w, stderr(w)).isZero();
      out.add(Files.readAllLines(dir.resolve("out-" + w)));
    }
    return out;
  }

  public String stderr(int w) {
    try {
      return Files.readString(dir.resolve("err-" + w));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    processes.forEach(Process::destroyForcibly);
  }
}
