package dev.lancet.core.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Storage options as an object-store provider reads them: the caller's map, then the
 * environment for every key the caller did not give (explicit options win), both folded onto
 * canonical key names through the provider's alias table. The keys and their aliases are
 * lance-core's (the object_store crate's config keys, which lance-core 7.0.0 passes through),
 * so one map serves Lancet and lance-core.
 *
 * <p>Keys match case-insensitively, as lance-core lower-cases them. Keys the table does not
 * know are ignored, as lance-core ignores them, so a map written for lance-core (with keys
 * only it reads) can be passed unchanged.
 */
public final class StorageOptions {
  private final Map<String, String> values;

  private StorageOptions(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /**
   * Resolves {@code explicit} and then {@code environment} against {@code aliases} (every
   * accepted spelling, lower case, to its canonical key). Only environment variables whose
   * name starts with one of {@code environmentPrefixes} (e.g. {@code "AWS_"}) are read, upper
   * case as the object_store crate's {@code from_env} reads them.
   */
  public static StorageOptions resolve(Map<String, String> explicit, Map<String, String> environment,
      Map<String, String> aliases, String... environmentPrefixes) {
    Objects.requireNonNull(explicit, "explicit");
    Objects.requireNonNull(environment, "environment");
    Map<String, String> out = new LinkedHashMap<>();
    explicit.forEach((key, value) -> {
      String canonical = aliases.get(Objects.requireNonNull(key, "storage option key").toLowerCase(Locale.ROOT));
      if (canonical != null) {
        out.put(canonical, Objects.requireNonNull(value, () -> "value of storage option " + key));
      }
    });
    environment.forEach((name, value) -> {
      for (String prefix : environmentPrefixes) {
        if (name.startsWith(prefix)) {
          String canonical = aliases.get(name.toLowerCase(Locale.ROOT));
          if (canonical != null && value != null) {
            out.putIfAbsent(canonical, value);
          }
        }
      }
    });
    return new StorageOptions(out);
  }

  /** Builds a provider's alias table: every accepted spelling, lower case, to its canonical key. */
  public static final class Aliases {
    private final Map<String, String> table = new LinkedHashMap<>();

    /** The canonical key itself and its other spellings. */
    public Aliases add(String canonical, String... aliases) {
      table.put(canonical.toLowerCase(Locale.ROOT), canonical);
      for (String a : aliases) {
        table.put(a.toLowerCase(Locale.ROOT), canonical);
      }
      return this;
    }

    public Map<String, String> build() {
      return Map.copyOf(table);
    }
  }

  /** A non-negative integer option, or {@code otherwise} when absent; an error names the option. */
  public int nonNegativeInt(String canonicalKey, int otherwise) {
    Optional<String> value = get(canonicalKey);
    if (value.isEmpty()) {
      return otherwise;
    }
    try {
      int n = Integer.parseInt(value.get());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Storage option " + canonicalKey + "=" + value.get()
        + " is not a non-negative integer");
  }

  /** The value of a canonical key, if given (an empty value counts as not given). */
  public Optional<String> get(String canonicalKey) {
    String value = values.get(canonicalKey);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  /**
   * A boolean option: lance-core's truthy spellings ({@code true}, {@code 1}, {@code yes},
   * {@code y}, {@code on}, any case) are true, {@code false}/{@code 0}/{@code no}/{@code n}/
   * {@code off} are false, absence gives {@code otherwise}; anything else is an error naming
   * the option.
   */
  public boolean flag(String canonicalKey, boolean otherwise) {
    Optional<String> value = get(canonicalKey);
    if (value.isEmpty()) {
      return otherwise;
    }
    switch (value.get().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes", "y", "on":
        return true;
      case "false", "0", "no", "n", "off":
        return false;
      default:
        throw new IllegalArgumentException("Storage option " + canonicalKey + "=" + value.get()
            + " is not a boolean; write true or false");
    }
  }

  /** Every resolved option by canonical key (for diagnostics: secrets included, do not log). */
  public Map<String, String> asMap() {
    return values;
  }

  @Override
  public String toString() {
    // Never print values: they hold secrets.
    return "StorageOptions" + values.keySet();
  }
}
