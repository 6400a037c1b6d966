package dev.lancet.core.version;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.FormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads branches in Lance's layout (docs/decisions/0027): a metadata file per branch,
 * {@code _refs/branches/{name}.json}, whose name writes '/' and every non-ASCII byte as
 * {@code %XX}; the branch's own versions, transactions, deletion files, data and indices under
 * {@code tree/{name}/} (the name as is, so {@code a/b} is a subdirectory). The metadata file is
 * the branch's source of truth: a directory without one is a branch being created or deleted.
 */
public final class Branches {
  public static final String BRANCHES_DIR = "_refs/branches/";
  public static final String TREE_DIR = "tree/";
  /** The reserved name of the table's first branch, whose files are at the table root. */
  public static final String MAIN = "main";

  private Branches() {}

  /** Every branch with a metadata file, by name. A file Lancet cannot read is an error. */
  public static List<Branch> list(ObjectStore store) throws IOException {
    List<Branch> out = new ArrayList<>();
    for (ObjectInfo info : store.list(BRANCHES_DIR)) {
      String file = info.path().substring(info.path().lastIndexOf('/') + 1);
      if (!file.endsWith(".json")) {
        continue;
      }
      String name = decodeFileName(file.substring(0, file.length() - ".json".length()), info.path());
      out.add(parse(name, store.get(info.path(), ReadLimits.REF_BYTES), info.path()));
    }
    out.sort(Comparator.comparing(Branch::name));
    return out;
  }

  /** The branch {@code name}, if it has a metadata file. */
  public static Optional<Branch> find(ObjectStore store, String name) throws IOException {
    check(name);
    String path = metadataPath(name);
    try {
      return Optional.of(parse(name, store.get(path, ReadLimits.REF_BYTES), path));
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  /** The branch {@code name}; a missing branch is an error that names the ones that exist. */
  public static Branch get(ObjectStore store, String name) throws IOException {
    Optional<Branch> b = find(store, name);
    if (b.isPresent()) {
      return b.get();
    }
    List<String> names = list(store).stream().map(Branch::name).toList();
    throw new VersionNotFoundException("branch '" + name + "' does not exist"
        + (names.isEmpty() ? " (the table has no branches besides main)"
            : "; branches: " + String.join(", ", names)));
  }

  /** {@code tree/{name}/}: where the branch's own files live. */
  public static String directory(String name) {
    return TREE_DIR + name + "/";
  }

  /** The branch's dataset location, {@code {table}/tree/{name}}, for readers of its files. */
  public static String location(String tableLocation, String name) {
    return dev.lancet.core.store.Locations.child(tableLocation, directory(name));
  }

  /** {@code _refs/branches/{encoded name}.json}. */
  public static String metadataPath(String name) {
    return BRANCHES_DIR + encodeFileName(name) + ".json";
  }

  /**
   * Lance's rule for branch names: non-empty '/'-separated segments of letters, digits, '.',
   * '-' and '_', no "..", not ending in ".lock", not "main".
   *
   * @throws IllegalArgumentException naming the rule the name breaks
   */
  public static void check(String name) {
    String problem = problem(name);
    if (problem != null) {
      throw new IllegalArgumentException("'" + name + "' is not a valid branch name: " + problem);
    }
  }

  /** Why {@code name} is not a valid branch name, or null when it is. */
  public static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "it is empty";
    }
    if (name.equals(MAIN)) {
      return "'main' is the table's first branch";
    }
    if (name.startsWith("/") || name.endsWith("/") || name.contains("//")) {
      return "'/' separates non-empty segments";
    }
    if (name.contains("..") || name.contains("\\")) {
      return "it may not contain '..' or '\\'";
    }
    if (name.endsWith(".lock")) {
      return "it may not end with '.lock'";
    }
    for (int i = 0; i < name.length(); ) {
      int c = name.codePointAt(i);
      if (!(Character.isLetterOrDigit(c) || Character.isAlphabetic(c) || c == '.' || c == '-'
          || c == '_' || c == '/')) {
        return "use letters, digits, '.', '-', '_' and '/' only";
      }
      i += Character.charCount(c);
    }
    return null;
  }

  /** The metadata file's stem: '/', '%' and every byte outside printable ASCII as %XX. */
  static String encodeFileName(String name) {
    StringBuilder out = new StringBuilder();
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int u = b & 0xff;
      if (u == '/' || u == '%' || u < 0x21 || u > 0x7e) {
        out.append('%').append(Character.toUpperCase(Character.forDigit(u >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(u & 0xf, 16)));
      } else {
        out.append((char) u);
      }
    }
    return out.toString();
  }

  static String decodeFileName(String stem, String path) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < stem.length(); i++) {
      char c = stem.charAt(i);
      if (c == '%') {
        int hi = i + 2 < stem.length() ? Character.digit(stem.charAt(i + 1), 16) : -1;
        int lo = i + 2 < stem.length() ? Character.digit(stem.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new FormatException(path, "a branch file name with a malformed %-escape");
        }
        bytes.write(hi * 16 + lo);
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(b, 0, b.length);
      }
    }
    String name = bytes.toString(StandardCharsets.UTF_8);
    String problem = problem(name);
    if (problem != null) {
      throw new FormatException(path, "names a branch '" + name + "' Lance would not create: " + problem);
    }
    return name;
  }

  /**
   * The metadata file's bytes, as lance-core 7.0.0 writes them: pretty-printed, camelCase keys,
   * the lineage as {@code identifier.version_mapping} pairs.
   */
  public static byte[] encode(Branch b) {
    JsonObject o = new JsonObject();
    if (b.parentBranch().isPresent()) {
      o.addProperty("parentBranch", b.parentBranch().get());
    } else {
      o.add("parentBranch", com.google.gson.JsonNull.INSTANCE);
    }
    JsonArray mapping = new JsonArray();
    for (Branch.Fork f : b.lineage()) {
      JsonArray pair = new JsonArray();
      pair.add(f.version());
      pair.add(f.uuid());
      mapping.add(pair);
    }
    JsonObject id = new JsonObject();
    id.add("version_mapping", mapping);
    o.add("identifier", id);
    o.addProperty("parentVersion", b.parentVersion());
    o.addProperty("createAt", b.createAt());
    o.addProperty("manifestSize", b.manifestSize());
    JsonObject md = new JsonObject();
    b.metadata().forEach(md::addProperty);
    o.add("metadata", md);
    return new com.google.gson.GsonBuilder().setPrettyPrinting().serializeNulls().create()
        .toJson(o).getBytes(StandardCharsets.UTF_8);
  }

  /** Parses a branch metadata file (camelCase keys; unknown keys are ignored, as Lance does). */
  static Branch parse(String name, byte[] bytes, String path) {
    try {
      JsonElement root = JsonParser.parseString(new String(bytes, StandardCharsets.UTF_8));
      if (!root.isJsonObject()) {
        throw new FormatException(path, "a branch file must be a JSON object");
      }
      JsonObject o = root.getAsJsonObject();
      Optional<String> parent = optionalString(o, "parentBranch", path);
      List<Branch.Fork> lineage = new ArrayList<>();
      JsonElement id = o.get("identifier");
      if (id != null && !id.isJsonNull()) {
        JsonElement mapping = id.isJsonObject() ? id.getAsJsonObject().get("version_mapping") : null;
        if (mapping == null || !mapping.isJsonArray()) {
          throw new FormatException(path, "identifier.version_mapping must be an array of "
              + "[version, uuid] pairs");
        }
        for (JsonElement pair : mapping.getAsJsonArray()) {
          JsonArray p = pair.isJsonArray() ? pair.getAsJsonArray() : null;
          if (p == null || p.size() != 2 || !p.get(1).isJsonPrimitive()) {
            throw new FormatException(path, "identifier.version_mapping must hold [version, uuid] pairs");
          }
          lineage.add(new Branch.Fork(unsigned(p.get(0), "identifier version", path),
              p.get(1).getAsString()));
        }
      }
      Map<String, String> metadata = new LinkedHashMap<>();
      JsonElement md = o.get("metadata");
      if (md != null && !md.isJsonNull()) {
        if (!md.isJsonObject()) {
          throw new FormatException(path, "metadata must be an object of strings");
        }
        for (Map.Entry<String, JsonElement> e : md.getAsJsonObject().entrySet()) {
          if (!e.getValue().isJsonPrimitive()) {
            throw new FormatException(path, "metadata value '" + e.getKey() + "' must be a string");
          }
          metadata.put(e.getKey(), e.getValue().getAsString());
        }
      }
      return new Branch(name, parent, required(o, "parentVersion", path),
          required(o, "createAt", path), required(o, "manifestSize", path), lineage, metadata);
    } catch (JsonParseException | IllegalStateException | UnsupportedOperationException e) {
      throw new FormatException(path, "not a valid branch file: " + e.getMessage(), e);
    }
  }

  private static Optional<String> optionalString(JsonObject o, String key, String path) {
    JsonElement e = o.get(key);
    if (e == null || e.isJsonNull()) {
      return Optional.empty();
    }
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
      throw new FormatException(path, key + " must be a string or null");
    }
    return Optional.of(e.getAsString());
  }

  private static long required(JsonObject o, String key, String path) {
    JsonElement e = o.get(key);
    if (e == null || e.isJsonNull()) {
      throw new FormatException(path, "a branch file needs " + key);
    }
    return unsigned(e, key, path);
  }

  private static long unsigned(JsonElement e, String what, String path) {
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) {
      throw new FormatException(path, what + " must be a non-negative integer");
    }
    try {
      return Long.parseUnsignedLong(e.getAsString());
    } catch (NumberFormatException ex) {
      throw new FormatException(path, what + " must be a non-negative integer, not " + e);
    }
  }
}
