package dev.lancet.spark;

import dev.lancet.table.CreateOptions;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The connector's options (case-insensitive, as Spark passes them).
 *
 * <table>
 *   <tr><th>option</th><th>meaning</th></tr>
 *   <tr><td>{@code path}</td><td>the table's URI (what {@code load(uri)} / {@code save(uri)} pass)</td></tr>
 *   <tr><td>{@code version}, {@code tag}, {@code timestamp}</td><td>read that version: a number,
 *       a tag, or the newest committed at or before an instant (ISO-8601, or
 *       {@code yyyy-MM-dd HH:mm:ss} in UTC, or epoch milliseconds)</td></tr>
 *   <tr><td>{@code storage.KEY}</td><td>lance-core's storage option {@code KEY}
 *       ({@code storage.aws_region}, ...)</td></tr>
 *   <tr><td>{@code batchSize}</td><td>rows per columnar batch read (default 8192)</td></tr>
 *   <tr><td>{@code maxRowsPerFile}</td><td>rows per data file (fragment) written (default 1,048,576)</td></tr>
 *   <tr><td>{@code commitRetries}</td><td>lost races the driver's commit retries (default 20)</td></tr>
 *   <tr><td>{@code storageVersion}, {@code stableRowIds}</td><td>for a table the write creates</td></tr>
 *   <tr><td>{@code overwriteSchema}</td><td>an overwrite takes the data's schema even when the
 *       column names match the table's (default: the table's types, Spark casts)</td></tr>
 *   <tr><td>{@code primaryKey}</td><td>comma-separated key columns whose inserted keys row-level
 *       operations assert unique (default: the table's unenforced primary key)</td></tr>
 * </table>
 */
public record LancetOptions(Map<String, String> options) implements Serializable {
  public static final String STORAGE_PREFIX = "storage.";

  public LancetOptions {
    Map<String, String> lower = new LinkedHashMap<>();
    options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    options = Map.copyOf(lower);
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(options.get(key.toLowerCase(Locale.ROOT)));
  }

  /** The table URI. */
  public String path() {
    return get("path").orElseThrow(() -> new IllegalArgumentException("no table given: use "
        + "load(uri) / save(uri) or .option(\"path\", uri)"));
  }

  /** lance-core storage options: every {@code storage.KEY} as {@code KEY}. */
  public Map<String, String> storageOptions() {
    Map<String, String> out = new LinkedHashMap<>();
    options.forEach((k, v) -> {
      if (k.startsWith(STORAGE_PREFIX)) {
        out.put(k.substring(STORAGE_PREFIX.length()), v);
      }
    });
    return out;
  }

  public OptionalLong version() {
    return get("version").map(v -> {
      try {
        return OptionalLong.of(Long.parseLong(v.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("option version must be a version number, not '" + v
            + "'; use option tag for a tag");
      }
    }).orElse(OptionalLong.empty());
  }

  public Optional<String> tag() {
    return get("tag");
  }

  public Optional<Instant> timestamp() {
    return get("timestamp").map(LancetOptions::parseInstant);
  }

  static Instant parseInstant(String text) {
    String t = text.trim();
    try {
      return Instant.parse(t);
    } catch (DateTimeParseException e) {
      // try the other spellings
    }
    try {
      return LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      // try epoch milliseconds
    }
    try {
      return Instant.ofEpochMilli(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option timestamp must be an ISO-8601 instant "
          + "(2026-01-02T03:04:05Z), 'yyyy-MM-dd HH:mm:ss' in UTC, or epoch milliseconds, not '"
          + text + "'");
    }
  }

  public int batchSize() {
    return get("batchSize").map(Integer::parseInt).orElse(8192);
  }

  public int commitRetries() {
    return get("commitRetries").map(Integer::parseInt).orElse(20);
  }

  public boolean overwriteSchema() {
    return get("overwriteSchema").map(Boolean::parseBoolean).orElse(false);
  }

  public List<String> primaryKey() {
    List<String> out = new ArrayList<>();
    get("primaryKey").ifPresent(v -> {
      for (String s : v.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    });
    return out;
  }

  /** Data-file limits and, for a table the write creates, its storage version and row ids. */
  public CreateOptions createOptions() {
    CreateOptions.Builder b = CreateOptions.builder().storageOptions(storageOptions());
    get("maxRowsPerFile").ifPresent(v -> b.maxRowsPerFile(Long.parseLong(v)));
    get("maxBytesPerFile").ifPresent(v -> b.maxBytesPerFile(Long.parseLong(v)));
    get("storageVersion").ifPresent(b::storageVersion);
    get("stableRowIds").ifPresent(v -> b.stableRowIds(Boolean.parseBoolean(v)));
    return b.build();
  }

  /** These options with {@code more} added (later wins). */
  public LancetOptions with(Map<String, String> more) {
    Map<String, String> all = new LinkedHashMap<>(options);
    more.forEach((k, v) -> all.put(k.toLowerCase(Locale.ROOT), v));
    return new LancetOptions(all);
  }
}
