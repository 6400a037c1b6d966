package dev.lancet.core.version;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectTooLargeException;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.pb.RefProtos;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finding versions in {@code _versions/}: listing them, finding the latest, and resolving a
 * version number to its manifest file under either naming scheme.
 */
public final class Versions {
  public static final String HINT_PATH = ManifestNaming.VERSIONS_DIR + "latest_version_hint.json";
  private static final Logger LOG = LoggerFactory.getLogger(Versions.class);

  private Versions() {}

  /** Every linear version, ascending. Detached versions and non-manifest files are skipped. */
  public static List<VersionEntry> list(ObjectStore store) throws IOException {
    List<VersionEntry> out = new ArrayList<>();
    Set<ManifestNaming> schemes = EnumSet.noneOf(ManifestNaming.class);
    for (ObjectInfo info : store.list(ManifestNaming.VERSIONS_DIR)) {
      String name = info.path().substring(info.path().lastIndexOf('/') + 1);
      Optional<ManifestNaming.Parsed> parsed = ManifestNaming.parse(name);
      if (parsed.isEmpty() || parsed.get().detached()) {
        continue;
      }
      schemes.add(parsed.get().naming());
      out.add(new VersionEntry(parsed.get().version(), info.path(), parsed.get().naming(), info.size()));
    }
    if (schemes.size() > 1) {
      throw new IllegalStateException("_versions/ mixes V1 ({v}.manifest) and V2 (inverted, "
          + "zero-padded) manifest names; Lance refuses such a table too. Migrate it to one scheme.");
    }
    out.sort(Comparator.comparingLong(VersionEntry::version));
    return out;
  }

  /**
   * The latest version. Lance 7.0.0 keeps {@code latest_version_hint.json} on local stores;
   * it is only a hint: we start from it, probe upward while the next version exists, and fall
   * back to a full listing when the hint is missing, unreadable or names no manifest.
   */
  public static Optional<VersionEntry> latest(ObjectStore store) throws IOException {
    if (store.listsInPages()) {
      return latestByListing(store);
    }
    OptionalLong hint = readHint(store);
    if (hint.isPresent()) {
      Optional<VersionEntry> start = find(store, hint.getAsLong());
      if (start.isPresent()) {
        VersionEntry cur = start.get();
        while (true) {
          String next = cur.naming().path(cur.version() + 1);
          if (!store.exists(next)) {
            return Optional.of(cur);
          }
          cur = new VersionEntry(cur.version() + 1, next, cur.naming(), store.size(next));
        }
      }
      LOG.debug("version hint {} names no manifest; listing _versions/", hint.getAsLong());
    }
    List<VersionEntry> all = list(store);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  /**
   * On an object store: V2 manifest names sort newest first, so the first entry of a listing of
   * {@code _versions/} is the latest version (one request; S3 and Azure listings are strongly
   * consistent). A table named V1, or one whose first entry is anything else, is listed whole.
   * This is what lance-core does on object stores (it keeps no version hint there).
   */
  private static Optional<VersionEntry> latestByListing(ObjectStore store) throws IOException {
    List<ObjectInfo> first = store.listFirst(ManifestNaming.VERSIONS_DIR, 1);
    if (first.isEmpty()) {
      // Only an empty table pays this second listing. s3proxy's in-memory backend was seen
      // answering an empty first page while a manifest was being written; a whole listing
      // tells that apart from a table with no versions.
      List<VersionEntry> all = list(store);
      return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }
    ObjectInfo info = first.get(0);
    Optional<ManifestNaming.Parsed> parsed = ManifestNaming.parse(info.name());
    if (parsed.isPresent() && parsed.get().naming() == ManifestNaming.V2 && !parsed.get().detached()) {
      return Optional.of(new VersionEntry(parsed.get().version(), info.path(), ManifestNaming.V2, info.size()));
    }
    List<VersionEntry> all = list(store);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  /** The manifest of {@code version} under whichever scheme the table uses, if it exists. */
  public static Optional<VersionEntry> find(ObjectStore store, long version) throws IOException {
    for (ManifestNaming naming : new ManifestNaming[] {ManifestNaming.V2, ManifestNaming.V1}) {
      String path = naming.path(version);
      try {
        return Optional.of(new VersionEntry(version, path, naming, store.size(path)));
      } catch (NotFoundException e) {
        // try the other scheme
      }
    }
    return Optional.empty();
  }

  /** Like {@link #find} but a missing version is an error that says what exists. */
  public static VersionEntry resolve(ObjectStore store, long version) throws IOException {
    Optional<VersionEntry> found = find(store, version);
    if (found.isPresent()) {
      return found.get();
    }
    List<VersionEntry> all = list(store);
    if (all.isEmpty()) {
      throw new VersionNotFoundException("the table has no versions (no manifests in _versions/)");
    }
    throw new VersionNotFoundException("version " + version + " does not exist; the table has "
        + all.size() + " version(s) from " + all.get(0).version() + " to "
        + all.get(all.size() - 1).version());
  }

  /** The hinted latest version, or empty when there is no usable hint. */
  public static OptionalLong readHint(ObjectStore store) throws IOException {
    byte[] bytes;
    try {
      bytes = store.get(HINT_PATH, ReadLimits.HINT_BYTES);
    } catch (NotFoundException e) {
      return OptionalLong.empty();
    } catch (ObjectTooLargeException e) {
      LOG.debug("ignoring a version hint of {} bytes (a hint is at most {}); listing _versions/",
          e.size(), ReadLimits.HINT_BYTES);
      return OptionalLong.empty();
    }
    try {
      RefProtos.VersionHint.Builder b = RefProtos.VersionHint.newBuilder();
      JsonFormat.parser().ignoringUnknownFields().merge(new String(bytes, StandardCharsets.UTF_8), b);
      return b.getVersion() > 0 ? OptionalLong.of(b.getVersion()) : OptionalLong.empty();
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      LOG.debug("ignoring unreadable version hint: {}", e.getMessage());
      return OptionalLong.empty();
    }
  }

  /**
   * Writes the hint file the way Lance does (best effort; a stale hint is harmless). Not on
   * object stores ({@link ObjectStore#listsInPages()}): readers find the latest version there
   * by listing, as lance-core does, so a hint would only cost a request per commit.
   */
  public static void writeHint(ObjectStore store, long version) {
    if (store.listsInPages()) {
      return;
    }
    try {
      store.putAdvisory(HINT_PATH, ("{\"version\":" + Long.toUnsignedString(version) + "}")
          .getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      LOG.debug("could not write the version hint: {}", e.getMessage());
    }
  }
}
