package dev.lancet.core.store;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An object store's SDK clients per configuration in this JVM, shared by every store opened with
 * the same resolved storage options (the whole map is the key, so stores whose options differ
 * in anything never share a client), as lance-core shares one object store per configuration.
 * Building a client and opening its first connections costs far more than a request, and a
 * table is typically opened per operation, so the clients of a closed store stay open for the
 * next one.
 *
 * <p>Bounded (decision 0014, "Clients are shared"): each open store holds a lease on its
 * configuration's clients; a configuration no store holds is <em>idle</em>, and beyond
 * {@code maxIdle} idle configurations the least recently used ones are closed. Clients in use
 * are never closed, however many there are. A store that is never closed keeps its clients.
 *
 * @param <C> the clients of one configuration
 */
public final class SharedClients<C> {
  private static final Logger LOG = LoggerFactory.getLogger(SharedClients.class);

  /** Idle configurations kept open by default: more than a process typically uses at once. */
  public static final int DEFAULT_MAX_IDLE = 8;

  /** A store's hold on its configuration's clients; released once, by the store's close. */
  public final class Lease {
    private final Map<String, String> key;
    private final Entry<C> entry;
    // Set under the cache's lock; read without it by every request of the store holding it.
    private volatile boolean released;

    private Lease(Map<String, String> key, Entry<C> entry) {
      this.key = key;
      this.entry = entry;
    }

    public C clients() {
      return entry.clients;
    }

    /** Gives the clients back (again: nothing). */
    public void release() {
      SharedClients.this.release(this);
    }

    /** Whether {@link #release} was called. */
    public boolean released() {
      return released;
    }
  }

  private static final class Entry<C> {
    final C clients;
    int leases;

    Entry(C clients) {
      this.clients = clients;
    }
  }

  private final int maxIdle;
  private final Consumer<C> closer;
  private final String what;
  /** In access order (acquired or released): the first idle entries are the least recently used. */
  private final LinkedHashMap<Map<String, String>, Entry<C>> entries = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * @param closer closes one configuration's clients (connection pools, credential refreshers)
   * @param what names the clients in log lines ("S3", "Azure")
   */
  public SharedClients(int maxIdle, Consumer<C> closer, String what) {
    if (maxIdle < 0) {
      throw new IllegalArgumentException("maxIdle must not be negative, not " + maxIdle);
    }
    this.maxIdle = maxIdle;
    this.closer = Objects.requireNonNull(closer, "closer");
    this.what = Objects.requireNonNull(what, "what");
  }

  /**
   * A lease on the clients of {@code key}, built by {@code build} if no store of this JVM holds
   * or recently held them. The clients are built outside the lock; if two threads build the same
   * configuration at once, one set is kept and the other closed.
   */
  public Lease acquire(Map<String, String> key, Supplier<C> build) {
    Map<String, String> k = Map.copyOf(key);
    synchronized (this) {
      Entry<C> e = entries.get(k);
      if (e != null) {
        e.leases++;
        return new Lease(k, e);
      }
    }
    C built = Objects.requireNonNull(build.get(), "clients");
    Entry<C> kept;
    synchronized (this) {
      kept = entries.get(k);
      if (kept == null) {
        kept = new Entry<>(built);
        entries.put(k, kept);
        built = null;
      }
      kept.leases++;
    }
    if (built != null) {
      close(built);
    }
    return new Lease(k, kept);
  }

  private void release(Lease lease) {
    List<C> evicted = new ArrayList<>();
    synchronized (this) {
      if (lease.released) {
        return;
      }
      lease.released = true;
      lease.entry.leases--;
      entries.get(lease.key); // the most recently used now: idle ones are closed oldest first
      int idle = 0;
      for (Entry<C> e : entries.values()) {
        if (e.leases == 0) {
          idle++;
        }
      }
      for (Iterator<Entry<C>> it = entries.values().iterator(); it.hasNext() && idle > maxIdle; ) {
        Entry<C> e = it.next();
        if (e.leases == 0) {
          it.remove();
          evicted.add(e.clients);
          idle--;
        }
      }
    }
    for (C c : evicted) {
      LOG.debug("closing the {} clients of an idle configuration (more than {} idle)", what, maxIdle);
      close(c);
    }
  }

  private void close(C clients) {
    try {
      closer.accept(clients);
    } catch (RuntimeException e) {
      LOG.debug("closing {} clients failed: {}", what, e.getMessage());
    }
  }

  /** Configurations with open clients (held or idle). */
  public synchronized int size() {
    return entries.size();
  }

  /** Stores holding a lease on {@code key}'s clients; -1 when they are not open. */
  public synchronized int leases(Map<String, String> key) {
    Map<String, String> k = Map.copyOf(key);
    for (Map.Entry<Map<String, String>, Entry<C>> e : entries.entrySet()) { // get() would reorder
      if (e.getKey().equals(k)) {
        return e.getValue().leases;
      }
    }
    return -1;
  }
}
