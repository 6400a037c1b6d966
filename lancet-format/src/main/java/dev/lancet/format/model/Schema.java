package dev.lancet.format.model;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table schema: its fields flattened pre-order (every parent before its children) and the
 * schema-level metadata. Field order is significant: it is the column order users see.
 */
public record Schema(List<Field> fields, Map<String, ByteString> metadata) {

  public static final Schema EMPTY = new Schema(List.of(), Map.of());

  public Schema {
    fields = List.copyOf(fields);
    metadata = Map.copyOf(metadata);
  }

  /** The field with this id, if the schema has it. */
  public Optional<Field> field(int id) {
    for (Field f : fields) {
      if (f.id() == id) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** Fields keyed by id, for callers that look up many. */
  public Map<Integer, Field> byId() {
    Map<Integer, Field> out = new HashMap<>(fields.size() * 2);
    for (Field f : fields) {
      out.put(f.id(), f);
    }
    return Collections.unmodifiableMap(out);
  }

  public List<Field> topLevel() {
    List<Field> out = new ArrayList<>();
    for (Field f : fields) {
      if (f.isTopLevel()) {
        out.add(f);
      }
    }
    return out;
  }

  public List<Field> children(int parentId) {
    List<Field> out = new ArrayList<>();
    for (Field f : fields) {
      if (f.parentId() == parentId) {
        out.add(f);
      }
    }
    return out;
  }

  /** The highest field id in the schema, or -1 when it has no fields. */
  public int maxFieldId() {
    int max = -1;
    for (Field f : fields) {
      max = Math.max(max, f.id());
    }
    return max;
  }

  /** Dotted path of a field ("point.x"), for messages and display. */
  public String path(Field field) {
    StringBuilder sb = new StringBuilder(field.name());
    Map<Integer, Field> ids = byId();
    Field cur = field;
    int guard = fields.size();
    while (!cur.isTopLevel() && guard-- > 0) {
      Field parent = ids.get(cur.parentId());
      if (parent == null) {
        break;
      }
      sb.insert(0, parent.name() + ".");
      cur = parent;
    }
    return sb.toString();
  }
}
