package dev.lancet.format.layout;

import dev.lancet.format.FormatException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import java.util.HashSet;
import java.util.Set;

/**
 * Checks that a manifest names nothing outside its table: every data, deletion and external
 * file is a relative path without {@code ..}, and every base id resolves. Run on every
 * manifest read, so that a crafted manifest cannot make Lancet read or write elsewhere.
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
    Set<Long> fragmentIds = new HashSet<>();
    for (Fragment f : m.fragments()) {
      if (!fragmentIds.add(f.id())) {
        throw new FormatException(fileName, "fragment id " + f.id() + " appears twice");
      }
      String where = "fragment " + f.id();
      for (DataFile file : f.files()) {
        checkDataFile(fileName, where, file, baseIds);
      }
      for (DataOverlayFile o : f.overlays()) {
        checkDataFile(fileName, where + " overlay", o.dataFile(), baseIds);
      }
      if (f.deletionFile().isPresent() && f.deletionFile().get().baseId().isPresent()) {
        checkBase(fileName, where + " deletion file", f.deletionFile().get().baseId().getAsInt(), baseIds);
      }
      checkSequence(fileName, where + " row ids", f.rowIds().orElse(null));
      checkSequence(fileName, where + " last-updated versions", f.lastUpdatedAtVersions().orElse(null));
      checkSequence(fileName, where + " created-at versions", f.createdAtVersions().orElse(null));
    }
  }

  private static void checkDataFile(String fileName, String where, DataFile file, Set<Integer> baseIds) {
    checkRelative(fileName, where + " data file", file.path());
    if (file.baseId().isPresent()) {
      checkBase(fileName, where + " data file " + file.path(), file.baseId().getAsInt(), baseIds);
    }
    for (int field : file.fields()) {
      if (field == DataFile.UNASSIGNED) {
        throw new FormatException(fileName, where + " data file " + file.path()
            + " has an unassigned (-1) field slot, which must never be persisted");
      }
    }
  }

  private static void checkSequence(String fileName, String where, StoredSequence s) {
    if (s instanceof StoredSequence.External ex) {
      checkRelative(fileName, where + " external file", ex.file().path());
    }
  }

  private static void checkBase(String fileName, String where, int baseId, Set<Integer> baseIds) {
    if (!baseIds.contains(baseId)) {
      throw new FormatException(fileName, where + " names base id " + baseId
          + ", which the manifest's base_paths do not define");
    }
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
    if (path.isEmpty()) {
      throw new FormatException(fileName, what + " has an empty path");
    }
    if (path.startsWith("/") || path.contains("\\") || path.indexOf('\0') >= 0
        || path.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*")) {
      throw new FormatException(fileName, what + " '" + path
          + "' is not a relative path; it would name a file outside the table");
    }
    for (String segment : path.split("/", -1)) {
      if (segment.equals("..") || segment.equals(".") || segment.isEmpty()) {
        throw new FormatException(fileName, what + " '" + path
            + "' has a '" + segment + "' segment; it would name a file outside the table");
      }
    }
  }
}
