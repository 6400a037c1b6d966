package dev.lancet.store.azure;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A table root on Azure Blob Storage: {@code az://container/prefix} (also {@code azure://}), or
 * {@code abfss://container@account.dfs.core.windows.net/prefix} (also {@code abfs://}), which
 * names the account too. The prefix has no leading or trailing '/'.
 */
public record AzureLocation(String container, String prefix, Optional<String> account) {
  public AzureLocation {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(account, "account");
  }

  public static AzureLocation parse(String location) {
    String lower = location.toLowerCase(Locale.ROOT);
    int schemeEnd = lower.indexOf("://");
    String scheme = schemeEnd < 0 ? "" : lower.substring(0, schemeEnd);
    if (!scheme.equals("az") && !scheme.equals("azure") && !scheme.equals("abfs") && !scheme.equals("abfss")) {
      throw invalid(location, "it must start with az://");
    }
    String rest = location.substring(schemeEnd + 3);
    if (rest.contains("?") || rest.contains("#")) {
      throw invalid(location, "query strings and fragments are not supported; pass options as storage options");
    }
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String prefix = slash < 0 ? "" : rest.substring(slash + 1);
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    Optional<String> account = Optional.empty();
    String container = authority;
    int at = authority.indexOf('@');
    if (at >= 0) {
      container = authority.substring(0, at);
      String host = authority.substring(at + 1);
      int dot = host.indexOf('.');
      account = Optional.of(dot < 0 ? host : host.substring(0, dot));
    }
    if (container.isEmpty()) {
      throw invalid(location, "the container name is empty");
    }
    if (prefix.startsWith("/") || prefix.contains("//")) {
      throw invalid(location, "the path has an empty segment ('//')");
    }
    for (String segment : prefix.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        throw invalid(location, "'.' and '..' segments are not allowed in the path");
      }
    }
    return new AzureLocation(container, prefix, account);
  }

  public String blobName(String path) {
    return prefix.isEmpty() ? path : prefix + "/" + path;
  }

  public String blobPrefix(String directory) {
    return prefix.isEmpty() ? directory : prefix + "/" + directory;
  }

  @Override
  public String toString() {
    return "az://" + container + (prefix.isEmpty() ? "" : "/" + prefix);
  }

  private static IllegalArgumentException invalid(String location, String why) {
    return new IllegalArgumentException("Invalid Azure table location " + location + ": " + why
        + "; write az://container/path/to/table");
  }
}
