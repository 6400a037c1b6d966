package dev.lancet.store.s3;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The SDK clients of each S3 configuration in this JVM, shared by every store opened with the
 * same resolved storage options (endpoint, region, credentials, path style, {@code allow_http},
 * timeouts, retries: the whole map is the key, so stores whose options differ in anything never
 * share a client), as lance-core shares one object store per configuration. Building a client
 * and opening its first connections costs far more than a request, and a table is typically
 * opened per operation, so the clients of a closed store stay open for the next one.
 *
 * <p>Bounded (decision 0014, "Clients are shared"): each open store holds a lease on its
 * configuration's clients; a configuration no store holds is <em>idle</em>, and beyond
 * {@link #DEFAULT_MAX_IDLE} idle configurations the least recently used ones are closed
 * (connection pool, both clients, the credentials provider). Clients in use are never closed,
 * however many there are. A store that is never closed keeps its clients, as before.
 */
final class S3Clients {
  private static final Logger LOG = LoggerFactory.getLogger(S3Clients.class);

  /** Idle configurations kept open: more than a process typically uses at once. */
  static final int DEFAULT_MAX_IDLE = 8;

  /** The clients of one configuration. */
  record Clients(SdkHttpClient http, S3Client client, S3Client conditional, AwsCredentialsProvider credentials) {
    void close() {
      closeQuietly(client);
      closeQuietly(conditional);
      closeQuietly(http);
      // The default chain may hold refresh threads and files; a static provider holds nothing.
      if (credentials instanceof AutoCloseable c) {
        closeQuietly(c);
      }
    }
  }

  /** A store's hold on its configuration's clients; released once, by the store's close. */
  final class Lease {
    private final Map<String, String> key;
    private final Entry entry;
    private boolean released;

    private Lease(Map<String, String> key, Entry entry) {
      this.key = key;
      this.entry = entry;
    }

    Clients clients() {
      return entry.clients;
    }

    void release() {
      S3Clients.this.release(this);
    }
  }

  private static final class Entry {
    final Clients clients;
    int leases;

    Entry(Clients clients) {
      this.clients = clients;
    }
  }

  private final int maxIdle;
  /** In access order (acquired or released): the first idle entries are the least recently used. */
  private final LinkedHashMap<Map<String, String>, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

  S3Clients(int maxIdle) {
    if (maxIdle < 0) {
      throw new IllegalArgumentException("maxIdle must not be negative, not " + maxIdle);
    }
    this.maxIdle = maxIdle;
  }

  /**
   * A lease on the clients of {@code key}, built by {@code build} if no store of this JVM holds
   * or recently held them. The clients are built outside the lock; if two threads build the same
   * configuration at once, one set is kept and the other closed.
   */
  Lease acquire(Map<String, String> key, Supplier<Clients> build) {
    Map<String, String> k = Map.copyOf(key);
    synchronized (this) {
      Entry e = entries.get(k);
      if (e != null) {
        e.leases++;
        return new Lease(k, e);
      }
    }
    Clients built = Objects.requireNonNull(build.get(), "clients");
    Entry kept;
    synchronized (this) {
      kept = entries.get(k);
      if (kept == null) {
        kept = new Entry(built);
        entries.put(k, kept);
        built = null;
      }
      kept.leases++;
    }
    if (built != null) {
      built.close();
    }
    return new Lease(k, kept);
  }

  private void release(Lease lease) {
    List<Clients> evicted = new ArrayList<>();
    synchronized (this) {
      if (lease.released) {
        return;
      }
      lease.released = true;
      lease.entry.leases--;
      entries.get(lease.key); // the most recently used now: idle ones are closed oldest first
      int idle = 0;
      for (Entry e : entries.values()) {
        if (e.leases == 0) {
          idle++;
        }
      }
      for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && idle > maxIdle; ) {
        Entry e = it.next();
        if (e.leases == 0) {
          it.remove();
          evicted.add(e.clients);
          idle--;
        }
      }
    }
    for (Clients c : evicted) {
      LOG.debug("closing the S3 clients of an idle configuration (more than {} idle)", maxIdle);
      c.close();
    }
  }

  /** Configurations with open clients (held or idle). */
  synchronized int size() {
    return entries.size();
  }

  /** Stores holding a lease on {@code key}'s clients; -1 when they are not open. */
  synchronized int leases(Map<String, String> key) {
    Map<String, String> k = Map.copyOf(key);
    for (Map.Entry<Map<String, String>, Entry> e : entries.entrySet()) { // get() would reorder
      if (e.getKey().equals(k)) {
        return e.getValue().leases;
      }
    }
    return -1;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      LOG.debug("closing an S3 client failed: {}", e.getMessage());
    }
  }
}
