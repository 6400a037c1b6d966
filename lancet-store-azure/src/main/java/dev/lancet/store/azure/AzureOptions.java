package dev.lancet.store.azure;

import dev.lancet.core.store.StorageOptions;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * The Azure storage options Lancet reads, under lance-core's names: lance-core 7.0.0 passes its
 * storage options to the object_store crate's {@code AzureConfigKey} (lance-format/lance
 * {@code rust/lance-io/src/object_store/providers/azure.rs}, {@code as_azure_options} and
 * {@code with_env_azure}), whose names and aliases are apache/arrow-rs-object-store
 * {@code src/azure/builder.rs} ({@code impl FromStr for AzureConfigKey}). Environment variables
 * starting with {@code AZURE_} are read for keys the caller did not give.
 *
 * <p>Credentials: an account key or a SAS token. With {@code azure_storage_use_emulator} the
 * account and key default to Azurite's well-known development ones and the endpoint to
 * {@code AZURITE_BLOB_STORAGE_URL} or {@code http://127.0.0.1:10000}, as object_store does.
 */
public final class AzureOptions {
  public static final String ACCOUNT_NAME = "azure_storage_account_name";
  public static final String ACCOUNT_KEY = "azure_storage_account_key";
  public static final String SAS_KEY = "azure_storage_sas_key";
  public static final String USE_EMULATOR = "azure_storage_use_emulator";
  public static final String ENDPOINT = "azure_storage_endpoint";
  public static final String ALLOW_HTTP = "allow_http";
  public static final String CLIENT_MAX_RETRIES = "client_max_retries";

  /** Azurite's published development account (https://learn.microsoft.com/azure/storage/common/storage-use-azurite). */
  static final String EMULATOR_ACCOUNT = "devstoreaccount1";
  static final String EMULATOR_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  static final Map<String, String> ALIASES = aliases();

  private final StorageOptions options;
  private final Map<String, String> environment;

  private AzureOptions(StorageOptions options, Map<String, String> environment) {
    this.options = options;
    this.environment = environment;
  }

  public static AzureOptions resolve(Map<String, String> explicit, Map<String, String> environment) {
    return new AzureOptions(StorageOptions.resolve(explicit, environment, ALIASES, "AZURE_"), environment);
  }

  private static Map<String, String> aliases() {
    return new StorageOptions.Aliases()
        .add(ACCOUNT_NAME, "account_name")
        .add(ACCOUNT_KEY, "azure_storage_access_key", "azure_storage_master_key", "master_key", "account_key",
            "access_key")
        .add(SAS_KEY, "azure_storage_sas_token", "sas_key", "sas_token")
        .add(USE_EMULATOR, "use_emulator")
        .add(ENDPOINT, "azure_endpoint", "endpoint")
        .add(ALLOW_HTTP, "azure_allow_http")
        .add(CLIENT_MAX_RETRIES)
        .build();
  }

  /** The resolved options by canonical key (the key of the shared client cache). */
  Map<String, String> asMap() {
    return options.asMap();
  }

  public boolean useEmulator() {
    return options.flag(USE_EMULATOR, false);
  }

  /** The account: the option, else the one the location names, else the emulator's. */
  public String account(AzureLocation location) {
    Optional<String> name = options.get(ACCOUNT_NAME).or(location::account);
    if (name.isPresent()) {
      return name.get();
    }
    if (useEmulator()) {
      return EMULATOR_ACCOUNT;
    }
    throw new IllegalArgumentException("No Azure storage account for " + location + ": set "
        + ACCOUNT_NAME + " (or AZURE_STORAGE_ACCOUNT_NAME), or azure_storage_use_emulator=true for Azurite");
  }

  public Optional<String> accountKey() {
    Optional<String> key = options.get(ACCOUNT_KEY);
    return key.isPresent() || !useEmulator() ? key : Optional.of(EMULATOR_KEY);
  }

  public Optional<String> sasToken() {
    return options.get(SAS_KEY).map(s -> s.startsWith("?") ? s.substring(1) : s);
  }

  /** The account URL: the endpoint option, else the emulator's, else {@code https://{account}.blob.core.windows.net}. */
  public URI accountUrl(String account) {
    Optional<String> endpoint = options.get(ENDPOINT);
    String url;
    if (endpoint.isPresent()) {
      url = endpoint.get();
    } else if (useEmulator()) {
      String base = Optional.ofNullable(environment.get("AZURITE_BLOB_STORAGE_URL")).orElse("http://127.0.0.1:10000");
      url = (base.endsWith("/") ? base : base + "/") + account;
    } else {
      url = "https://" + account + ".blob.core.windows.net";
    }
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Storage option " + ENDPOINT + "=" + url + " is not a URL", e);
    }
    if (uri.getScheme() == null || uri.getHost() == null) {
      throw new IllegalArgumentException("Storage option " + ENDPOINT + "=" + url
          + " is not a URL with a scheme and host; write e.g. https://account.blob.core.windows.net");
    }
    if (uri.getScheme().equalsIgnoreCase("http") && !useEmulator() && !options.flag(ALLOW_HTTP, false)) {
      throw new IllegalArgumentException("Storage option " + ENDPOINT + "=" + url
          + " is plain HTTP; set allow_http=true to allow it (as lance-core requires)");
    }
    return uri;
  }

  /** Retries of a request that is safe to repeat (lance-core's default is 10). */
  public int maxRetries() {
    return options.nonNegativeInt(CLIENT_MAX_RETRIES, 10);
  }
}
