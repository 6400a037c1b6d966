package dev.lancet.store.s3;

import java.util.Locale;
import java.util.Objects;

/**
 * A table root on S3: {@code s3://bucket/prefix} (also {@code s3a://}, as lance-core accepts).
 * The prefix has no leading or trailing '/'; empty means the bucket root.
 */
public record S3Location(String bucket, String prefix) {
  public S3Location {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(prefix, "prefix");
  }

  /** Parses {@code location}; the error says what a valid location looks like. */
  public static S3Location parse(String location) {
    String lower = location.toLowerCase(Locale.ROOT);
    int schemeEnd = lower.startsWith("s3://") ? 5 : lower.startsWith("s3a://") ? 6 : -1;
    if (schemeEnd < 0) {
      throw invalid(location, "it must start with s3://");
    }
    String rest = location.substring(schemeEnd);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String prefix = slash < 0 ? "" : rest.substring(slash + 1);
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    if (bucket.isEmpty()) {
      throw invalid(location, "the bucket name is empty");
    }
    if (rest.contains("?") || rest.contains("#")) {
      throw invalid(location, "query strings and fragments are not supported; pass options as storage options");
    }
    if (prefix.startsWith("/") || prefix.contains("//")) {
      throw invalid(location, "the path has an empty segment ('//')");
    }
    for (String segment : prefix.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        throw invalid(location, "'.' and '..' segments are not allowed in the path");
      }
    }
    return new S3Location(bucket, prefix);
  }

  /** The key of a table-relative path. */
  public String key(String path) {
    return prefix.isEmpty() ? path : prefix + "/" + path;
  }

  /** The key prefix of a table-relative listing prefix ("" or "dir/"). */
  public String keyPrefix(String directory) {
    return prefix.isEmpty() ? directory : prefix + "/" + directory;
  }

  /** The table-relative path of a key under this root. */
  public String relative(String key) {
    return prefix.isEmpty() ? key : key.substring(prefix.length() + 1);
  }

  @Override
  public String toString() {
    return prefix.isEmpty() ? "s3://" + bucket : "s3://" + bucket + "/" + prefix;
  }

  private static IllegalArgumentException invalid(String location, String why) {
    return new IllegalArgumentException("Invalid S3 table location " + location + ": " + why
        + "; write s3://bucket/path/to/table");
  }
}
