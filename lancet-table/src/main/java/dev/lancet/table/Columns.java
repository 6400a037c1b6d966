package dev.lancet.table;

import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import java.util.ArrayList;
import java.util.List;

/** Columns named by path: {@code "name"} for a top-level column, {@code "point.x"} for a child. */
final class Columns {
  private Columns() {}

  static Field resolve(Schema schema, String path, long version) {
    String[] parts = path.split("\\.", -1);
    int parent = Field.NO_PARENT;
    Field found = null;
    for (String part : parts) {
      found = null;
      for (Field f : schema.fields()) {
        if (f.parentId() == parent && f.name().equals(part)) {
          found = f;
          break;
        }
      }
      if (found == null) {
        break;
      }
      parent = found.id();
    }
    if (found == null) {
      List<String> names = new ArrayList<>();
      schema.topLevel().forEach(f -> names.add(f.name()));
      throw new NotFoundException("column '" + path + "' does not exist at version " + version
          + "; the table has " + String.join(", ", names));
    }
    return found;
  }

  /** Whether {@code parentId} already has a child (or the schema a top-level field) named so. */
  static boolean nameTaken(Schema schema, int parentId, String name) {
    for (Field f : schema.fields()) {
      if (f.parentId() == parentId && f.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code schema} cut to its top-level columns named in {@code names} (with their children),
   * in schema order: the fields a write of only those columns records.
   */
  static Schema restrict(Schema schema, java.util.Collection<String> names) {
    java.util.Set<Integer> kept = new java.util.HashSet<>();
    List<Field> fields = new ArrayList<>();
    for (Field f : schema.fields()) {
      if (f.isTopLevel() ? names.contains(f.name()) : kept.contains(f.parentId())) {
        kept.add(f.id());
        fields.add(f);
      }
    }
    return new Schema(fields, schema.metadata());
  }
}
