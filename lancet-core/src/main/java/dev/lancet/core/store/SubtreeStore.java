package dev.lancet.core.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A view of a directory of another store as a store of its own: a branch's dataset root,
 * {@code tree/{name}/}, is a Lance dataset with its own {@code _versions/}, {@code data/} and
 * {@code _deletions/} (docs/decisions/0027), so the commit loop and the readers run on it
 * unchanged. Paths are relative to the directory; the view never reaches outside it. Closing
 * the view does not close the store it is a view of.
 */
public final class SubtreeStore implements ObjectStore {
  private final ObjectStore parent;
  private final String prefix;

  /**
   * @param prefix a valid directory prefix of {@code parent}, e.g. {@code "tree/feature/"}
   */
  public SubtreeStore(ObjectStore parent, String prefix) {
    this.parent = Objects.requireNonNull(parent, "parent");
    String p = StorePath.validatePrefix(prefix);
    if (p.isEmpty()) {
      throw new IllegalArgumentException("a subtree needs a directory, not the root");
    }
    this.prefix = p;
  }

  /** The directory of the parent store this view shows, ending in '/'. */
  public String prefix() {
    return prefix;
  }

  public ObjectStore parent() {
    return parent;
  }

  private String full(String path) {
    return prefix + StorePath.validate(path);
  }

  private String fullPrefix(String listPrefix) {
    return prefix + StorePath.validatePrefix(listPrefix);
  }

  private String strip(String path) {
    if (!path.startsWith(prefix)) {
      throw new IllegalStateException("the store listed " + path + " outside " + prefix);
    }
    return path.substring(prefix.length());
  }

  @Override
  public byte[] get(String path) throws IOException {
    return parent.get(full(path));
  }

  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    return parent.get(full(path), maxBytes);
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    return parent.getRange(full(path), offset, length);
  }

  @Override
  public long size(String path) throws IOException {
    return parent.size(full(path));
  }

  @Override
  public boolean exists(String path) throws IOException {
    return parent.exists(full(path));
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    parent.put(full(path), data);
  }

  @Override
  public void putAdvisory(String path, byte[] data) throws IOException {
    parent.putAdvisory(full(path), data);
  }

  @Override
  public void makeDurable(String path) throws IOException {
    parent.makeDurable(full(path));
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    parent.putIfAbsent(full(path), data);
  }

  @Override
  public List<ObjectInfo> list(String listPrefix) throws IOException {
    List<ObjectInfo> out = new ArrayList<>();
    for (ObjectInfo o : parent.list(fullPrefix(listPrefix))) {
      out.add(new ObjectInfo(strip(o.path()), o.size()));
    }
    return out;
  }

  @Override
  public List<ObjectInfo> listFirst(String listPrefix, int limit) throws IOException {
    List<ObjectInfo> out = new ArrayList<>();
    for (ObjectInfo o : parent.listFirst(fullPrefix(listPrefix), limit)) {
      out.add(new ObjectInfo(strip(o.path()), o.size()));
    }
    return out;
  }

  @Override
  public boolean listsInPages() {
    return parent.listsInPages();
  }

  @Override
  public boolean overlapsRequests() {
    return parent.overlapsRequests();
  }

  @Override
  public void delete(String path) throws IOException {
    parent.delete(full(path));
  }

  @Override
  public List<StoredObject> walk(String walkPrefix) throws IOException {
    List<StoredObject> out = new ArrayList<>();
    for (StoredObject o : parent.walk(fullPrefix(walkPrefix))) {
      out.add(new StoredObject(strip(o.path()), o.size(), o.lastModified(), o.temporary()));
    }
    return out;
  }

  @Override
  public void deleteTemporary(String path) throws IOException {
    parent.deleteTemporary(prefix + path);
  }

  @Override
  public void close() {
    // The parent store belongs to whoever opened it.
  }
}
