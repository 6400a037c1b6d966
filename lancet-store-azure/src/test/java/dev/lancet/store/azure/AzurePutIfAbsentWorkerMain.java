package dev.lancet.store.azure;

import dev.lancet.core.WorkerProcesses;
import dev.lancet.core.store.AlreadyExistsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * Child-process side of {@link AzurePutIfAbsentMultiProcessTest}: waits for the go file, then
 * tries to create {@code _versions/1.manifest .. N.manifest} with put-if-absent and prints
 * {@code WON i} or {@code LOST i} for each, then {@code DONE}.
 *
 * <p>Arguments: account URL, table location, ready file, go file, worker id, count.
 */
public final class AzurePutIfAbsentWorkerMain {
  private AzurePutIfAbsentWorkerMain() {}

  public static byte[] payload(String workerId, int version) {
    StringBuilder text = new StringBuilder();
    String line = "worker=" + workerId + " version=" + version + "\n";
    while (text.length() < 64 * 1024) {
      text.append(line);
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Map.of("azure_storage_account_name", AzureOptions.EMULATOR_ACCOUNT,
        "azure_storage_account_key", AzureOptions.EMULATOR_KEY, "azure_storage_endpoint", args[0], "allow_http", "true");
    String workerId = args[4];
    int count = Integer.parseInt(args[5]);
    try (AzureObjectStore store = AzureObjectStore.open(args[1], options, Map.of(), AzureObjectStore.Settings.DEFAULT)) {
      store.put("warmup/" + workerId, payload(workerId, 0));
      try {
        store.putIfAbsent("warmup/" + workerId, payload(workerId, 0));
      } catch (AlreadyExistsException expected) {
        // the warm-up blob was just written
      }
      WorkerProcesses.readyThenAwaitGo(Path.of(args[2]), Path.of(args[3]));
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
    System.exit(0); // the SDK's Netty threads would keep the JVM up for a while
  }
}
