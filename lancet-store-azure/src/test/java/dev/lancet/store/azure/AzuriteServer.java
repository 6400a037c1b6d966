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

  private static void drain(BufferedReader out) {
    Thread t = new Thread(() -> {
      try {
        while (out.readLine() != null) {
          // keep Azurite's stdout from filling up
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "azurite-stdout");
    t.setDaemon(true);
    t.start();
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
