package dev.lancet.format.layout;

import dev.lancet.format.FormatException;
import dev.lancet.format.Texts;
import dev.lancet.format.layout.InvalidManifestException.Subject;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The rules a manifest must keep, for the reader and the writer alike.
 *
 * <p>{@link #validate} (every open) checks that a manifest names nothing outside its table:
 * every data, overlay, deletion, external and index file is a relative path that stays inside
 * it ({@link RelativePath}, and no URI), every base id resolves, no id appears twice. The
 * index section is decoded lazily and checked by {@link #validateIndices} when it is.
 *
 * <p>{@link #validateNext} (every commit, before anything is written) runs the same read rules
 * on the manifest about to be published and adds the rules whose violation makes lance-core
 * 7.0.0 fail to open or scan the table ({@link PublishRules}), so Lancet never publishes a
 * version that it or lance-core cannot read. See docs/decisions/0015-validate-before-publishing.md.
 *
 * <p>Reading runs on every open, so the read rules allocate nothing on the happy path: error
 * texts are built only when a check fails, and fragment ids (normally sorted) are checked for
 * uniqueness without boxing unless they are out of order.
 */
public final class ManifestValidator {
  private ManifestValidator() {}

  /** How a broken rule is reported: as a corrupt file (reading) or as invalid input (writing). */
  @FunctionalInterface
  interface Failure {
    RuntimeException of(Subject subject, String problem);
  }

  /** The read rules; a violation is a {@link FormatException} naming {@code fileName}. */
  public static void validate(Manifest m, String fileName) {
    readRules(m, (subject, problem) -> new FormatException(fileName, problem));
  }

  /** The read rules of an index section (decoded lazily, after {@link #validate}). */
  public static void validateIndices(List<IndexSegment> indices, Manifest m, String fileName) {
    indexRules(indices, m, (subject, problem) -> new FormatException(fileName, problem));
  }

  /**
   * Checks the manifest (and index list) a commit is about to publish on top of
   * {@code previous}: the read rules, then the publishing rules of {@link PublishRules}. A
   * violation is an {@link InvalidManifestException} naming the fragment, field, file, base or
   * index at fault. {@code previous} is the version the commit applies to (an empty manifest
   * when the commit creates the table); rules about content are checked on what changed.
   */
  public static void validateNext(Manifest previous, List<IndexSegment> previousIndices,
      Manifest next, List<IndexSegment> nextIndices, BasePathPolicy bases) {
    Failure invalid = InvalidManifestException::new;
    // The previous version passed the read rules when it was loaded, and bases are never
    // removed: fragments the commit left alone need no second look (PublishRules checks the
    // changed ones with fragmentRules), so a commit costs what it changes.
    Set<Integer> baseIds = tableRules(next, invalid);
    indexRules(nextIndices, next, invalid);
    new PublishRules(previous, previousIndices, next, nextIndices, bases,
        f -> fragmentRules(next, f, baseIds, invalid)).check();
  }

  // ---- read rules ---------------------------------------------------------------------------

  private static void readRules(Manifest m, Failure fail) {
    Set<Integer> baseIds = tableRules(m, fail);
    List<Fragment> fragments = m.fragments();
    // Indexed loops: no iterator per fragment on a path every open takes.
    for (int i = 0; i < fragments.size(); i++) {
      fragmentRules(m, fragments.get(i), baseIds, fail);
    }
  }

  /** The rules about the manifest as a whole; returns its base ids. */
  private static Set<Integer> tableRules(Manifest m, Failure fail) {
    Set<Integer> baseIds = new HashSet<>();
    for (BasePath b : m.basePaths()) {
      if (!baseIds.add(b.id())) {
        throw fail.of(Subject.base(b.id()), "base path id " + b.id() + " appears twice");
      }
    }
    if (!m.transactionFile().isEmpty()) {
      checkPlainName(m.transactionFile(), fail);
    }
    checkUniqueFragmentIds(m, fail);
    return baseIds;
  }

  /** The read rules of one fragment: every path it names stays in the table, every base resolves. */
  private static void fragmentRules(Manifest m, Fragment f, Set<Integer> baseIds, Failure fail) {
    List<DataFile> files = f.files();
    for (int i = 0; i < files.size(); i++) {
      checkDataFile(f.id(), "", files.get(i), baseIds, fail);
    }
    List<DataOverlayFile> overlays = f.overlays();
    for (int i = 0; i < overlays.size(); i++) {
      checkDataFile(f.id(), " overlay", overlays.get(i).dataFile(), baseIds, fail);
    }
    if (f.deletionFile().isPresent() && f.deletionFile().get().baseId().isPresent()) {
      checkDeletionBase(m, f, f.deletionFile().get(), fail);
    }
    checkSequence(f.id(), "row ids", f.rowIds(), fail);
    checkSequence(f.id(), "last-updated versions", f.lastUpdatedAtVersions(), fail);
    checkSequence(f.id(), "created-at versions", f.createdAtVersions(), fail);
  }

  private static void indexRules(List<IndexSegment> indices, Manifest m, Failure fail) {
    if (indices.isEmpty()) {
      return;
    }
    Set<UUID> uuids = new HashSet<>();
    for (IndexSegment s : indices) {
      Subject subject = Subject.index(s.uuid().toString());
      String name = "index " + Texts.quote(s.name()) + " segment " + s.uuid();
      if (!uuids.add(s.uuid())) {
        throw fail.of(subject, name + " appears twice in the index list");
      }
      for (IndexSegment.IndexFile file : s.files()) {
        String problem = manifestPathProblem(file.path());
        if (problem != null) {
          throw fail.of(subject, name + " file " + Texts.quote(file.path()) + ": " + problem);
        }
      }
      if (s.baseId().isPresent() && !hasBase(m, s.baseId().getAsInt())) {
        throw fail.of(subject, unknownBase(name, s.baseId().getAsInt()));
      }
    }
  }

  private static void checkUniqueFragmentIds(Manifest m, Failure fail) {
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
        throw fail.of(Subject.fragment(f.id()), "fragment id " + Long.toUnsignedString(f.id())
            + " appears twice");
      }
    }
  }

  private static void checkDataFile(long fragmentId, String kind, DataFile file,
      Set<Integer> baseIds, Failure fail) {
    String problem = manifestPathProblem(file.path());
    if (problem != null) {
      throw fail.of(Subject.file(fragmentId, file.path()), "fragment " + Long.toUnsignedString(fragmentId)
          + kind + " data file " + Texts.quote(file.path()) + ": " + problem);
    }
    if (file.baseId().isPresent() && !baseIds.contains(file.baseId().getAsInt())) {
      throw fail.of(Subject.file(fragmentId, file.path()), unknownBase("fragment "
          + Long.toUnsignedString(fragmentId) + kind + " data file " + Texts.quote(file.path()),
          file.baseId().getAsInt()));
    }
    List<Integer> fields = file.fields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i) == DataFile.UNASSIGNED) {
        throw fail.of(Subject.file(fragmentId, file.path()), "fragment "
            + Long.toUnsignedString(fragmentId) + kind + " data file " + Texts.quote(file.path())
            + " has an unassigned (-1) field slot, which must never be persisted");
      }
    }
  }

  /** A deletion file in another base: the base must exist and be a dataset root (as in Lance). */
  private static void checkDeletionBase(Manifest m, Fragment f, DeletionFile d, Failure fail) {
    int base = d.baseId().getAsInt();
    String where = "fragment " + Long.toUnsignedString(f.id()) + " deletion file";
    for (BasePath b : m.basePaths()) {
      if (b.id() == base) {
        if (!b.isDatasetRoot()) {
          throw fail.of(Subject.fragment(f.id()), where + " names base path " + base + " ("
              + Texts.quote(b.path()) + "), which is not a dataset root; Lance resolves deletion "
              + "files only under a dataset root's _deletions/");
        }
        return;
      }
    }
    throw fail.of(Subject.fragment(f.id()), unknownBase(where, base));
  }

  private static void checkSequence(long fragmentId, String what, Optional<StoredSequence> s,
      Failure fail) {
    if (s.isPresent() && s.get() instanceof StoredSequence.External ex) {
      String problem = manifestPathProblem(ex.file().path());
      if (problem != null) {
        throw fail.of(Subject.fragment(fragmentId), "fragment " + Long.toUnsignedString(fragmentId)
            + " " + what + " external file " + Texts.quote(ex.file().path()) + ": " + problem);
      }
    }
  }

  private static boolean hasBase(Manifest m, int id) {
    for (BasePath b : m.basePaths()) {
      if (b.id() == id) {
        return true;
      }
    }
    return false;
  }

  static String unknownBase(String where, int baseId) {
    return where + " names base id " + Integer.toUnsignedString(baseId)
        + ", which the manifest's base_paths do not define";
  }

  /** A name inside a directory: one segment, no separators. */
  private static void checkPlainName(String name, Failure fail) {
    String problem = RelativePath.problem(name);
    if (problem == null && name.indexOf('/') >= 0) {
      problem = "it has a '/'";
    }
    if (problem != null) {
      throw fail.of(Subject.table(), "transaction_file " + Texts.quote(name)
          + " must be a plain file name: " + problem);
    }
  }

  /** A relative path that stays inside its directory; the message says why not. */
  public static void checkRelative(String fileName, String what, String path) {
    String problem = manifestPathProblem(path);
    if (problem != null) {
      throw new FormatException(fileName, what + " " + Texts.quote(path) + ": " + problem);
    }
  }

  /**
   * Why a path a manifest names would leave its directory, or null: the store's rule
   * ({@link RelativePath}) plus no URI scheme ({@code file:}, {@code s3:}), which would make
   * Lance resolve it outside the table.
   */
  static String manifestPathProblem(String path) {
    if (hasScheme(path)) {
      return "a URI (" + Texts.quote(path.substring(0, path.indexOf(':') + 1))
          + "); the manifest names files relative to the table";
    }
    return RelativePath.problem(path);
  }

  /**
   * "scheme:" at the start: a letter, then [A-Za-z0-9+.-]+, then ':' (two characters at least,
   * so that a drive letter "C:" is reported as one).
   */
  private static boolean hasScheme(String path) {
    if (path.length() < 3 || !RelativePath.isAsciiLetter(path.charAt(0)) || path.charAt(1) == ':') {
      return false;
    }
    for (int i = 1; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == ':') {
        return true;
      }
      boolean schemeChar = RelativePath.isAsciiLetter(c) || (c >= '0' && c <= '9')
          || c == '+' || c == '.' || c == '-';
      if (!schemeChar) {
        return false;
      }
    }
    return false;
  }
}
