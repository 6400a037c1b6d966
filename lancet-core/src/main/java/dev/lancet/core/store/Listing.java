package dev.lancet.core.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One non-recursive listing on an object store, as the server pages it: the direct children of
 * a directory, filtered the same way for every store (no directory markers, no deeper keys, no
 * temporary or invalid names), then sorted by path as {@link ObjectStore#list} promises.
 */
public final class Listing {
  private final String directory;
  private final String keyPrefix;
  private final List<ObjectInfo> objects = new ArrayList<>();

  /**
   * @param directory the table-relative directory, as {@link StorePath#validatePrefix} returns it
   * @param keyPrefix the server-side key (blob name) prefix of that directory
   */
  public Listing(String directory, String keyPrefix) {
    this.directory = directory;
    this.keyPrefix = keyPrefix;
  }

  /** Offers one key the server listed; keeps it when it is an object directly in the directory. */
  public void offer(String key, long size) {
    if (!key.startsWith(keyPrefix) || key.length() == keyPrefix.length() || key.endsWith("/")) {
      return; // the directory itself, or a directory marker
    }
    String name = key.substring(keyPrefix.length());
    if (name.indexOf('/') >= 0 || StorePath.isTemporaryName(name) || !StorePath.isValid(directory + name)) {
      return;
    }
    objects.add(new ObjectInfo(directory + name, size));
  }

  /** How many objects were kept so far. */
  public int size() {
    return objects.size();
  }

  /** The first {@code limit} objects kept, sorted by path. */
  public List<ObjectInfo> first(int limit) {
    List<ObjectInfo> sorted = new ArrayList<>(objects);
    sorted.sort(Comparator.comparing(ObjectInfo::path));
    return sorted.size() <= limit ? List.copyOf(sorted) : List.copyOf(sorted.subList(0, limit));
  }
}
