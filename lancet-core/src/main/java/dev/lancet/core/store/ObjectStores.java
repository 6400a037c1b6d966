package dev.lancet.core.store;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens an {@link ObjectStore} from a table location string.
 *
 * <ul>
 *   <li>a plain filesystem path ({@code /data/t}, {@code tables/t}) or a {@code file:} URI
 *       ({@code file:///data/t}) gives a {@link LocalObjectStore};</li>
 *   <li>{@code memory://name} gives the process-wide {@link MemoryObjectStore} registered under
 *       {@code name}, created on first use, so separate openers of one name share one table.</li>
 *   <li>any other scheme ({@code s3://bucket/prefix}, {@code az://container/prefix}) goes to the
 *       {@link ObjectStoreProvider} that serves it, found with {@link ServiceLoader} on the
 *       classpath: add lancet-store-s3 or lancet-store-azure to open such tables.</li>
 * </ul>
 */
public final class ObjectStores {

  private static final String SUPPORTED =
      "supported: a plain filesystem path, file:///absolute/path, memory://name, and the schemes of "
          + "the store modules on the classpath (s3:// with lancet-store-s3, az:// with lancet-store-azure)";

  /** Where the providers of well-known schemes live, to name the module a user must add. */
  private static final Map<String, String> PROVIDER_MODULES = Map.of(
      "s3", "dev.lancet:lancet-store-s3", "s3a", "dev.lancet:lancet-store-s3",
      "az", "dev.lancet:lancet-store-azure", "azure", "dev.lancet:lancet-store-azure",
      "abfs", "dev.lancet:lancet-store-azure", "abfss", "dev.lancet:lancet-store-azure");

  // A scheme is at least two characters, so a Windows drive letter ("C:\...") reads as a path.
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  private static final ConcurrentMap<String, MemoryObjectStore> MEMORY_STORES = new ConcurrentHashMap<>();

  private ObjectStores() {}

  /**
   * Opens the store for {@code location}.
   *
   * @throws IllegalArgumentException if the location is empty, malformed or uses an unsupported
   *     scheme; the message lists the supported forms
   */
  public static ObjectStore forUri(String location) {
    return forUri(location, Map.of());
  }

  /**
   * Opens the store for {@code location} with storage options (lance-core's keys, e.g.
   * {@code aws_endpoint}, {@code aws_region}, {@code allow_http}); local and memory stores
   * take none and ignore them.
   *
   * @throws IllegalArgumentException if the location is empty, malformed or uses a scheme no
   *     provider on the classpath serves; the message names the module to add
   */
  public static ObjectStore forUri(String location, Map<String, String> storageOptions) {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(storageOptions, "storageOptions");
    if (location.isBlank()) {
      throw new IllegalArgumentException("Empty table location; " + SUPPORTED);
    }
    Matcher scheme = SCHEME.matcher(location);
    if (!scheme.find()) {
      return new LocalObjectStore(Path.of(location));
    }
    switch (scheme.group(1).toLowerCase(java.util.Locale.ROOT)) {
      case "file":
        return new LocalObjectStore(fileUriToPath(location));
      case "memory":
        return memory(memoryName(location));
      default:
        return providerFor(location, scheme.group(1)).open(location, storageOptions);
    }
  }

  private static ObjectStoreProvider providerFor(String location, String scheme) {
    String key = scheme.toLowerCase(Locale.ROOT);
    ObjectStoreProvider provider = Providers.BY_SCHEME.get(key);
    if (provider != null) {
      return provider;
    }
    String module = PROVIDER_MODULES.get(key);
    if (module != null) {
      throw new IllegalArgumentException("Cannot open " + location + ": no object store for '" + scheme
          + "://' on the classpath; add the module " + module);
    }
    throw new IllegalArgumentException("Unsupported table location " + location + ": scheme '"
        + scheme + "' is not supported; " + SUPPORTED);
  }

  /** The providers on the classpath, loaded once (holder idiom: on the first non-local open). */
  private static final class Providers {
    static final Map<String, ObjectStoreProvider> BY_SCHEME = load();

    private static Map<String, ObjectStoreProvider> load() {
      Map<String, ObjectStoreProvider> byScheme = new HashMap<>();
      for (ObjectStoreProvider provider : ServiceLoader.load(ObjectStoreProvider.class, ObjectStores.class.getClassLoader())) {
        for (String scheme : provider.schemes()) {
          byScheme.putIfAbsent(scheme.toLowerCase(Locale.ROOT), provider);
        }
      }
      return Map.copyOf(byScheme);
    }
  }

  /** The shared in-memory store registered under {@code name}, created on first use. */
  public static MemoryObjectStore memory(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("Invalid memory store name '" + name + "': it must be non-empty and contain no '/'");
    }
    return MEMORY_STORES.computeIfAbsent(name, unused -> new MemoryObjectStore());
  }

  /** Forgets the shared in-memory store {@code name} (later opens start empty); a no-op if there is none. */
  public static void dropMemory(String name) {
    MEMORY_STORES.remove(Objects.requireNonNull(name, "name"));
  }

  private static Path fileUriToPath(String location) {
    try {
      return Path.of(URI.create(location));
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      throw new IllegalArgumentException("Invalid file URI " + location + " (" + e.getMessage()
          + "); write file:///absolute/path with special characters percent-encoded, or a plain path", e);
    }
  }

  private static String memoryName(String location) {
    String prefix = "memory://";
    if (!location.regionMatches(true, 0, prefix, 0, prefix.length())) {
      throw new IllegalArgumentException("Invalid memory location " + location + ": write memory://name");
    }
    String name = location.substring(prefix.length());
    if (name.endsWith("/")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("Invalid memory location " + location
          + ": write memory://name with a non-empty name and no further path");
    }
    return name;
  }
}
