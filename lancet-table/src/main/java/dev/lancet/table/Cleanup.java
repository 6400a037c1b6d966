package dev.lancet.table;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.StoredObject;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.StoredSequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Removes old versions and the files nothing needs any more:
 *
 * <ul>
 *   <li>a version's manifest goes when it is older than the threshold, not the latest, and not
 *       tagged;</li>
 *   <li>a data, deletion, transaction or index file goes when no kept version references it and
 *       it was last modified before the threshold;</li>
 *   <li>temporary files of writes that never finished (a killed writer's {@code .lancet-tmp-*}
 *       files, lance-core's staging files, abandoned in-flight markers) go on the same age rule;</li>
 *   <li>never a file of a write that may still be in flight: every Lancet write registers itself
 *       ({@code _lancet/in-flight/}, refreshed while it runs) and files modified after the start of
 *       the oldest live write are kept, however old the threshold makes them look.</li>
 * </ul>
 *
 * Run {@link #dryRun()} first: it reports exactly what {@link #commit()} would remove. Versions
 * committed while cleanup runs (a concurrent restore included) keep every file they reference.
 */
public final class Cleanup {
  private final ObjectStore store;
  private final String uri;
  private Duration olderThan = Duration.ofDays(14);

  Cleanup(ObjectStore store, String uri) {
    this.store = store;
    this.uri = uri;
  }

  /** The age threshold (default 14 days, lance-core's default). */
  public Cleanup olderThan(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.isNegative()) {
      throw new InvalidInputException("a cleanup threshold must not be negative, not " + age);
    }
    this.olderThan = age;
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
      // Versions committed since the plan (a restore may re-reference old files) keep theirs.
      Set<String> referencedNow = new HashSet<>();
      for (VersionEntry e : Versions.list(store)) {
        if (e.version() > plan.latest) {
          references(Snapshot.load(store, e), referencedNow);
        }
      }
      plan.files.removeIf(f -> referencedNow.contains(f.path())
          || referencedNow.stream().anyMatch(r -> r.endsWith("/") && f.path().startsWith(r)));
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
      throw new UncheckedIOException("cleaning up " + uri, e);
    }
    return plan.report(false);
  }

  private static final class Plan {
    long latest;
    final List<Long> versions = new ArrayList<>();
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
      return new CleanupReport(dryRun, versions, paths, bytes, kept);
    }
  }

  private Plan plan(Instant now) {
    Instant cutoff = now.minus(olderThan);
    Plan plan = new Plan();
    try {
      List<VersionEntry> versions = Versions.list(store);
      if (versions.isEmpty()) {
        throw new NotFoundException("no Lance table at " + uri);
      }
      plan.latest = versions.get(versions.size() - 1).version();
      Map<Long, List<String>> tagged = new HashMap<>();
      for (dev.lancet.core.version.Tag t : dev.lancet.core.version.Tags.list(store)) {
        tagged.computeIfAbsent(t.version(), k -> new ArrayList<>()).add(t.name());
      }
      Set<String> referenced = new HashSet<>();
      Set<String> removedManifests = new HashSet<>();
      for (VersionEntry e : versions) {
        Snapshot snap = Snapshot.load(store, e);
        Manifest m = snap.manifest();
        boolean old = m.timestamp().map(ts -> ts.isBefore(cutoff)).orElse(true);
        if (e.version() == plan.latest) {
          references(snap, referenced);
        } else if (tagged.containsKey(e.version())) {
          if (old) {
            plan.kept.add("version " + e.version() + " (tag " + String.join(", ", tagged.get(e.version())) + ")");
          }
          references(snap, referenced);
        } else if (old) {
          plan.versions.add(e.version());
          removedManifests.add(e.path());
        } else {
          references(snap, referenced);
        }
      }
      List<StoredObject> all = store.walk("");
      Optional<Instant> inFlight = InFlightWrites.oldestLiveStart(store, all, now);
      Set<String> indexDirs = new TreeSet<>();
      for (String r : referenced) {
        if (r.endsWith("/")) {
          indexDirs.add(r);
        }
      }
      for (StoredObject f : all) {
        if (removedManifests.contains(f.path())) {
          plan.manifests.add(f);
          continue;
        }
        boolean aged = f.lastModified().isBefore(cutoff)
            && inFlight.map(start -> f.lastModified().isBefore(start)).orElse(true);
        if (!aged || !removable(f, referenced, indexDirs, now)) {
          continue;
        }
        plan.files.add(f);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("planning the cleanup of " + uri, e);
    } catch (UnsupportedOperationException e) {
      throw new InvalidInputException("cleanup of " + uri + " is not possible: " + e.getMessage(), e);
    }
    return plan;
  }

  private static boolean removable(StoredObject f, Set<String> referenced, Set<String> indexDirs,
      Instant now) {
    String p = f.path();
    if (f.temporary()) {
      return true;
    }
    if (p.startsWith(InFlightWrites.DIRECTORY)) {
      // Only an abandoned marker (its writer stopped refreshing it) can go.
      return f.lastModified().isBefore(now.minus(InFlightWrites.LEASE));
    }
    if (p.startsWith("_indices/")) {
      return indexDirs.stream().noneMatch(p::startsWith);
    }
    if (p.startsWith("data/") || p.startsWith(DeletionFileNames.DIRECTORY + "/")
        || p.startsWith("_transactions/")) {
      return !referenced.contains(p);
    }
    return false;
  }

  /** Every file a version needs, relative to the table root; index directories end in '/'. */
  static void references(Snapshot snap, Set<String> out) {
    Manifest m = snap.manifest();
    for (IndexSegment s : snap.indices()) {
      out.add("_indices/" + s.uuid() + "/");
    }
    for (Fragment f : m.fragments()) {
      for (DataFile df : f.files()) {
        if (df.baseId().isEmpty()) {
          out.add("data/" + df.path());
        }
      }
      for (DataOverlayFile o : f.overlays()) {
        if (o.dataFile().baseId().isEmpty()) {
          out.add("data/" + o.dataFile().path());
        }
      }
      f.deletionFile().ifPresent(d -> {
        if (d.baseId().isEmpty()) {
          out.add(DeletionFileNames.DIRECTORY + "/" + d.fileName(f.id()));
        }
      });
      for (Optional<StoredSequence> s : List.of(f.rowIds(), f.lastUpdatedAtVersions(),
          f.createdAtVersions())) {
        if (s.isPresent() && s.get() instanceof StoredSequence.External ext) {
          out.add(ext.file().path());
        }
      }
    }
    if (!m.transactionFile().isEmpty()) {
      out.add(TransactionFile.path(m.transactionFile()));
    }
  }
}
