package dev.lancet.datafile.lance;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where lance-core finds a file of a table: a local path, or the table URI plus the path. */
final class FileUris {
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  private FileUris() {}

  /** The location of {@code relative} (a '/'-separated path under the table root). */
  static String resolve(String tableUri, String relative) {
    Optional<Path> local = localPath(tableUri, relative);
    if (local.isPresent()) {
      return local.get().toString();
    }
    Matcher m = SCHEME.matcher(tableUri);
    if (m.find() && m.group(1).toLowerCase(Locale.ROOT).equals("memory")) {
      throw new IllegalArgumentException("lance-core cannot read or write data files of the "
          + "in-memory table " + tableUri + "; use a filesystem path or an object-store URI");
    }
    String base = tableUri.endsWith("/") ? tableUri.substring(0, tableUri.length() - 1) : tableUri;
    return base + "/" + relative;
  }

  /**
   * The local file {@code relative} names when the table is local (a path without a scheme, or
   * a {@code file:} URI); empty for any other scheme.
   */
  static Optional<Path> localPath(String tableUri, String relative) {
    Matcher m = SCHEME.matcher(tableUri);
    if (!m.find()) {
      return Optional.of(Path.of(tableUri).toAbsolutePath().resolve(relative));
    }
    if (m.group(1).equalsIgnoreCase("file")) {
      return Optional.of(Path.of(URI.create(tableUri)).toAbsolutePath().resolve(relative));
    }
    return Optional.empty();
  }
}
