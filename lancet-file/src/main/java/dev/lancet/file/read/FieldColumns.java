package dev.lancet.file.read;

import dev.lancet.file.schema.ColumnLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The columns of one top-level field of a 2.1 file, in column order: each leaf (a primitive, a
 * string, a fixed-size list of primitives, a packed struct) is one column, reached from the
 * field's vector by a path of struct children. A field the Java reader cannot assemble (a list,
 * a map, a fixed-size list of structs, a dictionary type, a blob) says why; its columns are
 * still counted so that the next field's columns are found.
 *
 * @param firstColumn the column of the field's first leaf
 * @param numColumns the columns the field takes
 */
record FieldColumns(Field field, int firstColumn, int numColumns, List<Leaf> leaves,
    Optional<String> unsupported) {

  /**
   * One leaf column: {@code path} the child indexes from the top-level vector down to the leaf's
   * vector; {@code firstOwned} the shallowest struct ancestor (0 = the top-level vector) whose
   * validity this leaf sets (each struct's validity is set by the first leaf beneath it).
   */
  record Leaf(int column, Field field, int[] path, int firstOwned) {
    /** Struct layers above the leaf. */
    int depth() {
      return path.length;
    }
  }

  static FieldColumns of(Field top, int firstColumn) {
    List<Leaf> leaves = new ArrayList<>();
    String[] why = {null};
    int[] next = {firstColumn};
    walk(top, new int[0], leaves, next, why);
    // Ownership of struct validity: the first leaf beneath each struct.
    List<Leaf> owned = new ArrayList<>();
    for (int i = 0; i < leaves.size(); i++) {
      Leaf l = leaves.get(i);
      int first = 0;
      if (i > 0) {
        int[] prev = leaves.get(i - 1).path();
        int common = 0;
        while (common < prev.length && common < l.path().length
            && prev[common] == l.path()[common]) {
          common++;
        }
        first = common + 1;
      }
      owned.add(new Leaf(l.column(), l.field(), l.path(), first));
    }
    return new FieldColumns(top, firstColumn, next[0] - firstColumn, List.copyOf(owned),
        Optional.ofNullable(why[0]));
  }

  private static void walk(Field f, int[] path, List<Leaf> leaves, int[] next, String[] why) {
    ArrowType t = f.getType();
    if (f.getDictionary() != null) {
      note(why, f, "a dictionary-typed field");
      leaves.add(new Leaf(next[0]++, f, path, 0));
      return;
    }
    if (f.getMetadata() != null && f.getMetadata().containsKey(ColumnLayout.BLOB)) {
      note(why, f, "a blob column");
      leaves.add(new Leaf(next[0]++, f, path, 0));
      return;
    }
    switch (t.getTypeID()) {
      case Struct -> {
        if (ColumnLayout.isPacked(f.getMetadata()) || f.getChildren().isEmpty()) {
          if (f.getChildren().isEmpty()) {
            note(why, f, "an empty struct");
          }
          leaves.add(new Leaf(next[0]++, f, path, 0));
          return;
        }
        for (int i = 0; i < f.getChildren().size(); i++) {
          int[] p = java.util.Arrays.copyOf(path, path.length + 1);
          p[path.length] = i;
          walk(f.getChildren().get(i), p, leaves, next, why);
        }
      }
      case List, LargeList, Map, FixedSizeList -> {
        boolean primitiveFsl = t.getTypeID() == ArrowType.ArrowTypeID.FixedSizeList
            && ColumnLayout.slots(f, 2, 1) == 1;
        if (primitiveFsl) {
          leaves.add(new Leaf(next[0]++, f, path, 0));
          return;
        }
        note(why, f, "a " + t.getTypeID() + " field (lists are left to lance-core)");
        int n = ColumnLayout.slots(f, 2, 1);
        for (int i = 0; i < n; i++) {
          leaves.add(new Leaf(next[0]++, f, path, 0));
        }
      }
      default -> leaves.add(new Leaf(next[0]++, f, path, 0));
    }
  }

  private static void note(String[] why, Field f, String what) {
    if (why[0] == null) {
      why[0] = "field '" + f.getName() + "' is " + what + ", which the Java reader does not "
          + "assemble";
    }
  }
}
