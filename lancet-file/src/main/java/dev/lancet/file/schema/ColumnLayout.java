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
 *       no column of its own, except a packed struct (field metadata {@code packed} or
 *       {@code lance-encoding:packed} set to {@code true}, any case) and a blob field (metadata
 *       key {@code lance-encoding:blob}): each is one column for the whole field, its
 *       descendants have none (lance-core 7.0.0 writes a packed struct as one column whose values
 *       are the children's bytes row by row; decision 0030).</li>
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
    Set<Integer> insideWhole = new HashSet<>();
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
        continue;
      }
      if (!f.isTopLevel() && insideWhole.contains(f.parentId())) {
        insideWhole.add(f.id());
      } else if (isWholeColumn(stringMetadata(f))) {
        insideWhole.add(f.id());
        out.add(i);
      } else if (!parents.contains(f.id())) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * Slots of one Arrow field (with its children) in a data file of version
   * {@code major.minor}: the same rules as {@link #slotPositions}, read off an Arrow field.
   */
  public static int slots(org.apache.arrow.vector.types.pojo.Field f, int major, int minor) {
    boolean v20 = major == 2 && minor == 0;
    if (f.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.FixedSizeList) {
      boolean structItem = f.getChildren().get(0).getType()
          instanceof org.apache.arrow.vector.types.pojo.ArrowType.Struct;
      return v20 || !structItem ? 1 : slotsOfChildren(f, major, minor);
    }
    if (f.getChildren().isEmpty() || !v20 && isWholeColumn(f.getMetadata())) {
      return 1;
    }
    return (v20 ? 1 : 0) + slotsOfChildren(f, major, minor);
  }

  private static int slotsOfChildren(org.apache.arrow.vector.types.pojo.Field f, int major,
      int minor) {
    int n = 0;
    for (org.apache.arrow.vector.types.pojo.Field c : f.getChildren()) {
      n += slots(c, major, minor);
    }
    return n;
  }

  /**
   * Whether a field with this metadata is one column in a 2.1+ file whatever its children: a
   * packed struct or a blob.
   */
  public static boolean isWholeColumn(java.util.Map<String, String> metadata) {
    return metadata != null && (isTrue(metadata.get(PACKED)) || isTrue(metadata.get(PACKED_LEGACY))
        || metadata.containsKey(BLOB));
  }

  /** Whether a field with this metadata is a packed struct (its children stored row by row). */
  public static boolean isPacked(java.util.Map<String, String> metadata) {
    return metadata != null && (isTrue(metadata.get(PACKED)) || isTrue(metadata.get(PACKED_LEGACY)));
  }

  private static boolean isTrue(String v) {
    return v != null && v.equalsIgnoreCase("true");
  }

  private static java.util.Map<String, String> stringMetadata(Field f) {
    java.util.Map<String, String> out = new java.util.HashMap<>();
    f.metadata().forEach((k, v) -> out.put(k, v.toStringUtf8()));
    return out;
  }

  /** Field metadata keys lance-core reads for a packed struct and a blob column. */
  public static final String PACKED = "lance-encoding:packed";
  public static final String PACKED_LEGACY = "packed";
  public static final String BLOB = "lance-encoding:blob";

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
