package dev.lancet.core.store;

import java.io.IOException;
import java.util.List;

/**
 * The object-store seam: every read and write of a table's files goes through it.
 *
 * <p>Paths are relative to the table root and '/'-separated (for example
 * {@code "_versions/1.manifest"} or {@code "data/abc.lance"}); every method validates its path
 * with {@link StorePath} and rejects anything that could escape the root with an
 * {@link InvalidStorePathException}.
 *
 * <p>The contract every implementation keeps:
 * <ul>
 *   <li>a reader never observes a partially written object: {@link #put} replaces atomically and
 *       {@link #putIfAbsent} publishes a complete object or nothing;</li>
 *   <li>{@link #putIfAbsent} is the commit primitive: of any number of concurrent callers (threads
 *       or processes) for one path, exactly one succeeds;</li>
 *   <li>{@link #list} is non-recursive, returns objects only (no directories), sorted by path,
 *       and never shows the temporary files of in-flight writes.</li>
 * </ul>
 */
public interface ObjectStore extends AutoCloseable {

  /**
   * Reads a whole object.
   *
   * @throws NotFoundException if there is no object at {@code path}
   */
  byte[] get(String path) throws IOException;

  /**
   * Reads a whole object of at most {@code maxBytes} bytes; a larger object is refused unread.
   * The default asks for the size first; a store that can do both in one request overrides it.
   *
   * @throws NotFoundException if there is no object at {@code path}
   * @throws ObjectTooLargeException if the object is larger than {@code maxBytes}
   */
  default byte[] get(String path, long maxBytes) throws IOException {
    long size = size(path);
    if (size > maxBytes) {
      throw new ObjectTooLargeException(path, size, maxBytes);
    }
    return get(path);
  }

  /**
   * Reads {@code length} bytes starting at {@code offset}.
   *
   * @throws NotFoundException if there is no object at {@code path}
   * @throws java.io.EOFException if the range extends past the end of the object
   * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
   */
  byte[] getRange(String path, long offset, int length) throws IOException;

  /**
   * Returns the size of an object in bytes.
   *
   * @throws NotFoundException if there is no object at {@code path}
   */
  long size(String path) throws IOException;

  /** Whether an object exists at {@code path} (a directory-like prefix is not an object). */
  boolean exists(String path) throws IOException;

  /** Writes an object, replacing any previous one atomically: readers see the old or the new bytes. */
  void put(String path, byte[] data) throws IOException;

  /**
   * Opens a new object at {@code path} whose bytes arrive in order (a data file); it becomes
   * visible, complete, when the output's {@link ObjectOutput#complete()} returns, as durable as
   * {@link #put}, and replaces any object there. The local, S3 and Azure stores stream it
   * (holding at most one upload part); the default gathers the bytes and {@link #put}s them.
   */
  default ObjectOutput newOutput(String path) throws IOException {
    return new BufferedObjectOutput(this, path);
  }

  /**
   * Writes an object whose loss in a machine crash is tolerated (the version hint, a .txn file),
   * atomically like {@link #put}; a store may skip making it durable. The default is {@link #put}.
   */
  default void putAdvisory(String path, byte[] data) throws IOException {
    put(path, data);
  }

  /**
   * Makes the object at {@code path}, written by another writer than this store (lance-core's
   * file writer writes data files straight to the filesystem), as durable as this store's own
   * writes, before anything that references it is published. The default does nothing: for a
   * store whose writes are durable once acknowledged (S3, Azure) the object already is.
   *
   * @throws NotFoundException if there is no object at {@code path}
   */
  default void makeDurable(String path) throws IOException {}

  /**
   * Creates an object only if none exists at {@code path}, atomically.
   *
   * @throws AlreadyExistsException if an object already exists at {@code path}
   */
  void putIfAbsent(String path, byte[] data) throws IOException;

  /**
   * Lists the objects directly under a directory-like prefix such as {@code "_versions/"}
   * (the trailing '/' is optional; {@code ""} is the table root). Non-recursive, sorted by path,
   * paths relative to the table root. Returns an empty list if nothing is there.
   */
  List<ObjectInfo> list(String prefix) throws IOException;

  /**
   * The first {@code limit} entries of {@link #list(String)} (same order, same filtering).
   * Stores that list in pages ({@link #listsInPages()}) answer it with one request when
   * {@code limit} fits in a page; the default lists everything and keeps the first entries.
   */
  default List<ObjectInfo> listFirst(String prefix, int limit) throws IOException {
    if (limit < 0) {
      throw new IllegalArgumentException("Negative listing limit " + limit);
    }
    List<ObjectInfo> all = list(prefix);
    return all.size() <= limit ? all : List.copyOf(all.subList(0, limit));
  }

  /**
   * Whether {@link #listFirst} costs one request however many objects the prefix holds, as on
   * an object store (S3, Azure). Readers then find the newest V2-named manifest by listing its
   * first entry instead of reading a version hint and probing, and writers keep no hint there,
   * as lance-core does on object stores. False for a directory, where a listing reads it whole.
   */
  default boolean listsInPages() {
    return false;
  }

  /**
   * Whether a commit sends its independent requests concurrently (the latest version's .txn
   * read, the lookups of the files it adds, its own .txn write): true where every request is a
   * network round trip (an object store), so that they cost one round trip instead of several.
   * False for a directory, where overlapping writes gains nothing (concurrent fsyncs do not
   * merge, docs/decisions/0007) and a commit keeps its strict order.
   */
  default boolean overlapsRequests() {
    return false;
  }

  /** Deletes an object; deleting an absent object is not an error. */
  void delete(String path) throws IOException;

  /**
   * Every file under {@code prefix} (a directory-like prefix, "" for the whole table),
   * recursively, with its size and last-modification time, temporary files of unfinished
   * writes included: what cleanup needs to find unreferenced and abandoned files. Stores that
   * cannot tell modification times do not support cleanup.
   */
  default java.util.List<StoredObject> walk(String prefix) throws IOException {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot list files "
        + "with their modification times, which cleanup needs");
  }

  /** Deletes a temporary file {@link #walk} reported; an absent file is not an error. */
  default void deleteTemporary(String path) throws IOException {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot delete "
        + "temporary files");
  }

  /** Releases resources; the default does nothing. */
  @Override
  default void close() {}
}
