package dev.lancet.table;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The table's tags, in lance-core's format: one file {@code _refs/tags/{name}.json} per tag at the
 * table root, whatever branch it points into, {@code {"branch": null | "name", "version": N,
 * "createdAt": ..., "updatedAt": ..., "manifestSize": B, "metadata": {}}}. Creating a tag is
 * atomic (put-if-absent: of two creators of one name exactly one wins); a tag made through a
 * branch's handle names an existing version of that branch; cleanup keeps tagged versions.
 */
public final class Tags {
  private static final ObjectMapper JSON = new ObjectMapper();
  // lance-core's rule: letters, digits, '.', '_', '-'; not starting with '.', no "..", no ".lock" end.
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

  private final ObjectStore store;
  private final String uri;
  private final Optional<String> branch;
  private final ObjectStore branchStore;

  /**
   * @param store the table's store (tags live at its root)
   * @param branch the branch new tags point into (empty: main), whose versions
   *     {@code branchStore} holds
   */
  Tags(ObjectStore store, String uri, Optional<String> branch, ObjectStore branchStore) {
    this.store = store;
    this.uri = uri;
    this.branch = branch;
    this.branchStore = branchStore;
  }

  /** Every tag, by name. */
  public List<TagInfo> list() {
    try {
      List<TagInfo> out = new ArrayList<>();
      for (dev.lancet.core.version.Tag t : dev.lancet.core.version.Tags.list(store)) {
        out.add(new TagInfo(t.name(), t.version(), t.branch()));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("listing the tags of " + uri, e);
    }
  }

  /** The tag, if it exists. */
  public Optional<TagInfo> get(String name) {
    check(name);
    return list().stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /**
   * Tags {@code version} of this handle's branch as {@code name}; an error when the tag exists or
   * the version does not.
   */
  public TagInfo create(String name, long version) {
    check(name);
    VersionEntry entry = existing(version);
    try {
      store.putIfAbsent(path(name), contents(version, entry.sizeBytes(), Instant.now(), Instant.now()));
    } catch (AlreadyExistsException e) {
      throw new dev.lancet.table.AlreadyExistsException("tag '" + name + "' already exists (at "
          + "version " + get(name).map(TagInfo::version).map(String::valueOf).orElse("?")
          + "); move it, or delete it first", e);
    } catch (IOException e) {
      throw new UncheckedIOException("creating tag " + name + " of " + uri, e);
    }
    return new TagInfo(name, version, branch);
  }

  /** Points the existing tag {@code name} at {@code version} of this handle's branch. */
  public TagInfo move(String name, long version) {
    check(name);
    requireTag(name);
    VersionEntry entry = existing(version);
    try {
      Instant created = createdAt(name);
      store.put(path(name), contents(version, entry.sizeBytes(), created, Instant.now()));
    } catch (IOException e) {
      throw new UncheckedIOException("moving tag " + name + " of " + uri, e);
    }
    return new TagInfo(name, version, branch);
  }

  /** Deletes the tag {@code name}; an error when there is none. */
  public void delete(String name) {
    check(name);
    requireTag(name);
    try {
      store.delete(path(name));
    } catch (IOException e) {
      throw new UncheckedIOException("deleting tag " + name + " of " + uri, e);
    }
  }

  private void requireTag(String name) {
    if (get(name).isEmpty()) {
      List<String> names = list().stream().map(TagInfo::name).toList();
      throw new NotFoundException("tag '" + name + "' does not exist" + (names.isEmpty()
          ? " (the table has no tags)" : "; tags: " + String.join(", ", names)));
    }
  }

  private VersionEntry existing(long version) {
    try {
      return Versions.resolve(branchStore, version);
    } catch (dev.lancet.core.version.VersionNotFoundException e) {
      throw new NotFoundException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("finding version " + version + " of " + uri, e);
    }
  }

  private Instant createdAt(String name) throws IOException {
    try {
      String at = JSON.readTree(store.get(path(name))).path("createdAt").asText("");
      return at.isEmpty() ? Instant.now() : Instant.parse(at);
    } catch (RuntimeException e) {
      return Instant.now();
    }
  }

  private byte[] contents(long version, long manifestSize, Instant created, Instant updated) {
    ObjectNode n = JSON.createObjectNode();
    if (branch.isPresent()) {
      n.put("branch", branch.get());
    } else {
      n.putNull("branch");
    }
    n.put("version", version);
    n.put("createdAt", created.toString());
    n.put("updatedAt", updated.toString());
    n.put("manifestSize", manifestSize);
    n.putObject("metadata");
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String path(String name) {
    return dev.lancet.core.version.Tags.TAGS_DIR + name + ".json";
  }

  static void check(String name) {
    if (name == null || !NAME.matcher(name).matches() || name.startsWith(".")
        || name.contains("..") || name.endsWith(".lock")) {
      throw new InvalidInputException("'" + name + "' is not a valid tag name: use letters, "
          + "digits, '.', '_' and '-', not starting with '.', without '..' or a '.lock' end");
    }
  }
}
