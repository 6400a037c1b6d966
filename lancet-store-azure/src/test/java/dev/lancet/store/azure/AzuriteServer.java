package dev.lancet.store.azure;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real Azure Blob endpoint on loopback for tests: Azurite ({@code azurite-blob}, npm package
 * {@code azurite}) in its own process, in memory, on a free port. Found at
 * {@code $LANCET_AZURITE_BLOB}, else {@code .azurite/node_modules/.bin/azurite-blob} at the
 * repository root ({@code .ci/setup-azurite} installs it there). When it is missing the tests
 * are skipped with a message saying how to install it, unless {@code LANCET_REQUIRE_AZURITE=true}
 * (CI), where they fail.
 */
public final class AzuriteServer {
  private static AzuriteServer shared;
  private static IllegalStateException failedToStart;

  private final Process process;
  private final int port;
  private final BlobServiceClient admin;

  private AzuriteServer(Process process, int port) {
    this.process = process;
    this.port = port;
    this.admin = new BlobServiceClientBuilder().endpoint(accountUrl())
        .credential(new StorageSharedKeyCredential(AzureOptions.EMULATOR_ACCOUNT, AzureOptions.EMULATOR_KEY))
        .buildClient();
  }

  /** The JVM's Azurite, started on first use (skips the calling test when Azurite is not installed). */
  public static synchronized AzuriteServer shared() {
    if (shared == null) {
      Path binary = binary().orElse(null);
      if (binary == null) {
        String message = "Azurite is not installed (no $LANCET_AZURITE_BLOB, no .azurite/node_modules/.bin/azurite-blob): "
            + "run .ci/setup-azurite to install it; the Azure store tests are skipped";
        if ("true".equalsIgnoreCase(System.getenv("LANCET_REQUIRE_AZURITE"))) {
          throw new IllegalStateException(message.replace("are skipped", "are required (LANCET_REQUIRE_AZURITE=true)"));
        }
        assumeTrue(false, message);
      }
      if (failedToStart != null) {
        throw failedToStart;
      }
      try {
        shared = start(binary);
      } catch (IllegalStateException e) {
        failedToStart = e;
        throw e;
      }
      AzuriteServer started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started.process::destroyForcibly, "azurite-stop"));
    }
    return shared;
  }

  static Optional<Path> binary() {
    String env = System.getenv("LANCET_AZURITE_BLOB");
    if (env != null && !env.isBlank()) {
      return Optional.of(Path.of(env)).filter(Files::isExecutable);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(".azurite/node_modules/.bin/azurite-blob");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
      if (Files.exists(dir.resolve(".ci"))) {
        break; // the repository root
      }
    }
    return Optional.empty();
  }

  private static AzuriteServer start(Path binary) {
    try {
      int port;
      try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        port = probe.getLocalPort();
      }
      Path workspace = Files.createTempDirectory("azurite-");
      Process process = new ProcessBuilder(List.of(binary.toString(), "--blobHost", "127.0.0.1", "--blobPort",
          String.valueOf(port), "--inMemoryPersistence", "--skipApiVersionCheck"))
          .directory(workspace.toFile()).redirectErrorStream(true).start();
      // Azurite prints this line once it accepts connections.
      List<String> seen = new ArrayList<>();
      // Not closed here: Azurite exits when its stdout pipe breaks; drain() keeps reading it.
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<Boolean> listening = CompletableFuture.supplyAsync(() -> {
        try {
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            synchronized (seen) {
              seen.add(line);
            }
            if (line.contains("successfully listens on")) {
              drain(out);
              return true;
            }
          }
          return false;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      if (!listening.get(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("Azurite exited before listening: " + seen);
      }
      return new AzuriteServer(process, port);
    } catch (Exception e) {
      throw new IllegalStateException("could not start Azurite (" + binary + "): " + e, e);
    }
  }

  /** Azurite's access log (one line a request on its stdout), as requests by container. */
  private record Logged(String container, String operation, String rest) {}

  private static final List<Logged> REQUESTS = new ArrayList<>();

  /** Matches {@code "GET /devstoreaccount1/container/blob?query HTTP/1.1" 200}. */
  private static final java.util.regex.Pattern ACCESS_LINE =
      java.util.regex.Pattern.compile("\"([A-Z]+) /[^/ ]+/([^/? ]+)([^ ]*) HTTP/[0-9.]+\" ([0-9]{3})");

  private static void drain(BufferedReader out) {
    Thread t = new Thread(() -> {
      try {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          java.util.regex.Matcher m = ACCESS_LINE.matcher(line);
          if (m.find()) {
            synchronized (REQUESTS) {
              REQUESTS.add(new Logged(m.group(2), operation(m.group(1), m.group(3)), m.group(3)));
              REQUESTS.notifyAll();
            }
          }
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "azurite-stdout");
    t.setDaemon(true);
    t.start();
  }

  /** The Blob service operation of an access-log line (method and the path after the container). */
  private static String operation(String method, String rest) {
    boolean list = rest.contains("comp=list");
    return switch (method) {
      case "GET" -> list ? "List Blobs" : "Get Blob";
      case "HEAD" -> "Get Blob Properties";
      case "PUT" -> rest.contains("comp=blocklist") ? "Put Block List" : rest.contains("comp=block") ? "Put Block"
          : rest.contains("restype=container") ? "Create Container" : "Put Blob";
      case "DELETE" -> "Delete Blob";
      default -> method;
    };
  }

  private static final String MARKER = "lancet-count-marker-";

  /**
   * Requests Azurite has answered for {@code container} so far, by operation, counted from its
   * access log. Every request answered before this call is in it: the call sends a marker request
   * and waits until Azurite has logged it (the log is written in answer order).
   */
  public Map<String, Long> requestCounts(String container) {
    String marker = MARKER + UUID.randomUUID();
    admin.getBlobContainerClient(container).getBlobClient(marker).exists();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    synchronized (REQUESTS) {
      while (REQUESTS.stream().noneMatch(r -> r.container().equals(container) && r.rest().contains(marker))) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException("Azurite did not log the marker request " + marker + " within 30 s");
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(REQUESTS, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for Azurite's access log", e);
        }
      }
      Map<String, Long> counts = new java.util.TreeMap<>();
      for (Logged r : REQUESTS) {
        if (r.container().equals(container) && !r.rest().contains(MARKER)) {
          counts.merge(r.operation(), 1L, Long::sum);
        }
      }
      return counts;
    }
  }

  /** The requests for {@code container} since {@code before} (from {@link #requestCounts}), by operation. */
  public Map<String, Long> requestsSince(String container, Map<String, Long> before) {
    Map<String, Long> now = requestCounts(container);
    Map<String, Long> since = new java.util.TreeMap<>();
    now.forEach((op, n) -> {
      long d = n - before.getOrDefault(op, 0L);
      if (d != 0) {
        since.put(op, d);
      }
    });
    return since;
  }

  public String accountUrl() {
    return "http://127.0.0.1:" + port + "/" + AzureOptions.EMULATOR_ACCOUNT;
  }

  /** lance-core storage options for this Azurite (the same keys Lancet reads). */
  public Map<String, String> storageOptions() {
    return Map.of(
        "azure_storage_account_name", AzureOptions.EMULATOR_ACCOUNT,
        "azure_storage_account_key", AzureOptions.EMULATOR_KEY,
        "azure_storage_endpoint", accountUrl(),
        "allow_http", "true");
  }

  /** Creates a container with a fresh name and returns the name. */
  public String newContainer(String hint) {
    String name = hint.toLowerCase().replaceAll("[^a-z0-9-]", "-") + "-" + UUID.randomUUID().toString().substring(0, 8);
    admin.createBlobContainer(name);
    return name;
  }

  public BlobServiceClient admin() {
    return admin;
  }
}
