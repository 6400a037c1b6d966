package dev.lancet.core.store;

import dev.lancet.core.WorkerProcesses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child-process side of {@link PutIfAbsentProcessRace}: opens the table location (a directory,
 * {@code s3://…}, {@code az://…}: whatever {@link ObjectStores#forUri(String, java.util.Map)}
 * serves on the classpath), warms up, waits for the "go" file, then tries to create
 * {@code _versions/1.manifest .. _versions/N.manifest} with put-if-absent and prints {@code WON i}
 * or {@code LOST i} for each, then {@code DONE}.
 *
 * <p>Arguments: table location, ready file (created once warmed up), go file, worker id, count,
 * then storage options as {@code key=value}.
 */
public final class PutIfAbsentWorkerMain {

  private PutIfAbsentWorkerMain() {}

  /** The payload worker {@code workerId} writes for version {@code version}; big enough that a torn file would show. */
  public static byte[] payload(String workerId, int version) {
    StringBuilder text = new StringBuilder();
    String line = "worker=" + workerId + " version=" + version + "\n";
    while (text.length() < 64 * 1024) {
      text.append(line);
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    String location = args[0];
    Path ready = Path.of(args[1]);
    Path go = Path.of(args[2]);
    String workerId = args[3];
    int count = Integer.parseInt(args[4]);
    java.util.Map<String, String> options = new java.util.HashMap<>();
    for (int i = 5; i < args.length; i++) {
      options.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
    }

    ObjectStore store = ObjectStores.forUri(location, options);
    // Load and exercise the write path once so class loading does not decide the race.
    store.put("warmup/" + workerId, payload(workerId, 0));
    try {
      store.putIfAbsent("warmup/" + workerId, payload(workerId, 0));
    } catch (AlreadyExistsException expected) {
      // expected: the warm-up path was just written
    }
    WorkerProcesses.readyThenAwaitGo(ready, go);

    for (int version = 1; version <= count; version++) {
      try {
        store.putIfAbsent("_versions/" + version + ".manifest", payload(workerId, version));
        System.out.println("WON " + version);
      } catch (AlreadyExistsException e) {
        System.out.println("LOST " + version);
      }
    }
    System.out.println("DONE");
    System.out.flush();
    // An SDK's non-daemon threads (an object store's HTTP client) must not keep the JVM up.
    System.exit(0);
  }
}
