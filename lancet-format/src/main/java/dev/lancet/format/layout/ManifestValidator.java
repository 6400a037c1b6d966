package dev.lancet.format.layout;

import dev.lancet.format.FormatException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that a manifest names nothing outside its table: every data, deletion and external
 * file is a relative path without {@code ..}, and every base id resolves. Run on every
 * manifest read, so that a crafted manifest cannot make Lancet read or write elsewhere.
 *
 * <p>It runs on every open, so it allocates nothing on the happy path: error texts are built
 * only when a check fails, and fragment ids (normally sorted) are checked for uniqueness
 * without boxing unless they are out of order.
 */
public final class ManifestValidator {
  private ManifestValidator() {}

  public static void validate(Manifest m, String fileName) {
    Set<Integer> baseIds = new HashSet<>();
    for (BasePath b : m.basePaths()) {
      if (!baseIds.add(b.id())) {
        throw new FormatException(fileName, "base path id " + b.id() + " appears twice");
      }
    }
    if (!m.transactionFile().isEmpty()) {
      checkPlainName(fileName, "transaction_file", m.transactionFile());
    }
    checkUniqueFragmentIds(m, fileName);
    for (Fragment f : m.fragments()) {
      for (DataFile file : f.files()) {
        checkDataFile(fileName, f.id(), "", file, baseIds);
      }
      for (DataOverlayFile o : f.overlays()) {
        checkDataFile(fileName, f.id(), " overlay", o.dataFile(), baseIds);
      }
      if (f.deletionFile().isPresent() && f.deletionFile().get().baseId().isPresent()) {
        int base = f.deletionFile().get().baseId().getAsInt();
        if (!baseIds.contains(base)) {
          throw unknownBase(fileName, "fragment " + f.id() + " deletion file", base);
        }
      }
      checkSequence(fileName, f.id(), "row ids", f.rowIds());
      checkSequence(fileName, f.id(), "last-updated versions", f.lastUpdatedAtVersions());
      checkSequence(fileName, f.id(), "created-at versions", f.createdAtVersions());
    }
  }

  private static void checkUniqueFragmentIds(Manifest m, String fileName) {
    long previous = Long.MIN_VALUE;
    boolean sorted = true;
    for (Fragment f : m.fragments()) {
      if (f.id() <= previous) {
        sorted = false;
        break;
      }
      previous = f.id();
    }
    if (sorted) {
      return;
    }
    Set<Long> seen = new HashSet<>();
    for (Fragment f : m.fragments()) {
      if (!seen.add(f.id())) {
        throw new FormatException(fileName, "fragment id " + f.id() + " appears twice");
      }
    }
  }

  private static void checkDataFile(String fileName, long fragmentId, String kind, DataFile file,
      Set<Integer> baseIds) {
    String problem = relativePathProblem(file.path());
    if (problem != null) {
      throw new FormatException(fileName, "fragment " + fragmentId + kind + " data file '"
          + file.path() + "' " + problem);
    }
    if (file.baseId().isPresent() && !baseIds.contains(file.baseId().getAsInt())) {
      throw unknownBase(fileName, "fragment " + fragmentId + kind + " data file " + file.path(),
          file.baseId().getAsInt());
    }
    for (int field : file.fields()) {
      if (field == DataFile.UNASSIGNED) {
        throw new FormatException(fileName, "fragment " + fragmentId + kind + " data file "
            + file.path() + " has an unassigned (-1) field slot, which must never be persisted");
      }
    }
  }

  private static void checkSequence(String fileName, long fragmentId, String what,
      Optional<StoredSequence> s) {
    if (s.isPresent() && s.get() instanceof StoredSequence.External ex) {
      String problem = relativePathProblem(ex.file().path());
      if (problem != null) {
        throw new FormatException(fileName, "fragment " + fragmentId + " " + what
            + " external file '" + ex.file().path() + "' " + problem);
      }
    }
  }

  private static FormatException unknownBase(String fileName, String where, int baseId) {
    return new FormatException(fileName, where + " names base id " + baseId
        + ", which the manifest's base_paths do not define");
  }

  /** A name inside a directory: no separators at all. */
  static void checkPlainName(String fileName, String what, String name) {
    if (name.contains("/") || name.contains("\\") || name.equals("..") || name.equals(".")
        || name.indexOf('\0') >= 0) {
      throw new FormatException(fileName, what + " '" + name + "' must be a plain file name");
    }
  }

  /** A relative path that stays inside its directory. */
  public static void checkRelative(String fileName, String what, String path) {
    String problem = relativePathProblem(path);
    if (problem != null) {
      throw new FormatException(fileName, what + " '" + path + "' " + problem);
    }
  }

  /** Why {@code path} would leave its directory, or null when it is a safe relative path. */
  static String relativePathProblem(String path) {
    if (path.isEmpty()) {
      return "has an empty path";
    }
    if (path.charAt(0) == '/' || path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0 || hasScheme(path)) {
      return "is not a relative path; it would name a file outside the table";
    }
    int start = 0;
    while (start <= path.length()) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = path.length();
      }
      int len = end - start;
      if (len == 0 || (len == 1 && path.charAt(start) == '.')
          || (len == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.')) {
        return "has a '" + path.substring(start, end) + "' segment; it would name a file outside the table";
      }
      start = end + 1;
    }
    return null;
  }

  /** "scheme:" at the start (a URI or a drive letter): letters, then [A-Za-z0-9+.-]*, then ':'. */
  private static boolean hasScheme(String path) {
    char first = path.charAt(0);
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))) {
      return false;
    }
    for (int i = 1; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == ':') {
        return true;
      }
      boolean schemeChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '+' || c == '.' || c == '-';
      if (!schemeChar) {
        return false;
      }
    }
    return false;
  }
}
