package dev.lancet.table;

import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import dev.lancet.file.schema.LanceSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

/**
 * Checks that incoming batches fit a table's schema and lines their columns up in the table's
 * order (a view over the same vectors, nothing copied). Columns may come in any order; each
 * must have the table column's Lance type (the same logical type strings, child by child), and
 * a column the table declares non-nullable must hold no null.
 */
final class BatchConformance {
  private final Schema table;
  private final Map<Integer, List<Field>> children;
  private final Optional<DictionaryProvider> dictionaries;
  private org.apache.arrow.vector.types.pojo.Schema checkedSchema;
  private int[] order;

  BatchConformance(Schema table, Optional<DictionaryProvider> dictionaries) {
    this.table = table;
    this.children = LanceSchemas.childrenOf(table);
    this.dictionaries = dictionaries;
  }

  /** {@code batch}'s columns in table order; the caller must not close the result. */
  VectorSchemaRoot conform(VectorSchemaRoot batch) {
    if (!batch.getSchema().equals(checkedSchema)) {
      order = checkSchema(batch.getSchema());
      checkedSchema = batch.getSchema();
    }
    List<FieldVector> vectors = new ArrayList<>(order.length);
    List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>(order.length);
    List<Field> top = table.topLevel();
    for (int i = 0; i < order.length; i++) {
      FieldVector v = batch.getVector(order[i]);
      checkNulls(top.get(i), v, top.get(i).name(), batch.getRowCount());
      vectors.add(v);
      fields.add(v.getField());
    }
    return new VectorSchemaRoot(fields, vectors, batch.getRowCount());
  }

  private int[] checkSchema(org.apache.arrow.vector.types.pojo.Schema batch) {
    Map<String, Integer> byName = new HashMap<>();
    List<org.apache.arrow.vector.types.pojo.Field> fields = batch.getFields();
    for (int i = 0; i < fields.size(); i++) {
      byName.put(fields.get(i).getName(), i);
    }
    List<Field> top = table.topLevel();
    List<String> missing = new ArrayList<>();
    int[] out = new int[top.size()];
    for (int i = 0; i < top.size(); i++) {
      Integer at = byName.remove(top.get(i).name());
      if (at == null) {
        missing.add(top.get(i).name());
      } else {
        out[i] = at;
      }
    }
    if (!missing.isEmpty() || !byName.isEmpty()) {
      throw new InvalidInputException("the batches do not match the table's columns"
          + (missing.isEmpty() ? "" : "; missing: " + String.join(", ", missing))
          + (byName.isEmpty() ? "" : "; not in the table: " + String.join(", ", byName.keySet()))
          + ". The table has " + names(top) + "; add a column first with addColumns");
    }
    for (int i = 0; i < top.size(); i++) {
      List<Field> theirs = TableSchemas.fieldToLance(fields.get(out[i]), 0, dictionaries);
      List<Field> ours = subtree(top.get(i));
      if (!sameShape(ours, theirs)) {
        throw new InvalidInputException("column '" + top.get(i).name() + "' has type "
            + describe(theirs) + " in the batches, but the table stores " + describe(ours)
            + "; cast it in the data, or change the column with alterColumns().cast");
      }
    }
    return out;
  }

  /** Pre-order subtree of {@code f}. */
  private List<Field> subtree(Field f) {
    List<Field> out = new ArrayList<>();
    out.add(f);
    for (Field c : children.getOrDefault(f.id(), List.of())) {
      out.addAll(subtree(c));
    }
    return out;
  }

  private static boolean sameShape(List<Field> ours, List<Field> theirs) {
    if (ours.size() != theirs.size()) {
      return false;
    }
    int base = theirs.get(0).id();
    Map<Integer, Integer> ourPos = new HashMap<>();
    for (int i = 0; i < ours.size(); i++) {
      ourPos.put(ours.get(i).id(), i);
    }
    for (int i = 0; i < ours.size(); i++) {
      Field o = ours.get(i);
      Field t = theirs.get(i);
      if (!o.logicalType().equals(t.logicalType())) {
        return false;
      }
      if (i > 0 && !o.name().equals(t.name())) {
        return false;
      }
      int ourParent = o.isTopLevel() ? -1 : ourPos.getOrDefault(o.parentId(), -2);
      int theirParent = t.isTopLevel() ? -1 : t.parentId() - base;
      if (i > 0 && ourParent != theirParent) {
        return false;
      }
    }
    return true;
  }

  private static String describe(List<Field> fields) {
    if (fields.size() == 1) {
      return fields.get(0).logicalType();
    }
    StringBuilder sb = new StringBuilder(fields.get(0).logicalType()).append("<");
    for (int i = 1; i < fields.size(); i++) {
      sb.append(i > 1 ? ", " : "").append(fields.get(i).name()).append(": ")
          .append(fields.get(i).logicalType());
    }
    return sb.append(">").toString();
  }

  private void checkNulls(Field f, FieldVector v, String path, int rows) {
    if (!f.nullable() && rows > 0 && v.getNullCount() > 0) {
      throw new InvalidInputException("column '" + path + "' is not nullable, but the batch has "
          + v.getNullCount() + " null(s) in it");
    }
    List<Field> kids = children.getOrDefault(f.id(), List.of());
    List<FieldVector> childVectors = v.getChildrenFromFields();
    // Children of a nullable struct may be null where the struct is: only a required struct's
    // required children are checked.
    if (!f.nullable() && kids.size() == childVectors.size() && f.logicalType().equals("struct")) {
      for (int i = 0; i < kids.size(); i++) {
        checkNulls(kids.get(i), childVectors.get(i), path + "." + kids.get(i).name(), rows);
      }
    }
  }

  private static String names(List<Field> top) {
    List<String> out = new ArrayList<>();
    top.forEach(f -> out.add(f.name() + " " + f.logicalType()));
    return String.join(", ", out);
  }
}
