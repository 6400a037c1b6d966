package dev.lancet.core.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares locations as Lance writes them into base paths ({@code /abs/path}, {@code file:///...},
 * {@code s3://bucket/key}, {@code memory://name}) with a table's location, to tell whether a base
 * path names a directory of that table: a branch's manifest names the table's root (or a parent
 * branch's {@code tree/} directory) as the base of the files it shares.
 */
public final class Locations {
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");
  /** Spellings of one service that Lancet does not map onto each other (a match is undecided). */
  private static final Set<Set<String>> ALIASES = Set.of(Set.of("s3", "s3a"),
      Set.of("az", "azure", "abfs", "abfss"));

  private Locations() {}

  /**
   * The spelling of a table's location to record in files other writers read (a branch's base
   * path, a clone's source): a local path or {@code file:} URI as an absolute, normalized path
   * (what lance-core records when given a path), any other URI without trailing '/'.
   */
  public static String canonical(String location) {
    String scheme = scheme(location);
    if (scheme.isEmpty() || scheme.equals("file")) {
      return localPath(location).toAbsolutePath().normalize().toString();
    }
    return trim(location);
  }

  /** {@code location} with {@code relative} (a '/'-separated directory path) appended. */
  public static String child(String location, String relative) {
    String base = trim(location);
    String rel = relative.endsWith("/") ? relative.substring(0, relative.length() - 1) : relative;
    if (scheme(location).isEmpty()) {
      return Path.of(base).resolve(rel).toString();
    }
    return base + "/" + rel;
  }

  /** The inverse of {@link #child}: {@code location} without its trailing {@code relative}. */
  public static String parentOf(String location, String relative) {
    String rel = relative.endsWith("/") ? relative.substring(0, relative.length() - 1) : relative;
    String base = trim(location);
    if (scheme(location).isEmpty()) {
      Path p = Path.of(base);
      Path r = Path.of(rel);
      if (!p.endsWith(r)) {
        throw new IllegalArgumentException(location + " does not end in " + relative);
      }
      Path parent = p;
      for (int i = 0; i < r.getNameCount(); i++) {
        parent = parent.getParent();
      }
      return parent == null ? "." : parent.toString();
    }
    if (!base.endsWith("/" + rel)) {
      throw new IllegalArgumentException(location + " does not end in " + relative);
    }
    return base.substring(0, base.length() - rel.length() - 1);
  }

  /** Where {@code location} lies relative to the table at {@code tableRoot}. */
  public static Placement place(String tableRoot, String location) {
    String rootScheme = scheme(tableRoot);
    String scheme = scheme(location);
    boolean rootLocal = rootScheme.isEmpty() || rootScheme.equals("file");
    boolean local = scheme.isEmpty() || scheme.equals("file");
    if (rootLocal && local) {
      return placeLocal(tableRoot, location);
    }
    if (rootLocal || local) {
      return new Placement.Outside();
    }
    if (!rootScheme.equals(scheme)) {
      for (Set<String> alias : ALIASES) {
        if (alias.contains(rootScheme) && alias.contains(scheme)) {
          return new Placement.Undecided(location + " and the table's location " + tableRoot
              + " use different spellings (" + scheme + ", " + rootScheme + ") of one service");
        }
      }
      return new Placement.Outside();
    }
    if (tableRoot.contains("%") || location.contains("%") || tableRoot.contains("?")
        || location.contains("?")) {
      return new Placement.Undecided("percent-escapes or queries in " + location + " or "
          + tableRoot + " are not compared");
    }
    String root = trim(rootScheme + tableRoot.substring(rootScheme.length()));
    String other = trim(scheme + location.substring(scheme.length()));
    if (other.equals(root)) {
      return new Placement.Inside("");
    }
    if (other.startsWith(root + "/")) {
      return inside(other.substring(root.length() + 1));
    }
    return new Placement.Outside();
  }

  private static Placement placeLocal(String tableRoot, String location) {
    Path root;
    Path other;
    try {
      root = real(localPath(tableRoot));
      other = real(localPath(location));
    } catch (IllegalArgumentException e) {
      return new Placement.Undecided(e.getMessage());
    }
    if (other.equals(root)) {
      return new Placement.Inside("");
    }
    if (other.startsWith(root)) {
      return inside(root.relativize(other).toString().replace(java.io.File.separatorChar, '/'));
    }
    return new Placement.Outside();
  }

  private static Placement inside(String relative) {
    for (String segment : relative.split("/")) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return new Placement.Undecided("the relative path " + relative + " has an empty, '.' or '..' segment");
      }
    }
    return new Placement.Inside(relative + "/");
  }

  /** The path, with symbolic links resolved as far as it exists, absolute and normalized. */
  private static Path real(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    Path existing = abs;
    Path rest = null;
    while (existing != null && !Files.exists(existing)) {
      Path name = existing.getFileName();
      rest = rest == null ? name : name.resolve(rest);
      existing = existing.getParent();
    }
    if (existing == null) {
      return abs;
    }
    try {
      Path resolved = existing.toRealPath();
      return rest == null ? resolved : resolved.resolve(rest).normalize();
    } catch (IOException e) {
      return abs;
    }
  }

  private static Path localPath(String location) {
    if (scheme(location).equals("file")) {
      try {
        return Path.of(URI.create(location));
      } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
        throw new IllegalArgumentException("cannot read the file URI " + location + ": " + e.getMessage());
      }
    }
    return Path.of(location);
  }

  private static String scheme(String location) {
    Matcher m = SCHEME.matcher(location);
    return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "";
  }

  private static String trim(String s) {
    String out = s;
    while (out.endsWith("/") && !out.endsWith("://")) {
      out = out.substring(0, out.length() - 1);
    }
    return out;
  }
}
