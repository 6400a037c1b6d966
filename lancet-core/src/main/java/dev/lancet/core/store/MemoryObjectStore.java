package dev.lancet.core.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A thread-safe, in-memory {@link ObjectStore} with the same semantics as
 * {@link LocalObjectStore}: handy for tests and for wrapping in a {@link FaultInjectingStore}.
 *
 * <p>Objects are immutable byte arrays in a concurrent map; every put stores a copy and every get
 * returns a copy, so callers can never mutate what the store holds. {@link #putIfAbsent} is the
 * map's atomic {@code putIfAbsent}. The map is sorted so that {@link #list} is a range scan that
 * already comes out in path order.
 *
 * <p>One difference from a filesystem: keys are flat, so {@code "a"} and {@code "a/b"} can both be
 * objects here, while a local table cannot have a file and a directory of the same name. Table
 * layouts never need both.
 */
public final class MemoryObjectStore implements ObjectStore {

  private final ConcurrentSkipListMap<String, byte[]> objects = new ConcurrentSkipListMap<>();

  private final boolean overlapsRequests;

  /** Creates an empty store. */
  public MemoryObjectStore() {
    this(false);
  }

  /**
   * Creates an empty store that asks commits to overlap their independent requests, as an
   * object store does ({@link ObjectStore#overlapsRequests()}): for tests of that path.
   */
  public MemoryObjectStore(boolean overlapsRequests) {
    this.overlapsRequests = overlapsRequests;
  }

  @Override
  public boolean overlapsRequests() {
    return overlapsRequests;
  }

  @Override
  public byte[] get(String path) throws IOException {
    return require(path).clone();
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    byte[] data = require(path);
    Ranges.checkArguments(path, offset, length);
    Ranges.checkWithinSize(path, offset, length, data.length);
    byte[] range = new byte[length];
    System.arraycopy(data, (int) offset, range, 0, length);
    return range;
  }

  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    byte[] data = require(path);
    if (data.length > maxBytes) {
      throw new ObjectTooLargeException(path, data.length, maxBytes);
    }
    return data.clone();
  }

  @Override
  public long size(String path) throws IOException {
    return require(path).length;
  }

  @Override
  public boolean exists(String path) {
    return objects.containsKey(StorePath.validate(path));
  }

  @Override
  public void put(String path, byte[] data) {
    objects.put(StorePath.validate(path), Objects.requireNonNull(data, "data").clone());
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    byte[] copy = Objects.requireNonNull(data, "data").clone();
    if (objects.putIfAbsent(StorePath.validate(path), copy) != null) {
      throw new AlreadyExistsException(path);
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) {
    String directory = StorePath.validatePrefix(prefix);
    // Keys under the directory are contiguous from the directory itself; keep direct children only.
    List<ObjectInfo> children = new ArrayList<>();
    for (Map.Entry<String, byte[]> entry : objects.tailMap(directory, true).entrySet()) {
      String key = entry.getKey();
      if (!key.startsWith(directory)) {
        break;
      }
      if (key.indexOf('/', directory.length()) < 0) {
        children.add(new ObjectInfo(key, entry.getValue().length));
      }
    }
    return List.copyOf(children);
  }

  @Override
  public void delete(String path) {
    objects.remove(StorePath.validate(path));
  }

  /** Removes every object (test isolation, e.g. for a shared named store). */
  public void clear() {
    objects.clear();
  }

  @Override
  public String toString() {
    return "MemoryObjectStore[" + objects.size() + " objects]";
  }

  private byte[] require(String path) throws NotFoundException {
    byte[] data = objects.get(StorePath.validate(path));
    if (data == null) {
      throw new NotFoundException(path);
    }
    return data;
  }
}
