package dev.lancet.store.s3;

import dev.lancet.core.store.StorageOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The S3 storage options Lancet reads, under lance-core's names. lance-core 7.0.0 hands its
 * storage options to the object_store crate's {@code AmazonS3ConfigKey} (lance-format/lance
 * {@code rust/lance-io/src/object_store/providers/aws.rs}, {@code as_s3_options} and
 * {@code with_env_s3} in {@code rust/lance-io/src/object_store.rs}), whose canonical names and
 * aliases are those of apache/arrow-rs-object-store {@code src/aws/builder.rs} (commit
 * 04a727be1f4f8bf0b9eefa9b81b97f78507d5b86, {@code impl FromStr for AmazonS3ConfigKey}) and
 * {@code src/client/mod.rs} ({@code ClientConfigKey}: {@code allow_http}, {@code timeout},
 * {@code connect_timeout}); {@code client_max_retries} is lance-core's own.
 *
 * <p>Environment variables: those starting with {@code AWS_}, upper case, as object_store's
 * {@code AmazonS3Builder::from_env} reads them (lance-core's {@code with_env_s3} also maps
 * unprefixed names such as {@code REGION}; Lancet does not, see decision 0014).
 */
public final class S3Options {
  public static final String ACCESS_KEY_ID = "aws_access_key_id";
  public static final String SECRET_ACCESS_KEY = "aws_secret_access_key";
  public static final String SESSION_TOKEN = "aws_session_token";
  public static final String REGION = "aws_region";
  public static final String DEFAULT_REGION = "aws_default_region";
  public static final String ENDPOINT = "aws_endpoint";
  public static final String VIRTUAL_HOSTED_STYLE = "aws_virtual_hosted_style_request";
  public static final String SKIP_SIGNATURE = "aws_skip_signature";
  public static final String ALLOW_HTTP = "allow_http";
  public static final String TIMEOUT = "timeout";
  public static final String CONNECT_TIMEOUT = "connect_timeout";
  public static final String CLIENT_MAX_RETRIES = "client_max_retries";

  /** Every accepted spelling (lower case) to its canonical key. */
  static final Map<String, String> ALIASES = aliases();

  private final StorageOptions options;

  private S3Options(StorageOptions options) {
    this.options = options;
  }

  /** The caller's options, completed from {@code environment} (explicit options win). */
  public static S3Options resolve(Map<String, String> explicit, Map<String, String> environment) {
    return new S3Options(StorageOptions.resolve(explicit, environment, ALIASES, "AWS_"));
  }

  private static Map<String, String> aliases() {
    return new StorageOptions.Aliases()
        .add(ACCESS_KEY_ID, "access_key_id")
        .add(SECRET_ACCESS_KEY, "secret_access_key")
        .add(SESSION_TOKEN, "aws_token", "session_token", "token")
        .add(REGION, "region")
        .add(DEFAULT_REGION, "default_region")
        .add(ENDPOINT, "aws_endpoint_url", "endpoint_url", "endpoint")
        .add(VIRTUAL_HOSTED_STYLE, "virtual_hosted_style_request")
        .add(SKIP_SIGNATURE, "skip_signature")
        .add(ALLOW_HTTP, "aws_allow_http")
        .add(TIMEOUT, "aws_timeout")
        .add(CONNECT_TIMEOUT, "aws_connect_timeout")
        .add(CLIENT_MAX_RETRIES)
        .build();
  }

  /** The resolved options by canonical key (the key of the shared client cache). */
  Map<String, String> asMap() {
    return options.asMap();
  }

  /** The endpoint override, checked: http only with {@code allow_http}, as object_store requires. */
  public Optional<URI> endpoint() {
    Optional<String> value = options.get(ENDPOINT);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    URI uri;
    try {
      uri = URI.create(value.get());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Storage option " + ENDPOINT + "=" + value.get()
          + " is not a URL; write e.g. http://127.0.0.1:9000", e);
    }
    if (uri.getScheme() == null || uri.getHost() == null) {
      throw new IllegalArgumentException("Storage option " + ENDPOINT + "=" + value.get()
          + " is not a URL with a scheme and host; write e.g. https://s3.example.com");
    }
    if (uri.getScheme().equalsIgnoreCase("http") && !allowHttp()) {
      throw new IllegalArgumentException("Storage option " + ENDPOINT + "=" + value.get()
          + " is plain HTTP; set allow_http=true to allow it (as lance-core requires)");
    }
    return Optional.of(uri);
  }

  public boolean allowHttp() {
    return options.flag(ALLOW_HTTP, false);
  }

  /** The region: {@code aws_region}, else {@code aws_default_region}. */
  public Optional<String> region() {
    return options.get(REGION).or(() -> options.get(DEFAULT_REGION));
  }

  public Optional<String> accessKeyId() {
    return options.get(ACCESS_KEY_ID);
  }

  public Optional<String> secretAccessKey() {
    return options.get(SECRET_ACCESS_KEY);
  }

  public Optional<String> sessionToken() {
    return options.get(SESSION_TOKEN);
  }

  /** Path-style addressing unless virtual-hosted style is asked for (object_store's default). */
  public boolean virtualHostedStyle() {
    return options.flag(VIRTUAL_HOSTED_STYLE, false);
  }

  public boolean skipSignature() {
    return options.flag(SKIP_SIGNATURE, false);
  }

  /** Per-request timeout (object_store's {@code timeout}, default 30 s). */
  public Duration timeout() {
    return duration(TIMEOUT, Duration.ofSeconds(30));
  }

  /** Connect timeout (object_store's {@code connect_timeout}, default 5 s). */
  public Duration connectTimeout() {
    return duration(CONNECT_TIMEOUT, Duration.ofSeconds(5));
  }

  /** Retries of a failed request that is safe to repeat (lance-core's default is 10). */
  public int maxRetries() {
    return options.nonNegativeInt(CLIENT_MAX_RETRIES, 10);
  }

  /**
   * A duration as object_store writes them: a number with a unit ({@code 30s}, {@code 500ms},
   * {@code 2m}, {@code 1h}); a bare number is seconds.
   */
  private Duration duration(String key, Duration otherwise) {
    Optional<String> value = options.get(key);
    if (value.isEmpty()) {
      return otherwise;
    }
    String v = value.get().trim().toLowerCase(java.util.Locale.ROOT).replace(" ", "");
    try {
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      } else if (v.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
      } else if (v.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
      } else if (v.endsWith("h")) {
        return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
      }
      return Duration.ofSeconds(Long.parseLong(v));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Storage option " + key + "=" + value.get()
          + " is not a duration; write e.g. 30s or 500ms", e);
    }
  }
}
