package dev.lancet.table;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.StoredObject;
import dev.lancet.core.store.SubtreeStore;
import dev.lancet.core.version.Branch;
import dev.lancet.core.version.Branches;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.Tag;
import dev.lancet.core.version.Tags;
import dev.lancet.core.version.UnsupportedFeatureException;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.FormatException;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Removes old versions of one branch (main unless the table was opened at a branch) and the files
 * nothing needs any more (docs/decisions/0012, 0027):
 *
 * <ul>
 *   <li>a version's manifest goes when it meets every criterion set — older than
 *       {@link #olderThan}, not among the {@link #retainLast} newest, before
 *       {@link #beforeVersion} (with none set: older than 14 days) — and is not the latest, not
 *       tagged on this branch, and not the version another branch was created from;</li>
 *   <li>a data, deletion, transaction or index file of this branch goes when no kept version of
 *       this branch and no version of any other branch references it (a branch shares its
 *       parent's files through base paths), and either a removed version referenced it or it is
 *       older than the age threshold ({@link #olderThan}, 14 days when not set);</li>
 *   <li>temporary files of writes that never finished go on the same age rule;</li>
 *   <li>never a file of a write that may still be in flight: every Lancet write registers itself
 *       ({@code _lancet/in-flight/}, refreshed while it runs) and files modified after the start of
 *       the oldest live write are kept, however old the threshold makes them look;</li>
 *   <li>never a file of another branch: cleaning main leaves {@code tree/} alone, cleaning a
 *       branch leaves its parent's files and its child branches' directories alone.</li>
 * </ul>
 *
 * Cleanup fails closed: when the table holds references it does not understand (an entry of
 * {@code _refs/} other than tag and branch files, a branch or tag file it cannot read, a base path
 * it cannot place relative to the table, a manifest of another branch it cannot read), it removes
 * nothing and says why. Run {@link #dryRun()} first: it reports exactly what {@link #commit()}
 * would remove. Versions and branches created while cleanup runs keep every file they reference.
 */
public final class Cleanup {
  /** The age threshold when no criterion is set, lance-core's default. */
  public static final Duration DEFAULT_AGE = Duration.ofDays(14);
  private static final Pattern REF_FILE = Pattern.compile("_refs/(tags|branches)/[^/]+\\.json");

  private final ObjectStore store;
  private final String uri;
  private final Optional<String> branch;
  private Optional<Duration> olderThan = Optional.empty();
  private OptionalInt retainLast = OptionalInt.empty();
  private OptionalLong beforeVersion = OptionalLong.empty();

  Cleanup(ObjectStore store, String uri, Optional<String> branch) {
    this.store = store;
    this.uri = uri;
    this.branch = branch;
  }

  /**
   * Versions older than {@code age} may go, and files no version references once they are that
   * old. {@code Duration.ZERO} removes every version but the latest (and the protected ones)
   * and every unreferenced file not in use by a write in flight.
   */
  public Cleanup olderThan(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.isNegative()) {
      throw new InvalidInputException("a cleanup threshold must not be negative, not " + age);
    }
    this.olderThan = Optional.of(age);
    return this;
  }

  /** Keeps the {@code n} newest versions of the branch ({@code n >= 1}; the latest always stays). */
  public Cleanup retainLast(int n) {
    if (n < 1) {
      throw new InvalidInputException("retainLast needs at least 1 version (the latest always "
          + "stays), not " + n);
    }
    this.retainLast = OptionalInt.of(n);
    return this;
  }

  /** Only versions numbered below {@code version} may go. */
  public Cleanup beforeVersion(long version) {
    if (version < 1) {
      throw new InvalidInputException("beforeVersion needs a version number of at least 1, not "
          + version);
    }
    this.beforeVersion = OptionalLong.of(version);
    return this;
  }

  /** What {@link #commit()} would remove, removing nothing. */
  public CleanupReport dryRun() {
    return plan(Instant.now()).report(true);
  }

  /** Removes the old versions and files; returns what it removed. */
  public CleanupReport commit() {
    Plan plan = plan(Instant.now());
    try {
      // What changed since the plan keeps its files: versions committed on this branch (a
      // restore may re-reference old files), branches created, tags set.
      List<StoredObject> all = store.walk("");
      Protections now = protections(all);
      Set<String> keep = new HashSet<>(now.files);
      for (VersionEntry e : Versions.list(ownStore())) {
        if (e.version() > plan.latest) {
          FileReferences.collect(Snapshot.load(ownStore(), e), root(), uri, keep);
        }
      }
      for (Map.Entry<Long, VersionEntry> e : Map.copyOf(plan.removed).entrySet()) {
        if (now.versions.containsKey(e.getKey())) {
          plan.removed.remove(e.getKey());
          plan.manifests.removeIf(m -> m.path().equals(root() + e.getValue().path()));
          FileReferences.collect(Snapshot.load(ownStore(), e.getValue()), root(), uri, keep);
        }
      }
      plan.files.removeIf(f -> References.covers(keep, f.path()));
      for (StoredObject manifest : plan.manifests) {
        store.delete(manifest.path());
      }
      for (StoredObject f : plan.files) {
        if (f.temporary()) {
          store.deleteTemporary(f.path());
        } else {
          store.delete(f.path());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cleaning up " + where(), e);
    } catch (FileReferences.UnplaceableBase | FormatException | UnsupportedFeatureException e) {
      throw refused(e.getMessage(), e);
    }
    return plan.report(false);
  }

  private static final class Plan {
    long latest;
    final Map<Long, VersionEntry> removed = new TreeMap<>();
    final List<StoredObject> manifests = new ArrayList<>();
    final List<StoredObject> files = new ArrayList<>();
    final List<String> kept = new ArrayList<>();

    CleanupReport report(boolean dryRun) {
      List<String> paths = new ArrayList<>();
      long bytes = 0;
      for (StoredObject o : manifests) {
        paths.add(o.path());
        bytes += o.size();
      }
      for (StoredObject o : files) {
        paths.add(o.path());
        bytes += o.size();
      }
      return new CleanupReport(dryRun, List.copyOf(removed.keySet()), paths, bytes, kept);
    }
  }

  /** Paths (from the table root) some reference holds; entries ending in '/' hold a directory. */
  private static final class References {
    static boolean covers(Set<String> refs, String path) {
      if (refs.contains(path)) {
        return true;
      }
      for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
        if (refs.contains(path.substring(0, slash + 1))) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * What the rest of the table needs from this branch: versions to keep (tagged on this branch,
   * or where another branch starts) with why, and the files every other branch's versions
   * reference; and where the other branches live.
   */
  private record Protections(Map<Long, List<String>> versions, Set<String> files,
      Set<String> otherBranchDirs) {}

  private Protections protections(List<StoredObject> all) throws IOException {
    for (StoredObject f : all) {
      if (f.path().startsWith("_refs/") && !f.temporary() && !REF_FILE.matcher(f.path()).matches()) {
        throw refused("it does not know the reference file " + f.path() + " (Lancet understands "
            + "_refs/tags/*.json and _refs/branches/*.json)", null);
      }
    }
    Map<Long, List<String>> versions = new TreeMap<>();
    for (Tag t : Tags.list(store)) {
      if (t.branch().equals(branch)) {
        versions.computeIfAbsent(t.version(), k -> new ArrayList<>()).add("tag " + t.name());
      }
    }
    Set<String> otherDirs = new HashSet<>();
    for (Branch b : Branches.list(store)) {
      if (b.parentBranch().equals(branch)) {
        versions.computeIfAbsent(b.parentVersion(), k -> new ArrayList<>())
            .add("branch " + b.name() + " starts here");
      }
      if (!b.directory().equals(root())) {
        otherDirs.add(b.directory());
      }
    }
    Set<String> files = new HashSet<>();
    for (StoredObject f : all) {
      int at = f.path().lastIndexOf(ManifestNaming.VERSIONS_DIR);
      if (at < 0 || f.temporary() || (at > 0 && f.path().charAt(at - 1) != '/')) {
        continue;
      }
      String dir = f.path().substring(0, at);
      String name = f.path().substring(at + ManifestNaming.VERSIONS_DIR.length());
      Optional<ManifestNaming.Parsed> parsed = ManifestNaming.parse(name);
      if (name.contains("/") || parsed.isEmpty() || dir.equals(root())
          || !(dir.isEmpty() || dir.startsWith(Branches.TREE_DIR))) {
        continue;
      }
      if (!dir.isEmpty()) {
        otherDirs.add(dir);
      }
      VersionEntry e = new VersionEntry(parsed.get().version(), f.path(), parsed.get().naming(), f.size());
      FileReferences.collect(Snapshot.load(store, e), dir, uri, files);
    }
    return new Protections(versions, files, otherDirs);
  }

  private Plan plan(Instant now) {
    boolean noCriterion = olderThan.isEmpty() && retainLast.isEmpty() && beforeVersion.isEmpty();
    Optional<Instant> cutoff = (noCriterion ? Optional.of(DEFAULT_AGE) : olderThan).map(now::minus);
    Instant fileCutoff = now.minus(olderThan.orElse(DEFAULT_AGE));
    Plan plan = new Plan();
    try {
      List<VersionEntry> versions = Versions.list(ownStore());
      if (versions.isEmpty()) {
        throw new NotFoundException(branch.isEmpty() ? "no Lance table at " + uri
            : "branch '" + branch.get() + "' of " + uri + " has no versions");
      }
      plan.latest = versions.get(versions.size() - 1).version();
      List<StoredObject> all = store.walk("");
      Protections protections = protections(all);
      Set<String> referenced = new HashSet<>(protections.files);
      Set<String> referencedByRemoved = new HashSet<>();
      Set<String> removedManifests = new HashSet<>();
      for (int i = 0; i < versions.size(); i++) {
        VersionEntry e = versions.get(i);
        Snapshot snap = Snapshot.load(ownStore(), e);
        Manifest m = snap.manifest();
        boolean candidate = e.version() != plan.latest
            && cutoff.map(c -> m.timestamp().map(ts -> ts.isBefore(c)).orElse(true)).orElse(true)
            && (retainLast.isEmpty() || i < versions.size() - retainLast.getAsInt())
            && (beforeVersion.isEmpty() || e.version() < beforeVersion.getAsLong());
        List<String> why = protections.versions.get(e.version());
        if (candidate && why == null) {
          plan.removed.put(e.version(), e);
          removedManifests.add(root() + e.path());
          FileReferences.collect(snap, root(), uri, referencedByRemoved);
        } else {
          if (candidate) {
            plan.kept.add("version " + e.version() + " (" + String.join(", ", why) + ")");
          }
          FileReferences.collect(snap, root(), uri, referenced);
        }
      }
      Optional<Instant> inFlight = InFlightWrites.oldestLiveStart(store, all, root(), now);
      for (StoredObject f : all) {
        if (removedManifests.contains(f.path())) {
          plan.manifests.add(f);
          continue;
        }
        if (!owned(f.path(), protections.otherBranchDirs)) {
          continue;
        }
        boolean aged = (References.covers(referencedByRemoved, f.path())
                || f.lastModified().isBefore(fileCutoff))
            && inFlight.map(start -> f.lastModified().isBefore(start)).orElse(true);
        if (aged && removable(f, referenced, now)) {
          plan.files.add(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("planning the cleanup of " + where(), e);
    } catch (UnsupportedOperationException e) {
      throw new InvalidInputException("cleanup of " + where() + " is not possible: " + e.getMessage(), e);
    } catch (FileReferences.UnplaceableBase | FormatException | UnsupportedFeatureException e) {
      throw refused(e.getMessage(), e);
    }
    return plan;
  }

  /** Whether {@code path} is this branch's to remove: under its root, not another branch's. */
  private boolean owned(String path, Set<String> otherBranchDirs) {
    if (branch.isEmpty()) {
      return !path.startsWith(Branches.TREE_DIR) && !path.startsWith("_refs/");
    }
    if (!path.startsWith(root())) {
      return false;
    }
    for (String d : otherBranchDirs) {
      if (path.startsWith(d)) {
        return false;
      }
    }
    return true;
  }

  private boolean removable(StoredObject f, Set<String> referenced, Instant now) {
    String p = f.path().substring(root().length());
    if (f.temporary()) {
      return true;
    }
    if (p.startsWith(InFlightWrites.DIRECTORY)) {
      // Only an abandoned marker (its writer stopped refreshing it) can go.
      return f.lastModified().isBefore(now.minus(InFlightWrites.LEASE));
    }
    if (p.startsWith("_indices/") || p.startsWith("data/")
        || p.startsWith(DeletionFileNames.DIRECTORY + "/") || p.startsWith("_transactions/")) {
      return !References.covers(referenced, f.path());
    }
    return false;
  }

  /** This branch's dataset root from the table root: {@code ""} for main. */
  private String root() {
    return branch.map(Branches::directory).orElse("");
  }

  private ObjectStore ownStore() {
    return branch.isEmpty() ? store : new SubtreeStore(store, root());
  }

  private String where() {
    return branch.map(b -> "branch '" + b + "' of " + uri).orElse(uri);
  }

  private LanceTableException refused(String why, Throwable cause) {
    String message = "cleanup of " + where() + " refuses to run, and removed nothing: " + why
        + ". A maintenance command must not remove what another Lance writer may still need; "
        + "clean this table with the Lance version that wrote it";
    return cause == null ? new LanceTableException(message) : new LanceTableException(message, cause);
  }
}
