package dev.lancet.table;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.StoredObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Marks the writes in progress so cleanup never deletes their files before they commit: a
 * write puts {@code _lancet/in-flight/{uuid}} before its first data file, rewrites it every
 * {@link #HEARTBEAT} while it runs (however long it streams), and deletes it once it committed
 * or gave up. Cleanup keeps every file modified after the start of the oldest live write; a
 * marker not refreshed for {@link #LEASE} belongs to a killed writer and is ignored (and
 * removed like any other old file).
 */
final class InFlightWrites {
  static final String DIRECTORY = "_lancet/in-flight/";
  static final Duration HEARTBEAT = Duration.ofSeconds(30);
  static final Duration LEASE = Duration.ofMinutes(5);
  /**
   * Files a live write may have made are kept from this long before its recorded start: a
   * file's modification time comes from the filesystem's (or the object store's) clock, which
   * can lag the writer's by a clock tick locally (seen: a data file stamped before the start
   * its writer recorded) and by clock skew remotely.
   */
  static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);

  private static final ScheduledExecutorService BEATS = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "lancet-in-flight-heartbeat");
    t.setDaemon(true);
    return t;
  });

  private InFlightWrites() {}

  /** A registered write; close it when the write is over. */
  static final class Write implements AutoCloseable {
    private final ObjectStore store;
    private final String path;
    private final byte[] started;
    private final ScheduledFuture<?> beat;
    private boolean closed;

    private Write(ObjectStore store, String path, byte[] started) {
      this.store = store;
      this.path = path;
      this.started = started;
      this.beat = BEATS.scheduleAtFixedRate(this::refresh, HEARTBEAT.toMillis(),
          HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
    }

    // Synchronized with close: a beat running while the write ends must not put the marker back
    // (a distributed write's workers take its presence to mean the write is still open).
    private synchronized void refresh() {
      if (closed) {
        return;
      }
      try {
        store.putAdvisory(path, started);
      } catch (IOException | RuntimeException e) {
        // the next beat tries again; a write outliving its lease loses only the protection
      }
    }

    /** Ends the registration (again: nothing). */
    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      beat.cancel(false);
      try {
        store.delete(path);
      } catch (IOException | RuntimeException e) {
        // a leftover marker expires after its lease
      }
    }
  }

  /** Registers a write starting now. */
  static Write begin(ObjectStore store) {
    return begin(store, UUID.randomUUID().toString());
  }

  /** Registers a write starting now, its marker named {@code id}. */
  static Write begin(ObjectStore store, String id) {
    String path = DIRECTORY + id;
    byte[] started = Instant.now().toString().getBytes(StandardCharsets.UTF_8);
    try {
      store.putAdvisory(path, started);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("registering a write in " + DIRECTORY, e);
    }
    return new Write(store, path, started);
  }

  /** Whether the write registered as {@code id} is still registered (its marker exists). */
  static boolean isOpen(ObjectStore store, String id) throws IOException {
    return store.exists(DIRECTORY + id);
  }

  /**
   * The start of the oldest write still in progress (its marker refreshed within the lease),
   * less {@link #CLOCK_MARGIN}, or empty when none is; from {@code files}, the result of
   * {@link ObjectStore#walk}, whose markers are under {@code root} (a branch's writes register
   * in its own directory, {@code tree/{name}/}).
   */
  static Optional<Instant> oldestLiveStart(ObjectStore store, List<StoredObject> files,
      String root, Instant now) {
    Optional<Instant> oldest = Optional.empty();
    for (StoredObject f : files) {
      if (!f.path().startsWith(root + DIRECTORY) || f.temporary()
          || f.lastModified().isBefore(now.minus(LEASE))) {
        continue;
      }
      Instant start;
      try {
        start = Instant.parse(new String(store.get(f.path()), StandardCharsets.UTF_8).trim());
      } catch (IOException | RuntimeException e) {
        start = f.lastModified().minus(LEASE);
      }
      if (oldest.isEmpty() || start.isBefore(oldest.get())) {
        oldest = Optional.of(start);
      }
    }
    return oldest.map(start -> start.minus(CLOCK_MARGIN));
  }
}
