package dev.lancet.store.s3;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.store.AlreadyExistsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Child-process side of {@link S3PutIfAbsentMultiProcessTest}: opens the table root on the
 * server, warms up, waits for the go file, then tries to create {@code _versions/1.manifest ..
 * _versions/N.manifest} with put-if-absent and prints {@code WON i} or {@code LOST i} for each,
 * then {@code DONE}.
 *
 * <p>Arguments: endpoint, table location, ready file, go file, worker id, count.
 */
public final class S3PutIfAbsentWorkerMain {
  private S3PutIfAbsentWorkerMain() {}

  /** The payload worker {@code workerId} writes for {@code version}; 64 KiB, so a torn object would show. */
  public static byte[] payload(String workerId, int version) {
    StringBuilder text = new StringBuilder();
    String line = "worker=" + workerId + " version=" + version + "\n";
    while (text.length() < 64 * 1024) {
      text.append(line);
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    String endpoint = args[0];
    String location = args[1];
    Path ready = Path.of(args[2]);
    Path go = Path.of(args[3]);
    String workerId = args[4];
    int count = Integer.parseInt(args[5]);
    Map<String, String> options = Map.of("aws_endpoint", endpoint, "aws_access_key_id", S3ProxyServer.ACCESS_KEY,
        "aws_secret_access_key", S3ProxyServer.SECRET_KEY, "aws_region", S3ProxyServer.REGION, "allow_http", "true");
    try (S3ObjectStore store = S3ObjectStore.open(location, options, Map.of(), S3ObjectStore.Settings.DEFAULT)) {
      // Load and exercise the write path (and the conditional-write probe) before the race.
      store.put("warmup/" + workerId, payload(workerId, 0));
      try {
        store.putIfAbsent("warmup/" + workerId, payload(workerId, 0));
      } catch (AlreadyExistsException expected) {
        // the warm-up object was just written
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
    }
    System.out.println("DONE");
    System.out.flush();
  }
}
