package dev.lancet.file.schema;

import dev.lancet.format.model.Field;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of a data file's fields get a slot in the manifest's {@code DataFile.fields} /
 * {@code column_indices}, as lance-core 7.0.0 records them (checked by the interop suite for
 * structs, lists, fixed-size lists and nested combinations):
 *
 * <ul>
 *   <li>file version 2.0: every field in pre-order, except the descendants of a fixed-size list
 *       (2.0 stores a fixed-size list, even of structs, as one column);</li>
 *   <li>file version 2.1 (and later): the leaves only, in pre-order; a struct or list parent has
 *       no column of its own.</li>
 * </ul>
 *
 * Column indices are then 0, 1, 2, ... in slot order.
 */
public final class ColumnLayout {
  private ColumnLayout() {}

  /**
   * Positions (into {@code fields}, a pre-order field list with parent ids) of the fields that
   * get a slot in a data file of version {@code major.minor}.
   */
  public static List<Integer> slotPositions(List<Field> fields, int major, int minor) {
    if (major < 2) {
      throw new SchemaException("Lance file version " + major + "." + minor + " (the "
          + "legacy format) is not supported; use 2.0 or 2.1");
    }
    Set<Integer> parents = new HashSet<>();
    for (Field f : fields) {
      if (!f.isTopLevel()) {
        parents.add(f.parentId());
      }
    }
    boolean v20 = major == 2 && minor == 0;
    Set<Integer> insideFixedSizeList = new HashSet<>();
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      boolean hidden = !f.isTopLevel() && insideFixedSizeList.contains(f.parentId());
      if (hidden || f.logicalType().startsWith("fixed_size_list:")) {
        insideFixedSizeList.add(f.id());
      }
      if (v20) {
        if (!hidden) {
          out.add(i);
        }
      } else if (!parents.contains(f.id())) {
        out.add(i);
      }
    }
    return out;
  }

  /** The field ids of the slots, in slot order. */
  public static List<Integer> slotFieldIds(List<Field> fields, int major, int minor) {
    List<Integer> ids = new ArrayList<>();
    for (int p : slotPositions(fields, major, minor)) {
      ids.add(fields.get(p).id());
    }
    return ids;
  }

  /** Column indices 0..n-1 for {@code slots} slots. */
  public static List<Integer> columnIndices(int slots) {
    List<Integer> out = new ArrayList<>(slots);
    for (int i = 0; i < slots; i++) {
      out.add(i);
    }
    return out;
  }
}
