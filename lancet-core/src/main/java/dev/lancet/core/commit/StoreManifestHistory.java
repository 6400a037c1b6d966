package dev.lancet.core.commit;

import dev.lancet.core.operation.ManifestHistory;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Older versions of a table read from its store, each loaded once per commit. When the version
 * the transaction read is gone (cleaned up), reading it is a {@link ReadVersionUnavailableException}.
 */
public final class StoreManifestHistory implements ManifestHistory {
  private final ObjectStore store;
  private final long readVersion;
  private final Map<Long, Snapshot> loaded = new HashMap<>();

  public StoreManifestHistory(ObjectStore store) {
    this(store, -1);
  }

  /** A history for a transaction that read {@code readVersion}. */
  public StoreManifestHistory(ObjectStore store, long readVersion) {
    this.store = store;
    this.readVersion = readVersion;
  }

  @Override
  public Manifest manifestAt(long version) {
    return snapshot(version).manifest();
  }

  @Override
  public List<IndexSegment> indicesAt(long version) {
    return snapshot(version).indices();
  }

  /**
   * Keeps {@code version}, loaded elsewhere, so that it is not read again, and lets go of every
   * version strictly between {@code keep} and the one before {@code version} (a commit far
   * behind does not hold every winner's manifest at once).
   */
  public synchronized void remember(Snapshot version, long keep) {
    loaded.keySet().removeIf(v -> Long.compareUnsigned(v, keep) > 0
        && Long.compareUnsigned(v, version.version() - 1) < 0);
    loaded.putIfAbsent(version.version(), version);
  }

  /** Version {@code version} if it is loaded already; never a request. */
  public synchronized Optional<Snapshot> peek(long version) {
    return Optional.ofNullable(loaded.get(version));
  }

  /** Version {@code version}, or empty when the table no longer has it (cleaned up). */
  public synchronized Optional<Snapshot> find(long version) throws IOException {
    Snapshot s = loaded.get(version);
    if (s != null) {
      return Optional.of(s);
    }
    Optional<VersionEntry> entry = version <= 0 ? Optional.empty() : Versions.find(store, version);
    if (entry.isEmpty()) {
      return Optional.empty();
    }
    s = Snapshot.load(store, entry.get());
    loaded.put(version, s);
    return Optional.of(s);
  }

  private synchronized Snapshot snapshot(long version) {
    Snapshot s = loaded.get(version);
    if (s == null) {
      try {
        Optional<VersionEntry> entry = Versions.find(store, version);
        if (entry.isEmpty() && version == readVersion) {
          long latest = Versions.latest(store).map(VersionEntry::version).orElse(-1L);
          throw new ReadVersionUnavailableException(readVersion, readVersion, latest);
        }
        s = Snapshot.load(store, entry.isPresent() ? entry.get() : Versions.resolve(store, version));
      } catch (IOException e) {
        throw new UncheckedIOException("reading version " + version + " of the table", e);
      }
      loaded.put(version, s);
    }
    return s;
  }
}
