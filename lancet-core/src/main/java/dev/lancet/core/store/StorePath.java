package dev.lancet.core.store;

import dev.lancet.format.layout.RelativePath;
import java.util.Objects;

/**
 * Validation of the relative, '/'-separated paths that {@link ObjectStore} accepts.
 *
 * <p>A valid path follows {@link RelativePath} (one or more non-empty segments joined by '/', no
 * '.' or '..' segment, no leading or trailing '/', no backslash, no control character, no drive
 * letter, at most 4096 characters: the same rule the manifest validator applies to the paths a
 * manifest names) and has no segment starting with the reserved {@link #TEMP_PREFIX}. These
 * rules make a path mean the same object in every store and make it impossible to name a file
 * outside the root.
 */
public final class StorePath {

  /**
   * Prefix of the temporary files that in-flight writes create next to their target. It is
   * reserved: no object may be named with it, and {@link ObjectStore#list} skips such files.
   * Temporary names never end in the target's suffix, so readers that filter by suffix (as Lance
   * does with {@code .manifest}) ignore them too.
   */
  public static final String TEMP_PREFIX = ".lancet-tmp-";

  private StorePath() {}

  /**
   * Checks an object path and returns it unchanged.
   *
   * @throws InvalidStorePathException naming the path and the rule it broke
   */
  public static String validate(String path) {
    Objects.requireNonNull(path, "path");
    String problem = RelativePath.problem(path);
    if (problem != null) {
      throw new InvalidStorePathException(path, problem);
    }
    if (path.startsWith(TEMP_PREFIX) || path.contains("/" + TEMP_PREFIX)) {
      throw new InvalidStorePathException(path, "a segment uses the reserved temporary-file prefix " + TEMP_PREFIX);
    }
    return path;
  }

  /**
   * Checks a directory-like listing prefix and returns it in canonical form: {@code ""} for the
   * table root, otherwise the path with exactly one trailing '/' (so {@code "_versions"} and
   * {@code "_versions/"} both become {@code "_versions/"}).
   *
   * @throws InvalidStorePathException naming the prefix and the rule it broke
   */
  public static String validatePrefix(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    if (prefix.isEmpty()) {
      return "";
    }
    String directory = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    if (directory.isEmpty()) {
      throw new InvalidStorePathException(prefix, "absolute paths are not allowed; use \"\" for the table root");
    }
    try {
      validate(directory);
    } catch (InvalidStorePathException e) {
      // Report the prefix the caller wrote, not our trimmed copy.
      throw new InvalidStorePathException(prefix, e.reason());
    }
    return directory + "/";
  }

  /**
   * Joins segments (or already-valid sub-paths) with '/' and validates the result, e.g.
   * {@code join("_versions", "1.manifest")}.
   */
  public static String join(String first, String... more) {
    StringBuilder out = new StringBuilder(Objects.requireNonNull(first, "first"));
    for (String part : more) {
      out.append('/').append(Objects.requireNonNull(part, "part"));
    }
    return validate(out.toString());
  }

  /** The directory part of a valid path with its trailing '/', or {@code ""} at the root. */
  public static String parent(String path) {
    validate(path);
    return path.substring(0, path.lastIndexOf('/') + 1);
  }

  /** The last segment of a valid path. */
  public static String name(String path) {
    validate(path);
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Whether {@code path} is a valid object path (what {@link #validate} accepts). */
  public static boolean isValid(String path) {
    try {
      validate(path);
      return true;
    } catch (InvalidStorePathException e) {
      return false;
    }
  }

  /** Whether a file name (one segment) is a temporary file of an in-flight write. */
  public static boolean isTemporaryName(String name) {
    return name.startsWith(TEMP_PREFIX);
  }
}
